"""The ``card_corrected`` kind: the captains told that their match's card followed a corrected board game."""

from django.db import migrations, models

KINDS = [('round_published', "A round's pairings are published (your board)"), ('result_to_confirm', 'A result of yours to confirm'), ('appeal_decided', 'An appeal on your game is decided'), ('tournament_reopened', 'A tournament of yours is reopened'), ('fixture_reminder', 'A league match of yours is near (a reminder)'), ('fixture_postponed', "A postponement of your team's league match"), ('card_corrected', "Your team's match card follows a corrected game")]


class Migration(migrations.Migration):

    dependencies = [
        ('notifications', '0002_league_kinds'),
    ]

    operations = [
        migrations.AlterField(
            model_name='notification',
            name='kind',
            field=models.CharField(choices=KINDS, max_length=32),
        ),
        migrations.AlterField(
            model_name='unsubscription',
            name='kind',
            field=models.CharField(choices=KINDS, max_length=32),
        ),
    ]
