"""Clocks through the services and the API (Laws 24-25): start, turns, time call, loss by delay.

Time is moved by ageing a clock (``age``): the running segment's start is moved back in the
database, as if that much time had passed on the database's clock, which is the one the
services read.
"""

from __future__ import annotations

import pytest

from tests.support.clocks import age

PER_MOVE = {"control": "per-move", "move_seconds": 10, "sole_capture_seconds": 4, "grace_seconds": 5}


def kinds(game_id: int) -> list[str]:
    from arbitration.models import LogEntry

    return list(LogEntry.objects.filter(game_id=game_id).order_by("seq").values_list("kind", flat=True))


@pytest.fixture
def clocked(new_game):
    def make(clock=None, **options):
        return new_game(clock=clock or PER_MOVE, **options)

    return make


def test_a_game_created_over_the_api_with_a_clock_shows_it_not_started(director, players, referee, client_as):
    client = client_as(director)
    body = {"black": players[0].pk, "white": players[1].pk, "referees": [referee.username],
            "clock": {"control": "per-move", "move_seconds": 300, "sole_capture_seconds": 60, "grace_seconds": 60}}
    response = client.post("/api/v1/games/", body, format="json")
    assert response.status_code == 201, response.json()
    clocks = response.json()["clocks"]
    assert clocks["status"] == "not_started"
    assert clocks["black"] == {"remaining": 300.0, "running": False}
    assert clocks["next_deadline"] is None
    assert clocks["control"]["control"] == "per-move"


def test_a_game_without_a_clock_has_null_clocks(director, players, client_as):
    client = client_as(director)
    response = client.post("/api/v1/games/", {"black": players[0].pk, "white": players[1].pk,
                                              "clock": {"control": "none"}}, format="json")
    assert response.status_code == 201
    assert response.json()["clocks"] is None


