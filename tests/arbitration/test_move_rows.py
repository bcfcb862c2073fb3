"""Move rows (what the game page and the PDN show) are checked against their log entries by verify."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from arbitration.log import log_verify
from arbitration.models import LogEntry
from arbitration.services import game_move_record, ruling_issue
from games.models import Move

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(new_game, referee):
    game = new_game()
    for text in ("11-15", "23-19", "8-11"):
        game_move_record(acting_user=referee, game_id=game.pk, move=text)
    return game


def _edit_move(game, ply: int, **fields) -> None:
    assignments = ", ".join(f"{name} = %s" for name in fields)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE games_move SET {assignments} WHERE game_id = %s AND ply = %s",  # noqa: S608
                       [*fields.values(), game.pk, ply])


def test_a_move_rows_pdn_edited_by_hand_is_reported_at_its_entry(played, api_client, capsys):
    assert api_client.get(f"/api/v1/games/{played.pk}/log/verify").json()["valid"] is True
    _edit_move(played, 2, pdn="24-19")
    body = api_client.get(f"/api/v1/games/{played.pk}/log/verify").json()
    assert (body["valid"], body["broken_at"]) == (False, 3)
    assert "ply 2" in body["reason"] and "pdn '24-19'" in body["reason"] and "'23-19'" in body["reason"]
    with pytest.raises(CommandError):
        call_command("verify_log", "--game", str(played.pk))
    assert f"game {played.pk}: BROKEN at entry #3" in capsys.readouterr().out


@pytest.mark.parametrize(("field", "value"), [
    ("fen_after", "W:W21,22:B1"), ("side", "white"), ("captures", "[18]"), ("crowns", True), ("path", "[9, 13]"),
    ("moved_man", False),
])
def test_any_field_of_a_move_row_edited_by_hand_is_reported(played, field, value):
    _edit_move(played, 3, **{field: value})
    outcome = log_verify(played)
    assert (outcome.valid, outcome.broken_at) == (False, 4) and field in outcome.reason


def test_a_move_row_deleted_by_hand_is_reported(played):
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM games_move WHERE game_id = %s AND ply = 3", [played.pk])
    outcome = log_verify(played)
    assert (outcome.valid, outcome.broken_at) == (False, 4) and "has no move row" in outcome.reason


def test_a_move_row_written_outside_the_services_is_reported(played):
    entry = LogEntry.objects.get(game=played, seq=1)
    Move.objects.create(game=played, ply=4, side="white", pdn="22-18", entered="22-18", path=[22, 18],
                        fen_after="W:W1:B2", recorded_at=entry.created_at, log_entry=entry)
    outcome = log_verify(played)
    assert outcome.valid is False and "ply 4" in outcome.reason and "no move entry" in outcome.reason


def test_moves_put_back_by_a_correction_must_stay_superseded_by_it(played, referee, api_client):
    ruling_issue(acting_user=referee, game_id=played.pk, kind="correction",
                 payload={"entry": 4, "reason": "it was 9-13"})
    game_move_record(acting_user=referee, game_id=played.pk, move="9-13")
    assert log_verify(played).valid
    correction = LogEntry.objects.get(game=played, kind="correction")
    superseded = Move.objects.get(game=played, superseded_by=correction)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE games_move SET superseded_by_id = NULL, ply = 9 WHERE id = %s", [superseded.pk])
    body = api_client.get(f"/api/v1/games/{played.pk}/log/verify").json()
    assert (body["valid"], body["broken_at"]) == (False, 4) and "ply 9" in body["reason"]
    with connection.cursor() as cursor:
        cursor.execute("UPDATE games_move SET superseded_by_id = %s WHERE game_id = %s AND ply = 3 AND id <> %s",
                       [correction.pk, played.pk, superseded.pk])
        cursor.execute("UPDATE games_move SET ply = 3 WHERE id = %s", [superseded.pk])
    body = api_client.get(f"/api/v1/games/{played.pk}/log/verify").json()
    assert (body["valid"], body["broken_at"]) == (False, 4)
    assert f"is live but the log says it is superseded by entry #{correction.seq}" in body["reason"]
