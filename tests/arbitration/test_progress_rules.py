"""Law 22's 40-move rule in both forms, Pask's 50-move rule, and repetition claims at 3 and 4."""

from __future__ import annotations

import itertools

import pytest

pytestmark = pytest.mark.django_db

# White to move with two kings against one; 1-5 32-28 5-1 28-32 returns to the start position.
KINGS = "W:WK1,K2:BK32"
SHUFFLE = ["1-5", "32-28", "5-1", "28-32"]


def _shuffle(desk, game_id: int, plies: int) -> dict:
    from games.models import Game

    body: dict = {}
    offset = Game.objects.get(pk=game_id).ply % 4
    for text in itertools.islice(itertools.cycle(SHUFFLE), offset, offset + plies):
        status, body = desk.move(game_id, text)
        assert status == 201, (text, body)
    return body


def test_forty_move_notice_counts_the_stronger_sides_moves_and_awaits_the_ruling(desk, new_game):
    game = new_game(start_fen=KINGS, progress_rule="forty-move-notice")
    status, body = desk.rule(game.pk, "forty_move_notice", "black")
    assert status == 201
    assert body["forty_move"]["active"] and body["forty_move"]["stronger_side"] == "white"
    body = _shuffle(desk, game.pk, 78)  # 39 White moves
    assert body["forty_move"]["count"] == 39 and not body["forty_move"]["awaiting_ruling"]
    body = _shuffle(desk, game.pk, 1)  # ply 79: White's 40th
    assert body["forty_move"]["count"] == 40 and body["forty_move"]["awaiting_ruling"]
    status, body = desk.move(game.pk, "32-28")
    assert (status, body["error"]["code"]) == (409, "ruling_required")
    status, body = desk.rule(game.pk, "forty_move_ruling", outcome="draw")
    assert (body["status"], body["result"], body["termination"]) == ("finished", "1/2-1/2", "draw_forty_move")


def test_forty_move_ruling_advantage_shown_closes_the_count_and_play_goes_on(desk, new_game):
    game = new_game(start_fen=KINGS, progress_rule="forty-move-notice")
    desk.rule(game.pk, "forty_move_notice", "black")
    _shuffle(desk, game.pk, 79)
    status, body = desk.rule(game.pk, "forty_move_ruling", outcome="advantage_shown")
    assert status == 201 and body["forty_move"]["active"] is False and body["status"] == "in_progress"
    status, body = desk.move(game.pk, "28-32")
    assert status == 201


def test_the_forty_move_notice_is_refused_when_the_game_has_another_progress_rule(desk, new_game):
    game = new_game(start_fen=KINGS, progress_rule="fifty-move")
    status, body = desk.rule(game.pk, "forty_move_notice", "black")
    assert (status, body["error"]["code"]) == (422, "invalid_ruling")


def test_automatic_forty_move_rule_draws_after_forty_moves_each_without_capture_or_man_move(desk, new_game):
    game = new_game(start_fen=KINGS, progress_rule="forty-move-automatic", repetition_threshold=None)
    body = _shuffle(desk, game.pk, 79)
    assert body["status"] == "in_progress" and body["forty_move"]["mode"] == "automatic"
    assert body["forty_move"]["count"] == 39
    body = _shuffle(desk, game.pk, 1)
    assert (body["status"], body["result"], body["termination"]) == ("finished", "1/2-1/2", "draw_forty_move")


def test_automatic_forty_move_count_restarts_on_a_man_move(desk, new_game):
    game = new_game(start_fen="W:WK1,K2,30:BK32", progress_rule="forty-move-automatic", repetition_threshold=None)
    _shuffle(desk, game.pk, 60)
    status, body = desk.move(game.pk, "30-26")  # a man moves
    assert status == 201 and body["forty_move"]["count"] == 0 and body["progress"]["plies_since_progress"] == 0


def test_fifty_move_rule_draws_by_itself_after_fifty_moves_each(desk, new_game):
    game = new_game(start_fen=KINGS, progress_rule="fifty-move", repetition_threshold=None)
    body = _shuffle(desk, game.pk, 99)
    assert body["status"] == "in_progress" and body["progress"]["count"] == 49
    body = _shuffle(desk, game.pk, 1)
    assert (body["status"], body["result"], body["termination"]) == ("finished", "1/2-1/2", "draw_fifty_move")


@pytest.mark.parametrize("threshold", [3, 4])
def test_repetition_claim_draws_when_the_move_repeats_the_position_for_the_nth_time(desk, new_game, threshold):
    game = new_game(start_fen=KINGS, progress_rule="none", repetition_threshold=threshold)
    _shuffle(desk, game.pk, 3)
    status, body = desk.rule(game.pk, "repetition_claim", "black", move="28-32")
    assert (status, body["error"]["code"]) == (422, "repetition_not_established")
    assert body["error"]["message"] == f"the position would occur for the 2nd time; {threshold} are needed"
    body = _shuffle(desk, game.pk, 1 + 4 * (threshold - 2) - 1)
    assert body["repetition"]["current"] == threshold - 1 and body["side_to_move"] == "black"
    status, body = desk.rule(game.pk, "repetition_claim", "black", move="28-32")
    assert status == 201, body
    assert (body["status"], body["result"], body["termination"]) == ("finished", "1/2-1/2", "draw_repetition")
    assert body["moves"][-1]["move"] == "28-32" and body["repetition"]["current"] == threshold


def test_a_repetition_claim_must_come_from_the_side_to_move(desk, new_game):
    game = new_game(start_fen=KINGS, repetition_threshold=3)
    status, body = desk.rule(game.pk, "repetition_claim", "black", move="32-28")
    assert (status, body["error"]["code"]) == (422, "invalid_ruling")
