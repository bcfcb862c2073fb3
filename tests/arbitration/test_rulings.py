"""One test per row of RULES.md's Arbitration table, each run through the service and the API."""

from __future__ import annotations

import pytest

from arbitration.models import LogEntry
from games.models import Game, Move

pytestmark = pytest.mark.django_db

KINGS_SHUFFLE = "W:WK1,K2:BK32"  # White to move; 1-5 32-28 5-1 28-32 comes back to the start
SHUFFLE = ["1-5", "32-28", "5-1", "28-32"]


def test_a_legal_move_is_recorded_and_an_illegal_one_refused_with_the_reason_and_legal_moves(desk, new_game):
    game = new_game()
    status, body = desk.move(game.pk, "11-15")
    assert status == 201
    assert body["ply"] == 1 and body["side_to_move"] == "white" and body["last_move"]["move"] == "11-15"
    status, body = desk.move(game.pk, "15-19")
    assert status == 422
    assert body["error"]["code"] == "illegal_move"
    assert "22-18" in body["error"]["details"]["legal_moves"]
    assert Move.objects.filter(game=game).count() == 1


def test_a_move_syntax_error_and_an_ambiguous_move_have_their_own_codes(desk, new_game):
    game = new_game()
    status, body = desk.move(game.pk, "eleven to fifteen")
    assert (status, body["error"]["code"]) == (422, "move_syntax")
    ambiguous = new_game(start_fen="B:W14,15,22,23:B10")  # 10x17x26 or 10x19x26
    status, body = desk.move(ambiguous.pk, "10x26")
    assert (status, body["error"]["code"]) == (422, "ambiguous_move")
    assert body["error"]["details"]["candidates"] == ["10x17x26", "10x19x26"]


def test_a_false_move_forfeits_at_once_with_the_attempt_on_record(desk, new_game):
    game = new_game()
    status, body = desk.rule(game.pk, "false_move", "black", move="12-17")
    assert status == 201
    assert (body["status"], body["result"], body["termination"]) == ("finished", "0-1", "forfeit_false_move")
    entry = LogEntry.objects.get(game=game, kind="false_move")
    assert entry.law == "21" and entry.data["move"] == "12-17" and "refused" in entry.data["engine"]
    status, body = desk.move(game.pk, "11-15")
    assert (status, body["error"]["code"]) == (409, "game_over")


def test_a_first_touch_offence_is_a_caution_and_the_second_forfeits(desk, new_game):
    game = new_game()
    status, body = desk.rule(game.pk, "touch_offence", "white")
    assert status == 201 and body["cautions"] == {"black": 0, "white": 1} and body["status"] == "in_progress"
    status, body = desk.rule(game.pk, "touch_offence", "black")
    assert body["cautions"] == {"black": 1, "white": 1} and body["status"] == "in_progress"
    status, body = desk.rule(game.pk, "touch_offence", "white")
    assert (body["status"], body["result"], body["termination"]) == ("finished", "1-0", "forfeit_touch_offence")


@pytest.mark.parametrize(("kind", "termination"), [("conduct", "forfeit_conduct"), ("left_room", "forfeit_absence")])
def test_conduct_and_leaving_the_room_are_warned_then_forfeited(desk, new_game, kind, termination):
    game = new_game()
    status, body = desk.rule(game.pk, kind, "black")
    assert status == 201 and body["warnings"][kind] == {"black": 1, "white": 0} and body["status"] == "in_progress"
    status, body = desk.rule(game.pk, kind, "black")
    assert (body["result"], body["termination"]) == ("0-1", termination)
    assert LogEntry.objects.filter(game=game, kind=kind).last().data["penalty"] == "forfeit"


def test_a_touched_playable_piece_not_played_forfeits(desk, new_game):
    game = new_game()
    status, body = desk.rule(game.pk, "touched_piece_not_played", "black", square=1)
    assert (status, body["error"]["code"]) == (422, "invalid_ruling")  # the piece on 1 cannot move
    status, body = desk.rule(game.pk, "touched_piece_not_played", "black", square=11)
    assert (body["result"], body["termination"]) == ("0-1", "forfeit_touched_piece_not_played")


