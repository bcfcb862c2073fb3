"""The record key: the log's hashes are HMACs under a key held outside the database.

An attacker with every right on the database (the append-only triggers switched off) rewrites an
entry and recomputes every later hash and the game's chain head; without the key the
verification still finds it. Keys rotate: entries under an old key verify with it configured.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from arbitration.log import entry_content, log_verify
from arbitration.models import LogEntry
from arbitration.services import game_move_record, ruling_issue
from core.chain import GENESIS_HASH, key_id_of
from tests.support.tamper import as_attacker, historical_apps

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(new_game, referee):
    game = new_game()
    for text in ("11-15", "23-19", "8-11"):
        game_move_record(acting_user=referee, game_id=game.pk, move=text)
    return game


def _sha256(content: str, prev: str) -> str:
    return hashlib.sha256((content + prev).encode()).hexdigest()


def _hmac_under(key: str) -> Callable[[str, str], str]:
    return lambda content, prev: hmac.new(key.encode(), (content + prev).encode(), hashlib.sha256).hexdigest()


def _rechain(game, *, edit_seq: int | None, hasher: Callable[[str, str], str], key_id: str | None = None) -> None:
    """Rewrites the note of ``edit_seq`` and recomputes every hash and the game's head, as an attacker would."""
    entries = list(LogEntry.objects.filter(game=game).order_by("seq"))
    seq_of = {e.pk: e.seq for e in entries}
    previous = GENESIS_HASH
    for entry in entries:
        note = "nothing happened" if entry.seq == edit_seq else entry.note
        content = entry_content(
            game_id=game.pk, seq=entry.seq, kind=entry.kind, side=entry.side, law=entry.law, note=note,
            data=entry.data, actor_id=entry.actor_id, created_at=entry.created_at, ply=entry.ply, fen=entry.fen,
            supersedes_seq=seq_of.get(entry.supersedes_id),
        )
        digest = hasher(content, previous)
        as_attacker("UPDATE arbitration_logentry SET note = %s, prev_hash = %s, hash = %s, key_id = %s WHERE id = %s",
                    [note, previous, digest, entry.key_id if key_id is None else key_id, entry.pk])
        previous = digest
    as_attacker("UPDATE games_game SET log_head = %s WHERE id = %s", [previous, game.pk])


def test_new_entries_are_hmacs_under_the_record_key(played, settings):
    entry = LogEntry.objects.get(game=played, seq=2)
    assert entry.key_id == key_id_of(settings.LOG_KEY) and len(entry.key_id) == 8


def test_an_entry_rewritten_with_every_later_hash_recomputed_is_found_without_the_key(played, api_client, capsys):
    _rechain(played, edit_seq=2, hasher=_sha256)  # the old, keyless chain: anyone could recompute it
    body = api_client.get(f"/api/v1/games/{played.pk}/log/verify").json()
    assert (body["valid"], body["broken_at"]) == (False, 1)  # every entry was rehashed, so #1 already fails
    assert "hash does not match" in body["reason"]
    with pytest.raises(CommandError):
        call_command("verify_log", "--game", str(played.pk))
    assert f"game {played.pk}: BROKEN at entry #1" in capsys.readouterr().out


def test_a_rewrite_under_a_guessed_key_is_found_and_the_real_key_would_pass(played, api_client, settings):
    _rechain(played, edit_seq=3, hasher=_hmac_under("a-guessed-key"))
    body = api_client.get(f"/api/v1/games/{played.pk}/log/verify").json()
    assert body["valid"] is False and "hash does not match" in body["reason"]
    _rechain(played, edit_seq=3, hasher=_hmac_under(settings.LOG_KEY))  # only the key holder can do this
    assert api_client.get(f"/api/v1/games/{played.pk}/log/verify").json()["valid"] is True


def test_a_chain_downgraded_to_plain_sha256_is_refused(played, api_client):
    _rechain(played, edit_seq=2, hasher=_sha256, key_id="")
    body = api_client.get(f"/api/v1/games/{played.pk}/log/verify").json()
    assert (body["valid"], body["broken_at"]) == (False, 4)
    assert "plain SHA-256" in body["reason"] and "no keyed entry follows" in body["reason"]


