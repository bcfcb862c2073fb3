"""The record key: each entry names the key its hash is an HMAC under; existing chains are sealed.

Entries written before have an empty ``key_id`` (plain SHA-256). Each game's chain that ends
with such an entry gets one more entry, a ``system`` entry hashed under the record key: its
HMAC covers ``prev_hash``, the hash of the last plain entry, and so every plain entry before it.
No entry is changed or lost; ``verify_log`` still checks the plain hashes.
"""

from django.db import migrations, models
from django.utils import timezone


def seal(apps, schema_editor):
    # The canonical content and the keyed hash are those the verification recomputes.
    from arbitration.log import entry_content
    from core.chain import chain_hash

    Game = apps.get_model("games", "Game")
    LogEntry = apps.get_model("arbitration", "LogEntry")
    games = Game.objects.filter(log_seq__gt=0).order_by("id")
    for game in games.iterator():
        last = LogEntry.objects.filter(game_id=game.pk).order_by("-seq").first()
        if last is None or last.key_id:
            continue
        seq, now = last.seq + 1, timezone.now()
        data = {"sealed": True, "plain_entries": last.seq}
        note = (f"The record is sealed under the record key: entries #1 to #{last.seq} were hashed with "
                "plain SHA-256; this entry's HMAC covers them.")
        content = entry_content(
            game_id=game.pk, seq=seq, kind="system", side="", law="", note=note, data=data, actor_id=None,
            created_at=now, ply=game.ply, fen=game.fen, supersedes_seq=None,
        )
        key_id, digest = chain_hash(content, last.hash)
        LogEntry.objects.create(
            game_id=game.pk, seq=seq, kind="system", side="", law="", note=note, data=data, actor_id=None,
            created_at=now, ply=game.ply, fen=game.fen, supersedes=None, prev_hash=last.hash, hash=digest,
            key_id=key_id,
        )
        Game.objects.filter(pk=game.pk).update(log_seq=seq, log_head=digest)


class Migration(migrations.Migration):

    dependencies = [
        ('arbitration', '0004_lean_indexes'),
        ('games', '0005_player_moved'),
    ]

    operations = [
        migrations.AddField(
            model_name='logentry',
            name='key_id',
            field=models.CharField(blank=True, default='', help_text='The id of the record key the hash is an HMAC under (core.chain); empty: plain SHA-256, before keys.', max_length=8),
        ),
        migrations.RunPython(seal, migrations.RunPython.noop),
    ]
