"""The clock arithmetic (arbitration.timecontrol), pure, with a controllable clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbitration import timecontrol as tc

T0 = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def per_move(**kw) -> tc.ClockControl:
    return tc.ClockControl.from_dict({"control": "per-move", **kw})


def moves_in_time(**kw) -> tc.ClockControl:
    return tc.ClockControl.from_dict({"control": "moves-in-time", **kw})


def started(control: tc.ClockControl, *, side: str = "black", sole_capture: bool = False, now: float = 0):
    return tc.start(control, tc.initial(control), side=side, ply=0, sole_capture=sole_capture, now=at(now))


def test_per_move_defaults_are_the_laws_five_minutes_one_minute_and_a_minute_of_grace():
    control = per_move()
    assert (control.move_seconds, control.sole_capture_seconds, control.grace_seconds) == (300, 60, 60)


def test_per_move_calls_time_at_the_limit_then_the_loss_after_the_grace():
    control = per_move(move_seconds=300, grace_seconds=60)
    state = started(control)
    assert tc.next_deadline(control, state) == (at(300), tc.TIME_CALL)
    assert tc.due(control, state, at(299.999)) is None
    assert tc.due(control, state, at(300)) == tc.TIME_CALL
    state = tc.call_time(state)
    assert tc.next_deadline(control, state) == (at(360), tc.LOSS)
    assert tc.remaining_at(state, "black", at(330)) == pytest.approx(-30)
    assert tc.due(control, state, at(359.9)) is None
    assert tc.due(control, state, at(360)) == tc.LOSS


def test_per_move_sole_capture_has_one_minute_law_25():
    control = per_move()
    state = started(control, sole_capture=True)
    assert tc.next_deadline(control, state) == (at(60), tc.TIME_CALL)


def test_per_move_each_move_gets_a_fresh_limit_and_time_call_is_cleared():
    control = per_move(move_seconds=10, sole_capture_seconds=4, grace_seconds=5)
    state = tc.call_time(started(control))
    state = tc.turn(control, state, moved="black", side="white", ply=1, sole_capture=True, now=at(12))
    assert state.side == "white" and not state.time_called
    assert tc.next_deadline(control, state) == (at(16), tc.TIME_CALL)
    assert tc.remaining_at(state, "black", at(14)) == 10  # not running: the next move's full limit
    state = tc.turn(control, state, moved="white", side="black", ply=2, sole_capture=False, now=at(13))
    assert tc.next_deadline(control, state) == (at(23), tc.TIME_CALL)


def test_moves_in_time_loses_when_the_bank_runs_out_with_no_time_call():
    control = moves_in_time(moves=30, seconds=3600)
    state = started(control)
    assert tc.next_deadline(control, state) == (at(3600), tc.LOSS)


def test_moves_in_time_carries_unused_time_over_and_adds_the_allotment_when_both_have_made_the_moves():
    control = moves_in_time(moves=2, seconds=100, then_moves=1, then_seconds=50)
    state = started(control)
    clock = 0.0
    # Black uses 10 s, White 30 s, Black 20 s: Black has made his 2 moves, White not yet.
    for mover, used in (("black", 10), ("white", 30), ("black", 20)):
        clock += used
        state = tc.turn(control, state, moved=mover, side=tc.other(mover), ply=0, sole_capture=False, now=at(clock))
    assert state.remaining == {"black": 70, "white": 70}
    assert state.periods == 1
    # White's second move completes the period for both: each gets 50 s more, unused time kept.
    clock += 5
    state = tc.turn(control, state, moved="white", side="black", ply=4, sole_capture=False, now=at(clock))
    assert state.periods == 2
    assert state.remaining == {"black": 120, "white": 115}
    # The next period is one move each (then_moves=1).
    clock += 1
    state = tc.turn(control, state, moved="black", side="white", ply=5, sole_capture=False, now=at(clock))
    clock += 1
    state = tc.turn(control, state, moved="white", side="black", ply=6, sole_capture=False, now=at(clock))
    assert state.periods == 3
    assert state.remaining == {"black": 169, "white": 164}
    assert tc.next_deadline(control, state) == (at(clock + 169), tc.LOSS)


def test_moves_in_time_later_allotments_default_to_the_first():
    control = moves_in_time(moves=1, seconds=60)
    state = started(control)
    state = tc.turn(control, state, moved="black", side="white", ply=1, sole_capture=False, now=at(10))
    state = tc.turn(control, state, moved="white", side="black", ply=2, sole_capture=False, now=at(30))
    assert state.remaining == {"black": 110, "white": 100}


def test_fischer_increment_is_added_after_each_own_move():
    control = moves_in_time(moves=40, seconds=60, increment_seconds=2.5)
    state = started(control)
    state = tc.turn(control, state, moved="black", side="white", ply=1, sole_capture=False, now=at(10))
    assert state.remaining["black"] == 52.5


def test_pause_keeps_what_is_left_and_resume_starts_from_there():
    control = per_move(move_seconds=100)
    state = started(control)
    state = tc.pause(state, at(40))
    assert state.status == tc.PAUSED
    assert tc.next_deadline(control, state) is None
    assert tc.remaining_at(state, "black", at(1000)) == 60
    state = tc.resume(state, at(1000))
    assert tc.next_deadline(control, state) == (at(1060), tc.TIME_CALL)


def test_adjust_adds_or_takes_time_and_a_positive_balance_lifts_the_time_call():
    control = per_move(move_seconds=10, grace_seconds=60)
    state = tc.call_time(started(control))
    state = tc.adjust(state, side="black", seconds=30, now=at(15))
    assert tc.remaining_at(state, "black", at(15)) == pytest.approx(25)
    assert not state.time_called
    assert tc.next_deadline(control, state) == (at(40), tc.TIME_CALL)


def test_stop_ends_every_deadline():
    control = moves_in_time()
    state = tc.stop(started(control), at(5))
    assert state.status == tc.STOPPED and tc.next_deadline(control, state) is None
    assert state.remaining["black"] == 3595


def test_state_round_trips_through_json():
    control = moves_in_time(moves=3, seconds=90)
    state = tc.turn(control, started(control), moved="black", side="white", ply=1, sole_capture=True, now=at(3.25))
    assert tc.ClockState.from_dict(state.as_dict()) == state


@pytest.mark.parametrize(
    "data, field",
    [
        ({"control": "sudden-death"}, "control"),
        ({"control": "per-move", "move_seconds": 0}, "move_seconds"),
        ({"control": "per-move", "move_seconds": "five"}, "move_seconds"),
        ({"control": "per-move", "grace_seconds": -1}, "grace_seconds"),
        ({"control": "per-move", "moves": 30}, "moves"),
        ({"control": "moves-in-time", "moves": 2.5}, "moves"),
        ({"control": "moves-in-time", "seconds": float("inf")}, "seconds"),
        ({"control": "moves-in-time", "increment_seconds": True}, "increment_seconds"),
        ("per-move", "clock"),
    ],
)
def test_a_bad_control_names_the_field(data, field):
    with pytest.raises(tc.ClockControlError) as caught:
        tc.ClockControl.from_dict(data)
    assert field in caught.value.fields


def test_fractional_seconds_are_allowed():
    control = per_move(move_seconds=2.5, sole_capture_seconds=0.5, grace_seconds=0.25)
    assert control.as_dict() == {"control": "per-move", "move_seconds": 2.5, "sole_capture_seconds": 0.5,
                                 "grace_seconds": 0.25}


@given(
    uses=st.lists(st.floats(min_value=0, max_value=200, allow_nan=False), min_size=1, max_size=40),
    moves=st.integers(min_value=1, max_value=5),
    seconds=st.floats(min_value=1, max_value=500),
)
def test_moves_in_time_total_time_is_the_allotments_less_what_was_used(uses, moves, seconds):
    """Whatever the moves' durations, both banks together hold the allotments given less the time used."""
    control = moves_in_time(moves=moves, seconds=seconds)
    state = started(control)
    clock = 0.0
    mover = "black"
    for ply, used in enumerate(uses, start=1):
        clock += used
        state = tc.turn(control, state, moved=mover, side=tc.other(mover), ply=ply, sole_capture=False, now=at(clock))
        mover = tc.other(mover)
    total = state.remaining["black"] + state.remaining["white"]
    assert total == pytest.approx(2 * seconds * state.periods - sum(uses), abs=1e-5 * len(uses))  # datetimes: µs
    assert state.periods == 1 + min(state.moves.values()) // moves
