"""The failure to capture (Laws 16-17): each branch under standard-huff, and the same entry under standard."""

from __future__ import annotations

import pytest

from arbitration.models import LogEntry
from games.models import Move

pytestmark = pytest.mark.django_db

# After 11-15 22-18 Black must take 15x22; 9-13 fails to capture with the man on 15.
OPENING = ("11-15", "22-18")


def _failed_capture(desk, new_game):
    game = new_game(rule_set="standard-huff")
    desk.play(game.pk, *OPENING)
    status, body = desk.move(game.pk, "9-13")
    assert status == 201 and body["ply"] == 3
    assert body["open_choices"] == [{"kind": "huff", "law": "16", "chooser": "white", "offender": "black",
                                     "move": "9-13", "pieces": [15], "ply": 3}]
    return game, body


def test_a_huff_removes_the_piece_that_should_have_captured_and_is_not_a_move(desk, new_game):
    game, before = _failed_capture(desk, new_game)
    status, body = desk.rule(game.pk, "huff", "white", square=14)
    assert (status, body["error"]["code"]) == (422, "invalid_ruling")
    status, body = desk.rule(game.pk, "huff", "white", square=15)
    assert status == 201
    assert body["ply"] == 3 and body["side_to_move"] == "white" and body["open_choices"] == []
    assert "15" not in body["fen"].split(":B")[1].split(",")
    assert LogEntry.objects.filter(game=game).last().law == "16"
    assert desk.play(game.pk, "18-14")["ply"] == 4  # the chooser then moves


def test_compel_takes_the_move_back_and_the_offender_must_capture(desk, new_game):
    game, _ = _failed_capture(desk, new_game)
    status, body = desk.rule(game.pk, "compel", "white")
    assert status == 201
    assert body["ply"] == 2 and body["side_to_move"] == "black"
    assert body["constraints"] == [{"kind": "compelled_capture", "law": "17", "side": "black"}]
    assert Move.objects.get(game=game, ply=3).superseded_by.kind == "compel"
    status, body = desk.move(game.pk, "9-13")
    assert (status, body["error"]["code"]) == (422, "illegal_move") and "compelled" in body["error"]["message"]
    status, body = desk.move(game.pk, "15x22")
    assert status == 201 and body["constraints"] == [] and body["ply"] == 3


def test_let_stand_keeps_the_move_and_closes_the_choice(desk, new_game):
    game, before = _failed_capture(desk, new_game)
    status, body = desk.rule(game.pk, "let_stand", "white")
    assert status == 201 and body["open_choices"] == [] and body["fen"] == before["fen"]
    assert LogEntry.objects.filter(game=game).last().kind == "let_stand"


def test_moving_without_choosing_lets_the_failure_stand(desk, new_game):
    game, _ = _failed_capture(desk, new_game)
    status, body = desk.move(game.pk, "18x11")
    assert status == 201 and body["open_choices"] == [] and body["ply"] == 4
    system = LogEntry.objects.get(game=game, kind="system")
    assert system.data["by_default"] is True and system.law == "17"


def test_under_standard_the_same_entry_is_refused_and_recorded_as_a_false_move_forfeits(desk, new_game):
    game = new_game(rule_set="standard")
    desk.play(game.pk, *OPENING)
    status, body = desk.move(game.pk, "9-13")
    assert (status, body["error"]["code"]) == (422, "illegal_move")
    assert "capture is compulsory" in body["error"]["message"] and body["error"]["details"]["legal_moves"] == ["15x22"]
    status, body = desk.rule(game.pk, "false_move", "black", move="9-13")
    assert (body["status"], body["result"], body["termination"]) == ("finished", "0-1", "forfeit_false_move")
