"""The tournament log chained: seq per tournament, prev_hash, hash (an HMAC under the record key), key_id.

The rows already written are numbered in the order they were written (by id) and chained under
the record key as they stand; no row is lost or changed otherwise. ``created_at`` is set before
the hash (which covers it) instead of by ``auto_now_add``; the log protects its tournament.
"""

from django.db import migrations, models


def chain(apps, schema_editor):
    # The canonical content and the keyed hash are those the verification recomputes.
    from core.chain import GENESIS_HASH, chain_hash
    from tournaments.log import row_content

    TournamentLog = apps.get_model("tournaments", "TournamentLog")
    seq_of: dict[int, int] = {}
    last: dict[int, tuple[int, str]] = {}
    for row in TournamentLog.objects.order_by("tournament_id", "id").iterator():
        seq, prev_hash = last.get(row.tournament_id, (0, GENESIS_HASH))
        seq += 1
        content = row_content(
            tournament_id=row.tournament_id, seq=seq, kind=row.kind, actor_id=row.actor_id,
            from_status=row.from_status, to_status=row.to_status, reason=row.reason, data=row.data,
            supersedes_seq=seq_of.get(row.supersedes_id), created_at=row.created_at,
        )
        key_id, digest = chain_hash(content, prev_hash)
        TournamentLog.objects.filter(pk=row.pk).update(seq=seq, prev_hash=prev_hash, hash=digest, key_id=key_id)
        seq_of[row.pk] = seq
        last[row.tournament_id] = (seq, digest)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0005_player_moved'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournamentlog',
            name='seq',
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.AddField(
            model_name='tournamentlog',
            name='prev_hash',
            field=models.CharField(default='', max_length=64),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='tournamentlog',
            name='hash',
            field=models.CharField(default='', max_length=64),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='tournamentlog',
            name='key_id',
            field=models.CharField(default='', help_text='The id of the record key the hash is an HMAC under.', max_length=8),
            preserve_default=False,
        ),
        migrations.RunPython(chain, migrations.RunPython.noop),
    ]