def test_a_piece_moved_over_the_angle_must_complete_its_move_that_way(desk, new_game):
    game = new_game()
    status, body = desk.rule(game.pk, "over_the_angle", "black", square=11, toward=15)
    assert status == 201
    assert body["constraints"] == [{"kind": "over_the_angle", "law": "20", "side": "black", "square": 11, "toward": 15}]
    assert body["legal_moves"] == ["11-15"]
    for other in ("9-13", "11-16"):
        status, body = desk.move(game.pk, other)
        assert (status, body["error"]["code"]) == (422, "illegal_move")
        assert "over the angle" in body["error"]["message"] and body["error"]["details"]["legal_moves"] == ["11-15"]
    status, body = desk.move(game.pk, "11-15")
    assert status == 201 and body["constraints"] == []


def test_own_piece_removed_while_capturing_opponent_chooses_to_play_on(desk, new_game):
    game = new_game()
    desk.play(game.pk, "11-15", "22-18", "15x22")
    status, body = desk.rule(game.pk, "own_piece_removed", "black", square=10, choice="play_on")
    assert status == 201
    assert "10" not in body["fen"].split(":B")[1].split(",") and body["ply"] == 3
    assert LogEntry.objects.filter(game=game).last().fen == body["fen"]


def test_own_piece_removed_opens_the_choice_and_put_back_keeps_the_position(desk, new_game):
    game = new_game()
    body = desk.play(game.pk, "11-15", "22-18", "15x22")
    fen = body["fen"]
    status, body = desk.rule(game.pk, "own_piece_removed", "black", square=10)
    assert body["open_choices"] == [{"kind": "own_piece_removed", "law": "12", "chooser": "white",
                                     "offender": "black", "square": 10}]
    status, body = desk.move(game.pk, "25x18")
    assert (status, body["error"]["code"]) == (409, "choice_required")
    status, body = desk.rule(game.pk, "own_piece_removed", "black", choice="put_back")
    assert status == 201 and body["open_choices"] == [] and body["fen"] == fen


def test_not_crowned_puts_play_back_to_the_crowning_and_supersedes_later_moves(desk, new_game):
    game = new_game(start_fen="B:W12:B27")
    desk.play(game.pk, "27-31", "12-8", "31-26")
    status, body = desk.rule(game.pk, "not_crowned", "white", ply=1)
    assert status == 201
    assert body["ply"] == 1 and body["fen"] == "W:W12:BK31" and [m["move"] for m in body["moves"]] == ["27-31"]
    assert Move.objects.filter(game=game, superseded_by__isnull=False).count() == 2  # kept, superseded
    status, body = desk.rule(game.pk, "not_crowned", "white", ply=1)
    assert (status, body["error"]["code"]) == (422, "invalid_ruling")


def test_a_spectator_interfering_is_logged_without_effect_on_the_game(desk, new_game):
    game = new_game()
    before = desk.state(game.pk)
    status, body = desk.rule(game.pk, "spectator", note="a spectator pointed at the board")
    assert status == 201 and body["fen"] == before["fen"] and body["status"] == "in_progress"
    assert body["log_length"] == before["log_length"] + 1
    assert LogEntry.objects.filter(game=game).last().law == "31"


def test_draw_agreed_and_resignation_end_the_game(desk, new_game):
    game = new_game()
    status, body = desk.rule(game.pk, "draw_agreed")
    assert (body["result"], body["termination"]) == ("1/2-1/2", "draw_agreement")
    other = new_game()
    status, body = desk.rule(other.pk, "resign", "white")
    assert (body["result"], body["termination"]) == ("1-0", "resignation")
    assert LogEntry.objects.filter(game=other, kind="resign").get().actor_id == desk.user.pk


def test_only_a_director_adjudicates_with_a_reason(desk, new_game, director):
    game = new_game()
    status, body = desk.rule(game.pk, "adjudicate", result="1-0", reason="Black wins by force")
    assert (status, body["error"]["code"]) == (403, "permission_denied")
    status, body = desk.as_user(director).rule(game.pk, "adjudicate", result="1-0", reason="Black wins by force")
    assert (body["result"], body["termination"]) == ("1-0", "adjudication")