@pytest.mark.parametrize("clock, field", [
    ({"control": "per-move", "move_seconds": -3}, "clock.move_seconds"),
    ({"control": "blitz"}, "clock.control"),
    ({"control": "moves-in-time", "moves": "thirty"}, "clock.moves"),
    ([1, 2], "clock"),
])
def test_a_bad_clock_is_a_validation_error_naming_the_field(director, players, client_as, clock, field):
    client = client_as(director)
    response = client.post("/api/v1/games/", {"black": players[0].pk, "white": players[1].pk, "clock": clock},
                           format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert field in error["details"]["fields"]


def test_clock_start_runs_the_clock_of_the_side_to_move(desk, clocked):
    game = clocked()
    status, body = desk.rule(game.pk, "clock_start")
    assert status == 201, body
    clocks = body["clocks"]
    assert clocks["status"] == "running" and clocks["running"] == "black"
    assert clocks["black"]["running"] and not clocks["white"]["running"]
    assert 9 < clocks["black"]["remaining"] <= 10
    assert clocks["next_deadline"]["kind"] == "time_call"
    assert kinds(game.pk)[-1] == "clock_start"
    status, body = desk.rule(game.pk, "clock_start")
    assert status == 422 and body["error"]["code"] == "invalid_ruling"


def test_clock_start_on_a_game_without_a_clock_is_refused(desk, new_game):
    game = new_game()
    status, body = desk.rule(game.pk, "clock_start")
    assert status == 422
    assert "without a clock" in body["error"]["message"]


def test_a_move_stops_the_movers_clock_and_starts_the_opponents(desk, clocked):
    game = clocked()
    desk.rule(game.pk, "clock_start")
    age(game.pk, 3)
    body = desk.play(game.pk, "11-15")
    clocks = body["clocks"]
    assert clocks["running"] == "white"
    assert clocks["black"] == {"remaining": 10.0, "running": False}
    assert 9 < clocks["white"]["remaining"] <= 10


def test_sole_capture_gives_the_shorter_limit(desk, clocked):
    game = clocked()
    desk.rule(game.pk, "clock_start")
    body = desk.play(game.pk, "11-15", "24-20", "15-19")  # White's one and only capture: 23x16
    assert body["legal_moves"] == ["23x16"]
    assert body["clocks"]["sole_capture"] is True
    assert 3 < body["clocks"]["white"]["remaining"] <= 4
    body = desk.play(game.pk, "23x16", "12x19")
    assert body["clocks"]["sole_capture"] is False
    assert 9 < body["clocks"]["white"]["remaining"] <= 10


def test_time_is_called_by_the_sweep_and_a_move_within_the_grace_is_recorded_after_it(desk, clocked):
    from arbitration.delay import clock_sweep

    game = clocked()
    desk.rule(game.pk, "clock_start")
    age(game.pk, 11)
    assert clock_sweep() == 1
    state = desk.state(game.pk)
    assert state["clocks"]["time_called"] is True
    assert state["clocks"]["next_deadline"]["kind"] == "loss"
    assert state["status"] == "in_progress"
    status, body = desk.move(game.pk, "11-15")
    assert status == 201, body
    assert kinds(game.pk)[-2:] == ["time_call", "move"]
    assert body["clocks"]["time_called"] is False


def test_a_move_after_the_grace_is_refused_and_the_loss_by_delay_recorded_once(desk, clocked):
    game = clocked()
    desk.rule(game.pk, "clock_start")
    age(game.pk, 16)  # 10 s for the move and 5 s of grace have passed: no worker has run
    status, body = desk.move(game.pk, "11-15")
    assert status == 409 and body["error"]["code"] == "game_over"
    state = desk.state(game.pk)
    assert (state["status"], state["result"], state["termination"]) == ("finished", "0-1", "loss_by_delay")
    assert state["ply"] == 0
    log = kinds(game.pk)
    assert log[-2:] == ["time_call", "game_end"]
    assert log.count("game_end") == 1
    assert state["clocks"]["status"] == "stopped" and state["clocks"]["next_deadline"] is None


def test_enforcement_twice_adjudicates_once(clocked, referee):
    from arbitration.clocks import db_now
    from arbitration.delay import clock_enforce, clock_sweep
    from arbitration.persistence import game_lock

    game = clocked()
    from arbitration.services import ruling_issue

    ruling_issue(acting_user=referee, game_id=game.pk, kind="clock_start")
    age(game.pk, 100)
    assert clock_sweep() == 1
    assert clock_sweep() == 0
    locked = game_lock(game.pk)
    assert clock_enforce(locked, db_now()) == []
    log = kinds(game.pk)
    assert log.count("time_call") == 1 and log.count("game_end") == 1


def test_the_loss_entry_records_the_deadline_and_the_lateness(clocked, referee):
    from arbitration.delay import clock_sweep
    from arbitration.models import LogEntry
    from arbitration.services import ruling_issue

    game = clocked()
    ruling_issue(acting_user=referee, game_id=game.pk, kind="clock_start")
    age(game.pk, 15.5)
    clock_sweep()
    end = LogEntry.objects.get(game=game, kind="game_end")
    assert end.law == "25" and end.side == "black" and end.actor is None
    assert end.data["termination"] == "loss_by_delay"
    assert 400 <= end.data["late_ms"] < 5000
    call = LogEntry.objects.get(game=game, kind="time_call")
    assert call.created_at <= end.created_at


def test_a_ruling_after_the_loss_fell_due_is_refused(desk, clocked):
    game = clocked()
    desk.rule(game.pk, "clock_start")
    age(game.pk, 20)
    status, body = desk.rule(game.pk, "draw_agreed")
    assert status == 409 and body["error"]["code"] == "game_over"
    assert desk.state(game.pk)["termination"] == "loss_by_delay"


def test_pause_stops_every_deadline_and_resume_keeps_what_was_left(desk, clocked):
    from arbitration.delay import clock_sweep

    game = clocked()
    desk.rule(game.pk, "clock_start")
    age(game.pk, 4)
    status, body = desk.rule(game.pk, "clock_pause", note="dispute about a touched piece")
    assert status == 201, body
    assert body["clocks"]["status"] == "paused" and body["clocks"]["next_deadline"] is None
    left = body["clocks"]["black"]["remaining"]
    assert 5 < left <= 6
    assert clock_sweep() == 0
    status, body = desk.rule(game.pk, "clock_resume")
    assert status == 201
    assert body["clocks"]["status"] == "running"
    assert body["clocks"]["black"]["remaining"] == pytest.approx(left, abs=0.5)
    assert kinds(game.pk)[-2:] == ["clock_pause", "clock_resume"]


def test_clock_adjust_is_for_a_director_with_a_reason(desk, clocked, director):
    game = clocked()
    desk.rule(game.pk, "clock_start")
    status, body = desk.rule(game.pk, "clock_adjust", side="black", seconds=30, reason="clock fault")
    assert status == 403
    boss = desk.as_user(director)
    status, body = boss.rule(game.pk, "clock_adjust", side="black", seconds=30)
    assert status == 400 and "reason" in body["error"]["details"]["fields"]
    status, body = boss.rule(game.pk, "clock_adjust", side="black", seconds=30, reason="clock fault")
    assert status == 201, body
    assert 39 < body["clocks"]["black"]["remaining"] <= 40
    from arbitration.models import LogEntry

    entry = LogEntry.objects.filter(game=game, kind="clock_adjust").get()
    assert entry.note == "clock fault" and entry.data["seconds"] == 30


def test_a_game_that_ends_stops_its_clocks(desk, clocked):
    game = clocked()
    desk.rule(game.pk, "clock_start")
    status, body = desk.rule(game.pk, "resign", side="black")
    assert status == 201
    assert body["clocks"]["status"] == "stopped"
    assert body["clocks"]["next_deadline"] is None


def test_moves_in_time_arithmetic_through_the_service(desk, clocked):
    game = clocked({"control": "moves-in-time", "moves": 1, "seconds": 60, "then_seconds": 30})
    desk.rule(game.pk, "clock_start")
    age(game.pk, 20)
    desk.play(game.pk, "11-15")
    age(game.pk, 10)
    body = desk.play(game.pk, "23-18")
    clocks = body["clocks"]
    # Both have made their one move: each gets 30 s more, unused time carried over.
    assert clocks["black"]["remaining"] == pytest.approx(70, abs=0.5)
    assert clocks["white"]["remaining"] == pytest.approx(80, abs=0.5)
    assert clocks["next_deadline"]["kind"] == "loss"


def test_moves_in_time_loses_without_a_time_call(desk, clocked):
    from arbitration.delay import clock_sweep

    game = clocked({"control": "moves-in-time", "moves": 30, "seconds": 60})
    desk.rule(game.pk, "clock_start")
    age(game.pk, 61)
    assert clock_sweep() == 1
    state = desk.state(game.pk)
    assert state["termination"] == "loss_by_delay" and state["result"] == "0-1"
    assert "time_call" not in kinds(game.pk)


def test_putting_play_back_restarts_the_clock_of_the_side_now_on_move(desk, clocked):
    game = clocked(rule_set="standard-huff")
    desk.rule(game.pk, "clock_start")
    desk.play(game.pk, "11-15", "24-19")
    # Black fails to capture 15x24 (standard-huff): White compels the capture, the move is taken back.
    status, body = desk.move(game.pk, "9-13")
    assert status == 201, body
    assert body["clocks"]["running"] == "white"
    status, body = desk.rule(game.pk, "compel", side="white")
    assert status == 201, body
    assert body["side_to_move"] == "black"
    assert body["clocks"]["running"] == "black"


def test_a_game_taken_back_into_play_gets_its_clocks_back_paused(desk, clocked):
    from arbitration.models import LogEntry

    game = clocked()
    desk.rule(game.pk, "clock_start")
    desk.play(game.pk, "11-15")
    status, body = desk.rule(game.pk, "resign", side="white")
    assert status == 201 and body["clocks"]["status"] == "stopped"
    resign = LogEntry.objects.get(game=game, kind="resign")
    status, body = desk.rule(game.pk, "correction", entry=resign.seq, reason="the resignation was misheard")
    assert status == 201, body
    assert body["status"] == "in_progress"
    assert body["clocks"]["status"] == "paused" and body["clocks"]["white"]["remaining"] == 10.0
    status, body = desk.rule(game.pk, "clock_resume")
    assert status == 201
    assert body["clocks"]["running"] == "white" and body["clocks"]["next_deadline"]["kind"] == "time_call"


def test_a_game_that_ends_before_its_clock_started_keeps_it_not_started(desk, clocked):
    game = clocked()
    status, body = desk.rule(game.pk, "draw_agreed")
    assert status == 201
    assert body["clocks"]["status"] == "not_started"
