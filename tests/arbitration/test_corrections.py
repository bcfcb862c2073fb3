"""Corrections and the edges of the rulings: what a superseding entry undoes, scheduled games."""

from __future__ import annotations

import pytest

from arbitration.log import log_verify
from arbitration.models import LogEntry
from games.models import Game

pytestmark = pytest.mark.django_db


def test_correcting_a_huff_puts_the_piece_back_and_reopens_the_choice(desk, new_game):
    game = new_game(rule_set="standard-huff")
    body = desk.play(game.pk, "11-15", "22-18", "9-13")
    fen, choice = body["fen"], body["open_choices"]
    desk.rule(game.pk, "huff", "white", square=15)
    huff = LogEntry.objects.get(game=game, kind="huff")
    status, body = desk.rule(game.pk, "correction", entry=huff.seq, reason="wrong piece")
    assert status == 201 and body["fen"] == fen and body["open_choices"] == choice
    assert LogEntry.objects.filter(game=game).last().fen == fen
    status, body = desk.rule(game.pk, "let_stand", "white")
    assert status == 201 and body["open_choices"] == []


def test_correcting_an_over_the_angle_ruling_lifts_the_constraint(desk, new_game):
    game = new_game()
    desk.rule(game.pk, "over_the_angle", "black", square=11, toward=15)
    entry = LogEntry.objects.get(game=game, kind="over_the_angle")
    status, body = desk.rule(game.pk, "correction", entry=entry.seq, reason="it was square 10")
    assert status == 201 and body["constraints"] == []
    assert desk.move(game.pk, "9-13")[0] == 201


def test_correcting_the_forfeiting_caution_resumes_the_game(desk, new_game):
    game = new_game()
    desk.rule(game.pk, "touch_offence", "black")
    _, body = desk.rule(game.pk, "touch_offence", "black")
    assert body["termination"] == "forfeit_touch_offence"
    second = LogEntry.objects.filter(game=game, kind="touch_offence").last()
    status, body = desk.rule(game.pk, "correction", entry=second.seq, reason="it was an adjustment with intimation")
    assert status == 201 and body["status"] == "in_progress" and body["cautions"]["black"] == 1
    assert body["result"] is None and body["termination"] is None
    assert log_verify(game).valid


def test_correcting_a_move_after_the_game_ended_by_it_resumes_the_game(desk, new_game):
    game = new_game(start_fen="B:W18:B14,1")
    _, body = desk.move(game.pk, "14x23")
    assert body["termination"] == "no_legal_move"
    move = LogEntry.objects.get(game=game, kind="move")
    status, body = desk.rule(game.pk, "correction", entry=move.seq, reason="it was 1-6")
    assert status == 201 and body["status"] == "in_progress" and body["ply"] == 0
    status, body = desk.move(game.pk, "1-6")
    assert (status, body["error"]["code"]) == (422, "illegal_move")  # the capture is still compulsory


def test_game_created_and_system_entries_cannot_be_corrected(desk, new_game):
    game = new_game()
    status, body = desk.rule(game.pk, "correction", entry=1, reason="no")
    assert (status, body["error"]["code"]) == (422, "invalid_ruling")
    status, body = desk.rule(game.pk, "correction", entry=99, reason="no")
    assert (status, body["error"]["code"]) == (422, "invalid_ruling")


def test_own_piece_removed_applies_only_to_the_capture_just_made(desk, new_game):
    game = new_game()
    desk.play(game.pk, "11-15")
    status, body = desk.rule(game.pk, "own_piece_removed", "black", square=10, choice="play_on")
    assert (status, body["error"]["code"]) == (422, "invalid_ruling")


def test_a_scheduled_game_starts_with_its_first_move(desk, players):
    game = Game.objects.create(black=players[0], white=players[1], status=Game.Status.SCHEDULED)
    game.referees.add(desk.user)
    status, body = desk.move(game.pk, "11-15")
    assert status == 201 and body["status"] == "in_progress" and body["ply"] == 1
    assert [e.kind for e in LogEntry.objects.filter(game=game)] == ["system", "move"]
    assert log_verify(game).valid


def test_under_customary_rules_jumping_is_optional_and_opens_no_huff(desk, new_game):
    game = new_game(rule_set="customary")
    desk.play(game.pk, "11-15", "22-18")
    status, body = desk.move(game.pk, "9-13")
    assert status == 201 and body["open_choices"] == []


def _refused_correction(desk, game) -> None:
    end = LogEntry.objects.get(game=game, kind="game_end")
    before = desk.state(game.pk)
    status, body = desk.rule(game.pk, "correction", entry=end.seq, reason="the referee prefers to play on")
    assert (status, body["error"]["code"]) == (422, "invalid_ruling"), body
    after = desk.state(game.pk)
    assert (after["status"], after["result"], after["termination"]) == (
        before["status"], before["result"], before["termination"])
    assert not LogEntry.objects.filter(game=game, kind="correction").exists()


