"""The players' table takes its app's name, once no state points at tournaments.Player any more."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("players", "0001_initial"),
        ("tournaments", "0005_player_moved"),
    ]

    operations = [
        migrations.AlterModelTable(name="player", table=None),
    ]
