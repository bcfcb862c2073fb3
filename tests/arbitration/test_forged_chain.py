"""A forged record is never sealed by the system: plain SHA-256 entries hold only where the record key's
migration sealed them, and no entry is appended after a tail that does not verify under the key.

The attacker has every right on the database (the append-only triggers switched off) but not the
record key: he rewrites a finished game as plain SHA-256 entries, which anyone can compute, with
the resigning side swapped, and sets the game's result and head to match. Before, the next keyed
entry (a player's confirmation, a move, a ruling) was chained onto the plain tail and its HMAC
"sealed" the forgery: verify then said valid.
"""

from __future__ import annotations

import hashlib
import json
from importlib import import_module

import pytest

from arbitration import log as arbitration_log
from arbitration.log import entry_content, log_verify
from arbitration.models import LogEntry
from arbitration.services import game_move_record, ruling_issue
from core.chain import GENESIS_HASH
from games.models import Game
from tests.support.tamper import as_attacker, historical_apps

pytestmark = pytest.mark.django_db


@pytest.fixture
def resigned(new_game, referee, signers):
    """A game White resigned after two moves: 1-0."""
    game = new_game()
    for text in ("11-15", "23-19"):
        game_move_record(acting_user=referee, game_id=game.pk, move=text)
    ruling_issue(acting_user=referee, game_id=game.pk, kind="resign", side="white")
    game.refresh_from_db()
    assert (game.result, game.status) == ("1-0", "finished")
    return game


def _swap(side: str) -> str:
    return {"black": "white", "white": "black"}.get(side, side)


def forge_as_plain(game: Game) -> None:
    """Rewrites every entry of the game as plain SHA-256 with the resigning side swapped (Black resigned:
    0-1), then the game's result and chain head, as an attacker without the key would."""
    entries = list(LogEntry.objects.filter(game=game).order_by("seq"))
    seq_of = {e.pk: e.seq for e in entries}
    previous = GENESIS_HASH
    for entry in entries:
        side, data = entry.side, dict(entry.data)
        if entry.kind in ("resign", "game_end"):
            side = _swap(side)
        if data.get("result") == "1-0":
            data["result"] = "0-1"
        content = entry_content(
            game_id=game.pk, seq=entry.seq, kind=entry.kind, side=side, law=entry.law, note=entry.note.replace(
                "White", "Black"), data=data, actor_id=entry.actor_id, created_at=entry.created_at, ply=entry.ply,
            fen=entry.fen, supersedes_seq=seq_of.get(entry.supersedes_id),
        )
        digest = hashlib.sha256((content + previous).encode()).hexdigest()
        as_attacker("UPDATE arbitration_logentry SET side = %s, data = %s, note = %s, prev_hash = %s, hash = %s, "
                    "key_id = '' WHERE id = %s",
                    [side, json.dumps(data), entry.note.replace("White", "Black"), previous, digest,
                     entry.pk])
        previous = digest
    as_attacker("UPDATE games_game SET result = CASE WHEN result IS NULL THEN NULL ELSE '0-1' END, log_head = %s "
                "WHERE id = %s", [previous, game.pk])


def _record(game: Game) -> list[tuple]:
    return list(LogEntry.objects.filter(game=game).order_by("seq").values_list("seq", "hash", "key_id"))


def test_a_players_confirmation_does_not_seal_a_result_forged_as_plain_sha256(resigned, signers, client_as):
    forge_as_plain(resigned)
    assert log_verify(resigned).valid is False
    before = _record(resigned)
    response = client_as(signers[0]).post(f"/api/v1/games/{resigned.pk}/confirm/")
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "record_broken" and "plain SHA-256" in error["message"]
    assert error["details"]["game"] == resigned.pk
    assert _record(resigned) == before  # nothing written
    assert Game.objects.get(pk=resigned.pk).log_seq == before[-1][0]
    assert log_verify(resigned).valid is False


def test_a_move_or_a_ruling_is_refused_on_a_forged_running_game_and_nothing_is_written(new_game, referee, client_as):
    game = new_game()
    game_move_record(acting_user=referee, game_id=game.pk, move="11-15")
    forge_as_plain(game)
    before = _record(game)
    response = client_as(referee).post(f"/api/v1/games/{game.pk}/moves/", {"move": "23-19"}, format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "record_broken"
    response = client_as(referee).post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "spectator", "note": "a cough"},
                                       format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "record_broken"
    assert _record(game) == before and Game.objects.get(pk=game.pk).ply == 1


def test_a_keyed_entry_chained_onto_a_plain_forgery_does_not_make_it_valid(resigned, signers, client_as, monkeypatch,
                                                                        api_client):
    forge_as_plain(resigned)
    # As the system did before it checked the tail: the confirmation's HMAC covers the forged chain.
    monkeypatch.setattr(arbitration_log, "tail_check", lambda game: None)
    assert client_as(signers[0]).post(f"/api/v1/games/{resigned.pk}/confirm/").status_code == 200
    assert LogEntry.objects.filter(game=resigned).order_by("-seq").first().key_id  # keyed, on a plain tail
    body = api_client.get(f"/api/v1/games/{resigned.pk}/log/verify").json()
    assert (body["valid"], body["broken_at"]) == (False, 1)
    assert "not the seal" in body["reason"] and "plain SHA-256" in body["reason"]


def test_a_tail_that_is_not_the_games_head_is_not_extended(resigned, signers, client_as):
    last = LogEntry.objects.filter(game=resigned).order_by("-seq").first()
    as_attacker("DELETE FROM arbitration_logentry WHERE id = %s", [last.pk])  # the head left as it was
    response = client_as(signers[0]).post(f"/api/v1/games/{resigned.pk}/confirm/")
    assert response.status_code == 409 and response.json()["error"]["code"] == "record_broken"
    assert f"the log ends at entry #{last.seq - 1}" in response.json()["error"]["details"]["reason"]
    assert LogEntry.objects.filter(game=resigned).count() == last.seq - 1


def test_a_keyed_tail_edited_without_the_key_is_not_extended(resigned, signers, client_as):
    last = LogEntry.objects.filter(game=resigned).order_by("-seq").first()
    as_attacker("UPDATE arbitration_logentry SET note = 'nothing happened' WHERE id = %s", [last.pk])
    response = client_as(signers[0]).post(f"/api/v1/games/{resigned.pk}/confirm/")
    assert response.status_code == 409 and "edited after it was written" in response.json()["error"]["message"]


def test_a_chain_the_migration_sealed_verifies_and_goes_on(resigned, signers, client_as):
    """The seal covers the plain entries before it; a plain entry anywhere else breaks the chain."""
    forge_as_plain(resigned)  # here: a chain as written before the record had a key
    import_module("arbitration.migrations.0005_logentry_key_id_and_seal").seal(
        historical_apps("arbitration", "0005_logentry_key_id_and_seal"), None)
    outcome = log_verify(resigned)
    assert outcome.valid, outcome.reason
    plain = LogEntry.objects.filter(game=resigned, key_id="").count()
    seal = LogEntry.objects.get(game=resigned, seq=plain + 1)
    assert seal.data == {"sealed": True, "plain_entries": plain}
    assert client_as(signers[0]).post(f"/api/v1/games/{resigned.pk}/confirm/").status_code == 200
    assert log_verify(resigned).valid
