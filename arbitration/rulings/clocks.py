"""The clock rulings: start (Law 24), pause (Law 28's stoppage), resume, adjust (a director's correction)."""

from __future__ import annotations

from typing import Any

from arbitration import timecontrol as tc
from arbitration.clocks import _save, _side_to_move, _sole_capture, clock_of, control_of, db_now
from arbitration.delay import clock_enforce
from arbitration.errors import (
    InvalidRuling,
)
from arbitration.models import GameClock, LogEntry

Kind = LogEntry.Kind


def _clock_for_ruling(r: Any) -> tuple[GameClock, tc.ClockControl, tc.ClockState]:
    clock = clock_of(r.game)
    if clock is None:
        raise InvalidRuling("This game is played without a clock.", details={"clock": None})
    return clock, control_of(clock), tc.ClockState.from_dict(clock.state)


def clock_start(r: Any) -> None:
    clock, control, state = _clock_for_ruling(r)
    if state.status != tc.NOT_STARTED:
        raise InvalidRuling(f"The clock has already been started ({state.status}); use clock_resume after a pause.")
    now = db_now()
    side = _side_to_move(r.game)
    state = tc.start(control, state, side=side, ply=r.game.ply, sole_capture=_sole_capture(r.game), now=now)
    _save(clock, control, state)
    r.log(Kind.CLOCK_START, law="24", side=side, at=now,
          data={"control": control.as_dict(), "remaining": state.remaining})


def clock_pause(r: Any) -> None:
    clock, control, state = _clock_for_ruling(r)
    if state.status != tc.RUNNING:
        raise InvalidRuling(f"The clocks are not running ({state.status}).")
    now = db_now()
    clock_enforce(r.game, now)
    if r.game.status != r.game.Status.IN_PROGRESS:
        return
    state = tc.pause(tc.ClockState.from_dict(clock.state), now)
    _save(clock, control, state)
    r.log(Kind.CLOCK_PAUSE, law="28", at=now, data={"remaining": state.remaining})


def clock_resume(r: Any) -> None:
    clock, control, state = _clock_for_ruling(r)
    if state.status != tc.PAUSED:
        raise InvalidRuling(f"The clocks are not paused ({state.status}).")
    now = db_now()
    state = tc.resume(state, now)
    _save(clock, control, state)
    r.log(Kind.CLOCK_RESUME, at=now, data={"remaining": state.remaining})


def clock_adjust(r: Any) -> None:
    clock, control, state = _clock_for_ruling(r)
    fields: dict[str, list[str]] = {}
    if not r.side:
        fields["side"] = ["This field is required."]
    seconds = r.payload.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not -tc.MAX_SECONDS < seconds < tc.MAX_SECONDS:
        fields["seconds"] = ["The seconds to add (negative to take away), a number."]
    reason = (r.payload.get("reason") or r.note or "").strip()
    if not reason:
        fields["reason"] = ["Say why the clock is adjusted."]
    if fields:
        raise InvalidRuling("Some fields are invalid: " + ", ".join(fields) + ".", code="validation_error",
                            status_code=400, details={"fields": fields})
    if state.status == tc.STOPPED:
        raise InvalidRuling("The clocks have stopped: the game is over.")
    now = db_now()
    before = tc.remaining_at(state, r.side, now)
    state = tc.adjust(state, side=r.side, seconds=float(seconds), now=now)
    _save(clock, control, state)
    r.log(Kind.CLOCK_ADJUST, at=now, note=reason,
          data={"seconds": float(seconds), "before": round(before, 3), "after": round(before + float(seconds), 3)})