def test_a_player_appeals_and_the_named_arbiter_overturns_the_forfeit_so_play_resumes(desk, new_game, make_user, players,
                                                                                      director):
    arbiter = director  # a standalone game's appeals go to the director who created it
    player = make_user("agnes", "player")
    players[0].user = player
    players[0].save()
    game = new_game()
    desk.rule(game.pk, "false_move", "black", move="11-16")
    forfeit = LogEntry.objects.get(game=game, kind="false_move")
    status, body = desk.as_user(player).rule(game.pk, "appeal", entry=forfeit.seq, statement="I did not move it")
    assert status == 201 and body["appeals"][0]["status"] == "open" and body["appeals"][0]["side"] == "black"
    appeal_seq = body["appeals"][0]["seq"]
    status, body = desk.rule(game.pk, "appeal_decision", appeal=appeal_seq, decision="overturned", reason="no")
    assert (status, body["error"]["code"]) == (403, "permission_denied")
    status, body = desk.as_user(arbiter).rule(game.pk, "appeal_decision", appeal=appeal_seq, decision="overturned",
                                                reason="the witness saw no move")
    assert status == 201 and body["status"] == "in_progress" and body["result"] is None
    assert LogEntry.objects.get(game=game, kind="appeal_decision").supersedes_id == forfeit.pk
    status, body = desk.as_user(arbiter).rule(game.pk, "appeal_decision", appeal=appeal_seq, decision="upheld",
                                                reason="again")
    assert (status, body["error"]["code"]) == (409, "appeal_decided")
    assert desk.play(game.pk, "11-15")["ply"] == 1


def test_the_arbiter_may_set_the_result_and_the_termination_says_appeal_decision(desk, new_game, director):
    game = new_game()
    desk.rule(game.pk, "resign", "white")
    resign = LogEntry.objects.get(game=game, kind="resign")
    _, body = desk.rule(game.pk, "appeal", "white", entry=resign.seq, statement="I offered a draw")
    from django.contrib.auth.models import User

    arbiter_desk = desk.as_user(User.objects.get(username="dir"))
    status, body = arbiter_desk.rule(game.pk, "appeal_decision", appeal=body["appeals"][0]["seq"],
                                     decision="overturned", result="1/2-1/2", reason="a draw was agreed first")
    assert (body["status"], body["result"], body["termination"]) == ("finished", "1/2-1/2", "appeal_decision")


def test_a_player_may_appeal_only_on_his_own_game(desk, new_game, make_user):
    make_user("arb", "referee")
    stranger = make_user("stranger", "player")
    game = new_game()
    status, body = desk.as_user(stranger).rule(game.pk, "appeal", entry=1, statement="x")
    assert (status, body["error"]["code"]) == (403, "permission_denied")


def test_a_corrected_caution_no_longer_counts(desk, new_game):
    game = new_game()
    desk.rule(game.pk, "touch_offence", "black")
    caution = LogEntry.objects.get(game=game, kind="touch_offence")
    status, body = desk.rule(game.pk, "correction", entry=caution.seq, reason="it was the opponent")
    assert status == 201 and body["cautions"]["black"] == 0
    _, body = desk.rule(game.pk, "touch_offence", "black")
    assert body["status"] == "in_progress"
    status, body = desk.rule(game.pk, "correction", entry=caution.seq, reason="twice")
    assert (status, body["error"]["code"]) == (409, "already_superseded")


def test_correcting_a_move_puts_play_back_to_before_it(desk, new_game):
    game = new_game()
    desk.play(game.pk, "11-15", "22-18")
    entry = LogEntry.objects.get(game=game, kind="move", ply=2)
    status, body = desk.rule(game.pk, "correction", entry=entry.seq, reason="the referee typed the wrong move")
    assert status == 201 and body["ply"] == 1 and body["side_to_move"] == "white"
    assert desk.play(game.pk, "23-19")["last_move"]["move"] == "23-19"