def test_a_no_legal_move_ending_cannot_be_corrected(desk, new_game):
    game = new_game(start_fen="B:W18:B14,1")
    desk.move(game.pk, "14x23")
    _refused_correction(desk, game)


def test_a_fifty_move_draw_cannot_be_corrected(desk, new_game):
    import itertools

    game = new_game(start_fen="W:WK1,K2:BK32", progress_rule="fifty-move", repetition_threshold=None)
    body = desk.play(game.pk, *itertools.islice(itertools.cycle(["1-5", "32-28", "5-1", "28-32"]), 100))
    assert body["termination"] == "draw_fifty_move"
    _refused_correction(desk, game)


def test_an_automatic_forty_move_draw_cannot_be_corrected_but_a_ruled_one_can(desk, new_game):
    import itertools

    shuffle = ["1-5", "32-28", "5-1", "28-32"]
    game = new_game(start_fen="W:WK1,K2:BK32", progress_rule="forty-move-automatic", repetition_threshold=None)
    body = desk.play(game.pk, *itertools.islice(itertools.cycle(shuffle), 80))
    assert body["termination"] == "draw_forty_move"
    _refused_correction(desk, game)
    ruled = new_game(start_fen="W:WK1,K2:BK32", progress_rule="forty-move-notice", repetition_threshold=None)
    desk.rule(ruled.pk, "forty_move_notice", "black")
    desk.play(ruled.pk, *itertools.islice(itertools.cycle(shuffle), 79))
    desk.rule(ruled.pk, "forty_move_ruling", outcome="draw")
    end = LogEntry.objects.get(game=ruled, kind="game_end")
    status, body = desk.rule(ruled.pk, "correction", entry=end.seq, reason="the count was wrong")
    assert status == 201 and body["status"] == "in_progress"


def test_a_loss_by_delay_cannot_be_corrected_nor_undone_by_correcting_a_move(desk, new_game):
    from tests.support.clocks import age

    game = new_game(clock={"control": "per-move", "move_seconds": 10, "sole_capture_seconds": 4, "grace_seconds": 5})
    desk.rule(game.pk, "clock_start")
    desk.play(game.pk, "11-15")
    age(game.pk, 16)
    status, body = desk.move(game.pk, "22-18")
    assert (status, body["error"]["code"]) == (409, "game_over")
    assert desk.state(game.pk)["termination"] == "loss_by_delay"
    _refused_correction(desk, game)
    move = LogEntry.objects.get(game=game, kind="move")
    status, body = desk.rule(game.pk, "correction", entry=move.seq, reason="it was 11-16")
    assert (status, body["error"]["code"]) == (422, "invalid_ruling")
    assert desk.state(game.pk)["termination"] == "loss_by_delay"


def test_correcting_a_resignation_resumes_the_game_and_the_log_verifies(desk, new_game):
    game = new_game()
    desk.rule(game.pk, "resign", "black")
    resign = LogEntry.objects.get(game=game, kind="resign")
    status, body = desk.rule(game.pk, "correction", entry=resign.seq, reason="it was White who resigned")
    assert status == 201 and body["status"] == "in_progress"
    assert not LogEntry.objects.filter(game=game, kind="game_end", superseded_by__isnull=True).exists()
    assert log_verify(game).valid


def test_correcting_the_first_caution_resumes_a_forfeit_also_after_an_earlier_ending_was_undone(desk, new_game):
    game = new_game()
    desk.rule(game.pk, "touch_offence", "black")
    first = LogEntry.objects.get(game=game, kind="touch_offence")
    desk.rule(game.pk, "resign", "black")
    resign = LogEntry.objects.get(game=game, kind="resign")
    desk.rule(game.pk, "correction", entry=resign.seq, reason="he only stood up")
    _, body = desk.rule(game.pk, "touch_offence", "black")
    assert body["termination"] == "forfeit_touch_offence"
    status, body = desk.rule(game.pk, "correction", entry=first.seq, reason="it was White's hand")
    assert status == 201 and body["status"] == "in_progress" and body["cautions"]["black"] == 1
    assert log_verify(game).valid


def test_correcting_a_ruling_whose_ending_was_undone_leaves_a_later_ending_alone(desk, new_game):
    game = new_game()
    desk.rule(game.pk, "resign", "black")
    resign = LogEntry.objects.get(game=game, kind="resign")
    end = LogEntry.objects.get(game=game, kind="game_end")
    desk.rule(game.pk, "correction", entry=end.seq, reason="the game went on")
    desk.rule(game.pk, "draw_agreed")
    status, body = desk.rule(game.pk, "correction", entry=resign.seq, reason="no resignation at all")
    assert status == 201
    assert (body["status"], body["result"], body["termination"]) == ("finished", "1/2-1/2", "draw_agreement")
    assert log_verify(game).valid