def test_entries_under_an_old_key_verify_with_the_old_key_configured(new_game, referee, settings):
    settings.LOG_KEY = "the-first-key"
    game = new_game()
    game_move_record(acting_user=referee, game_id=game.pk, move="11-15")
    settings.LOG_KEY, settings.LOG_KEYS_OLD = "the-second-key", ["the-first-key"]
    game_move_record(acting_user=referee, game_id=game.pk, move="23-19")
    key_ids = list(LogEntry.objects.filter(game=game).order_by("seq").values_list("key_id", flat=True))
    assert key_ids == [key_id_of("the-first-key")] * 2 + [key_id_of("the-second-key")]
    assert log_verify(game).valid
    with override_settings(LOG_KEYS_OLD=[]):
        outcome = log_verify(game)
        assert (outcome.valid, outcome.broken_at) == (False, 1)
        assert key_id_of("the-first-key") in outcome.reason and "DJANGO_LOG_KEYS_OLD" in outcome.reason


def test_the_migration_seals_a_chain_hashed_before_keys_and_the_seal_covers_it(played, referee, api_client):
    from importlib import import_module

    _rechain(played, edit_seq=None, hasher=_sha256, key_id="")  # as written before the record had a key
    assert log_verify(played).valid is False
    import_module("arbitration.migrations.0005_logentry_key_id_and_seal").seal(
        historical_apps("arbitration", "0005_logentry_key_id_and_seal"), None)
    outcome = log_verify(played)
    assert (outcome.valid, outcome.entries) == (True, 5)
    seal = LogEntry.objects.get(game=played, seq=5)
    assert seal.kind == "system" and seal.key_id and seal.data == {"sealed": True, "plain_entries": 4}
    game_move_record(acting_user=referee, game_id=played.pk, move="22-18")  # the chain goes on, keyed
    assert log_verify(played).valid
    entries = list(LogEntry.objects.filter(game=played).order_by("seq"))
    # A plain entry rewritten and the plain hashes recomputed: the seal's HMAC no longer covers them.
    previous = GENESIS_HASH
    for entry in entries[:4]:
        content = entry_content(
            game_id=played.pk, seq=entry.seq, kind=entry.kind, side=entry.side, law=entry.law,
            note="x" if entry.seq == 2 else entry.note, data=entry.data, actor_id=entry.actor_id,
            created_at=entry.created_at, ply=entry.ply, fen=entry.fen, supersedes_seq=None,
        )
        previous = _sha256(content, previous)
        as_attacker("UPDATE arbitration_logentry SET note = %s, hash = %s WHERE id = %s",
                    ["x" if entry.seq == 2 else entry.note, previous, entry.pk])
        if entry.seq < 4:
            as_attacker("UPDATE arbitration_logentry SET prev_hash = %s WHERE game_id = %s AND seq = %s",
                        [previous, played.pk, entry.seq + 1])
    as_attacker("UPDATE arbitration_logentry SET prev_hash = %s WHERE game_id = %s AND seq = 5", [previous, played.pk])
    body = api_client.get(f"/api/v1/games/{played.pk}/log/verify").json()
    assert (body["valid"], body["broken_at"]) == (False, 5) and "hash does not match" in body["reason"]


def test_a_plain_entry_after_keyed_ones_is_refused(played, referee):
    ruling_issue(acting_user=referee, game_id=played.pk, kind="spectator", note="a cough")
    last = LogEntry.objects.get(game=played, seq=5)
    content = entry_content(
        game_id=played.pk, seq=5, kind=last.kind, side=last.side, law=last.law, note=last.note, data=last.data,
        actor_id=last.actor_id, created_at=last.created_at, ply=last.ply, fen=last.fen, supersedes_seq=None,
    )
    digest = _sha256(content, last.prev_hash)
    as_attacker("UPDATE arbitration_logentry SET hash = %s, key_id = '' WHERE id = %s", [digest, last.pk])
    as_attacker("UPDATE games_game SET log_head = %s WHERE id = %s", [digest, played.pk])
    outcome = log_verify(played)
    assert (outcome.valid, outcome.broken_at) == (False, 5) and "after keyed entries" in outcome.reason