def test_a_player_without_a_legal_move_loses_after_the_move(desk, new_game):
    game = new_game(start_fen="B:W18:B14")
    status, body = desk.move(game.pk, "14x23")
    assert (body["status"], body["result"], body["termination"]) == ("finished", "1-0", "no_legal_move")
    assert body["legal_moves"] == []
    assert LogEntry.objects.filter(game=game).last().kind == "game_end"


def test_rulings_that_do_not_apply_are_refused_with_the_reason(desk, new_game):
    game = new_game()
    status, body = desk.rule(game.pk, "huff", "white", square=15)
    assert (status, body["error"]["code"]) == (422, "invalid_ruling") and "no open huff" in body["error"]["message"]
    status, body = desk.rule(game.pk, "forty_move_ruling", outcome="draw")
    assert (status, body["error"]["code"]) == (422, "invalid_ruling")
    status, body = desk.rule(game.pk, "touch_offence")
    assert (status, body["error"]["code"]) == (400, "validation_error")
    assert Game.objects.get(pk=game.pk).log_seq == 1


def test_a_repetition_claim_is_refused_while_the_forty_move_ruling_is_awaited(desk, new_game):
    import itertools

    game = new_game(start_fen=KINGS_SHUFFLE, progress_rule="forty-move-notice", repetition_threshold=3)
    desk.rule(game.pk, "forty_move_notice", "black")
    body = desk.play(game.pk, *itertools.islice(itertools.cycle(SHUFFLE), 79))  # White's 40th move
    assert body["forty_move"]["awaiting_ruling"] and body["side_to_move"] == "black"
    status, body = desk.rule(game.pk, "repetition_claim", "black", move="28-32")
    assert (status, body["error"]["code"]) == (409, "ruling_required")
    assert desk.state(game.pk)["ply"] == 79
    desk.rule(game.pk, "forty_move_ruling", outcome="advantage_shown")
    status, body = desk.rule(game.pk, "repetition_claim", "black", move="28-32")
    assert (status, body.get("termination")) == (201, "draw_repetition"), body


def test_a_repetition_claim_is_refused_while_a_law_12_choice_is_open(desk, new_game):
    game = new_game()
    desk.play(game.pk, "11-15", "22-18", "15x22")
    desk.rule(game.pk, "own_piece_removed", "black", square=10)
    status, body = desk.rule(game.pk, "repetition_claim", "white", move="25x18")
    assert (status, body["error"]["code"]) == (409, "choice_required")
    assert LogEntry.objects.filter(game=game, kind="repetition_claim").count() == 0


def test_a_huff_of_the_offenders_last_piece_loses_him_the_game(desk, new_game):
    game = new_game(rule_set="standard-huff", start_fen="B:W18:B14")
    status, body = desk.move(game.pk, "14-17")  # 14x23 was there
    assert status == 201 and body["open_choices"][0]["pieces"] == [17]
    status, body = desk.rule(game.pk, "huff", "white", square=17)
    assert status == 201
    assert (body["status"], body["result"], body["termination"]) == ("finished", "0-1", "no_legal_move")
    end = LogEntry.objects.filter(game=game).last()
    assert (end.kind, end.side, end.law) == ("game_end", "black", "23")


def test_own_piece_removed_play_on_taking_the_capturers_last_piece_loses_him_the_game(desk, new_game):
    game = new_game(start_fen="B:W18,32:B14")
    desk.play(game.pk, "14x23")
    status, body = desk.rule(game.pk, "own_piece_removed", "black", square=23, choice="play_on")
    assert status == 201
    assert (body["status"], body["result"], body["termination"]) == ("finished", "0-1", "no_legal_move")
    assert LogEntry.objects.filter(game=game).last().side == "black"


def test_own_piece_removed_play_on_leaves_the_game_going_while_both_sides_can_move(desk, new_game):
    game = new_game()
    desk.play(game.pk, "11-15", "22-18", "15x22")
    status, body = desk.rule(game.pk, "own_piece_removed", "black", square=10, choice="play_on")
    assert status == 201 and body["status"] == "in_progress" and body["side_to_move"] == "white"
