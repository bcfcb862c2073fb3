"""The tournament log's chain columns required, one seq per tournament; the log protects its tournament.

Apart from 0006 so that the table is altered in another transaction than the rows were updated in.
"""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0006_tournamentlog_chain'),
    ]

    operations = [
        migrations.AlterField(
            model_name='tournamentlog',
            name='seq',
            field=models.PositiveIntegerField(),
        ),
        migrations.AlterField(
            model_name='tournamentlog',
            name='created_at',
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.AlterField(
            model_name='tournamentlog',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='log', to='tournaments.tournament'),
        ),
        migrations.AddConstraint(
            model_name='tournamentlog',
            constraint=models.UniqueConstraint(fields=('tournament', 'seq'), name='tournamentlog_unique_seq'),
        ),
    ]
