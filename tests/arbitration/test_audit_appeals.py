"""Appeals (Law 28): one appeal per ruling, a disinterested arbiter nobody names (a standalone game's:
the director who created it), a final decision that the result and the log follow; each through the
service and the API."""

from __future__ import annotations

import pytest

from arbitration.log import log_verify
from arbitration.models import LogEntry
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def arbiter(director):
    """A standalone game's appeals go to the director who created it (the tournaments' tests have theirs)."""
    return director


def _forfeit_under_appeal(desk, new_game):
    """A false move forfeits Black; Black appeals (to the game's director). Returns the game, the ruling and the
    appeal seq."""
    game = new_game()
    desk.rule(game.pk, "false_move", "black", move="11-16")
    ruling = LogEntry.objects.get(game=game, kind="false_move")
    status, body = desk.rule(game.pk, "appeal", "black", entry=ruling.seq, statement="I did not move it")
    assert status == 201, body
    return game, ruling, body["appeals"][0]["seq"]


def _live_endings(game) -> list[LogEntry]:
    return list(LogEntry.objects.filter(game=game, kind="game_end", superseded_by__isnull=True))


def test_a_second_appeal_on_a_ruling_is_refused_while_the_first_is_open(desk, new_game, arbiter):
    game, ruling, _ = _forfeit_under_appeal(desk, new_game)
    status, body = desk.rule(game.pk, "appeal", "black", entry=ruling.seq, statement="again")
    assert (status, body["error"]["code"]) == (409, "appeal_open")
    end = LogEntry.objects.get(game=game, kind="game_end")
    status, body = desk.rule(game.pk, "appeal", "black", entry=end.seq, statement="the forfeit")
    assert (status, body["error"]["code"]) == (409, "appeal_open")
    assert LogEntry.objects.filter(game=game, kind="appeal").count() == 1


def test_a_ruling_whose_appeal_was_decided_cannot_be_appealed_again(desk, new_game, arbiter):
    game, ruling, appeal = _forfeit_under_appeal(desk, new_game)
    status, body = desk.as_user(arbiter).rule(game.pk, "appeal_decision", appeal=appeal, decision="upheld",
                                              reason="the move was seen")
    assert status == 201
    end = LogEntry.objects.get(game=game, kind="game_end")
    decision = LogEntry.objects.get(game=game, kind="appeal_decision")
    for seq in (ruling.seq, end.seq, decision.seq):
        status, body = desk.rule(game.pk, "appeal", "black", entry=seq, statement="once more")
        assert (status, body["error"]["code"]) == (409, "appeal_decided"), seq


def test_an_entry_whose_appeal_was_decided_cannot_be_corrected(desk, new_game, arbiter):
    game, ruling, appeal = _forfeit_under_appeal(desk, new_game)
    desk.as_user(arbiter).rule(game.pk, "appeal_decision", appeal=appeal, decision="upheld", reason="seen")
    end = LogEntry.objects.get(game=game, kind="game_end")
    decision = LogEntry.objects.get(game=game, kind="appeal_decision")
    for seq in (ruling.seq, end.seq, appeal, decision.seq):
        status, body = desk.rule(game.pk, "correction", entry=seq, reason="the referee changed his mind")
        assert (status, body["error"]["code"]) == (409, "appeal_decided"), seq
    state = desk.state(game.pk)
    assert (state["status"], state["result"], state["termination"]) == ("finished", "0-1", "forfeit_false_move")


def test_the_appellant_names_no_arbiter_and_the_appeal_goes_to_the_games_director(desk, new_game, make_user,
                                                                                   players, director):
    player = make_user("agnes", "player")
    players[0].user = player
    players[0].save()
    make_user("kibitzer", "player")
    game = new_game()
    desk.rule(game.pk, "touch_offence", "black")
    caution = LogEntry.objects.get(game=game, kind="touch_offence")
    as_player = desk.as_user(player)
    for named in ("kibitzer", "agnes", "ref", director.username):
        status, body = as_player.rule(game.pk, "appeal", entry=caution.seq, statement="x", arbiter=named)
        assert (status, body["error"]["code"]) == (400, "validation_error") and "arbiter" in body["error"]["details"]["fields"]
    assert not LogEntry.objects.filter(game=game, kind="appeal").exists()
    status, body = as_player.rule(game.pk, "appeal", entry=caution.seq, statement="I gave intimation")
    assert status == 201 and body["appeals"][0]["arbiter"] == "dir" and body["appeals"][0]["side"] == "black"


