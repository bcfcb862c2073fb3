"""Game's players point at players.Player: state only, the foreign keys and the table are unchanged."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0004_lean_indexes'),
        ('players', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='game',
                    name='black',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='games_as_black', to='players.player'),
                ),
                migrations.AlterField(
                    model_name='game',
                    name='white',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='games_as_white', to='players.player'),
                ),
            ],
            database_operations=[],
        ),
    ]
