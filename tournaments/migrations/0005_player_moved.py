"""The foreign keys point at players.Player and Player leaves tournaments: state only, no table changes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0004_glicko2_ratings'),
        ('players', '0001_initial'),
        ('games', '0005_player_moved'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='entry',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='players.player'),
                ),
                migrations.AlterField(
                    model_name='ratinghistory',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_history', to='players.player'),
                ),
                migrations.AlterField(
                    model_name='match',
                    name='forfeit_winner',
                    field=models.ForeignKey(blank=True, help_text='A forfeit: who is awarded the match (empty: both lose).', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='players.player'),
                ),
                migrations.AlterField(
                    model_name='match',
                    name='player_one',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='players.player'),
                ),
                migrations.AlterField(
                    model_name='match',
                    name='first_black',
                    field=models.ForeignKey(blank=True, help_text='The outcome of the lots: who has Black in game 1.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='players.player'),
                ),
                migrations.AlterField(
                    model_name='match',
                    name='player_two',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='players.player'),
                ),
                migrations.AlterField(
                    model_name='tournament',
                    name='players',
                    field=models.ManyToManyField(related_name='tournaments', through='tournaments.Entry', to='players.player'),
                ),
                migrations.DeleteModel(
                    name='Player',
                ),
            ],
            database_operations=[],
        ),
    ]