def test_a_player_of_the_game_is_not_a_disinterested_arbiter(desk, new_game, players, director):
    players[1].user = director  # the game's director plays White: a federation administrator decides
    players[1].save()
    game = new_game()
    desk.rule(game.pk, "touch_offence", "black")
    caution = LogEntry.objects.get(game=game, kind="touch_offence")
    status, body = desk.rule(game.pk, "appeal", "black", entry=caution.seq, statement="x")
    assert status == 201 and body["appeals"][0]["arbiter"] == "a federation administrator"
    status, body = desk.as_user(director).rule(game.pk, "appeal_decision", appeal=body["appeals"][0]["seq"],
                                               decision="upheld", reason="x")
    assert (status, body["error"]["code"]) == (403, "permission_denied")


def test_an_upheld_appeal_does_not_change_the_result(desk, new_game, arbiter):
    game, _, appeal = _forfeit_under_appeal(desk, new_game)
    as_arbiter = desk.as_user(arbiter)
    status, body = as_arbiter.rule(game.pk, "appeal_decision", appeal=appeal, decision="upheld", result="1/2-1/2",
                                   reason="seen, but a draw is fair")
    assert (status, body["error"]["code"]) == (400, "validation_error")
    status, body = as_arbiter.rule(game.pk, "appeal_decision", appeal=appeal, decision="upheld", reason="seen")
    assert status == 201
    assert (body["status"], body["result"], body["termination"]) == ("finished", "0-1", "forfeit_false_move")
    assert len(_live_endings(game)) == 1 and log_verify(game).valid


def test_an_overturned_ruling_with_a_result_supersedes_the_game_end_in_force(desk, new_game, arbiter):
    game = new_game()
    desk.rule(game.pk, "touch_offence", "white")
    caution = LogEntry.objects.get(game=game, kind="touch_offence")
    _, body = desk.rule(game.pk, "appeal", "white", entry=caution.seq, statement="I gave intimation")
    appeal = body["appeals"][0]["seq"]
    desk.rule(game.pk, "draw_agreed")
    ended = LogEntry.objects.get(game=game, kind="game_end")
    status, body = desk.as_user(arbiter).rule(game.pk, "appeal_decision", appeal=appeal, decision="overturned",
                                              result="0-1", reason="the caution misled White into the draw")
    assert status == 201
    assert (body["status"], body["result"], body["termination"]) == ("finished", "0-1", "appeal_decision")
    assert body["cautions"]["white"] == 0
    [live] = _live_endings(game)
    assert live.data["termination"] == "appeal_decision" and live.supersedes_id == ended.pk
    assert log_verify(game).valid


def test_an_overturned_resignation_with_a_result_leaves_one_game_end_in_force(desk, new_game, arbiter):
    game = new_game()
    desk.rule(game.pk, "resign", "white")
    resign = LogEntry.objects.get(game=game, kind="resign")
    ended = LogEntry.objects.get(game=game, kind="game_end")
    _, body = desk.rule(game.pk, "appeal", "white", entry=resign.seq, statement="I offered a draw")
    status, body = desk.as_user(arbiter).rule(game.pk, "appeal_decision", appeal=body["appeals"][0]["seq"],
                                              decision="overturned", result="1/2-1/2", reason="a draw was agreed")
    assert (body["status"], body["result"], body["termination"]) == ("finished", "1/2-1/2", "appeal_decision")
    [live] = _live_endings(game)
    assert live.supersedes_id == ended.pk
    game.refresh_from_db()
    assert (game.status, game.result) == (Game.Status.FINISHED, "1/2-1/2") and log_verify(game).valid


def test_an_overturned_forfeit_without_a_result_resumes_the_game_and_the_log_says_so(desk, new_game, arbiter):
    game, ruling, appeal = _forfeit_under_appeal(desk, new_game)
    status, body = desk.as_user(arbiter).rule(game.pk, "appeal_decision", appeal=appeal, decision="overturned",
                                              reason="no move was made")
    assert status == 201 and body["status"] == "in_progress" and body["result"] is None
    assert _live_endings(game) == [] and log_verify(game).valid
