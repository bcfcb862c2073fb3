"""Time controls and clock arithmetic (Laws 24-25, the Customary rules' allotments): pure, no ORM.

Every function takes ``now`` as an argument, so the arithmetic is tested with a controllable
clock and the services pass the database's clock (one time source for every process).

A clock is a ``ClockState``: which side's clock runs and since when, and the seconds each side
had left at that moment. Nothing ticks: the time left is computed on demand
(``remaining_at``) and the next deadline is derived from the state (``next_deadline``).

- ``per-move``: each move has ``move_seconds`` (``sole_capture_seconds`` where there is one and
  only one way to capture, Law 25). Time is called at the limit; the move must be completed
  within ``grace_seconds`` more, or the game is lost through improper delay. The time left of
  the side on move goes negative after the call, down to ``-grace_seconds``.
- ``moves-in-time``: ``moves`` in ``seconds``; each time both sides have made the moves of the
  current period, each gets ``then_seconds`` more for ``then_moves`` more (defaults: the same),
  unused time carried over. A Fischer ``increment_seconds`` is added after each own move. A
  player whose time runs out loses.
- ``none``: no clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

PER_MOVE = "per-move"
MOVES_IN_TIME = "moves-in-time"
NONE = "none"
CONTROLS = (PER_MOVE, MOVES_IN_TIME, NONE)

NOT_STARTED = "not_started"
RUNNING = "running"
PAUSED = "paused"
STOPPED = "stopped"

TIME_CALL = "time_call"
LOSS = "loss"

SIDES = ("black", "white")
MAX_SECONDS = 7 * 24 * 3600.0


class ClockControlError(ValueError):
    """Raised for a clock control that is not valid; ``fields`` maps each field to its messages."""

    def __init__(self, fields: dict[str, list[str]]) -> None:
        self.fields = fields
        super().__init__("; ".join(f"{name}: {' '.join(msgs)}" for name, msgs in fields.items()))


def other(side: str) -> str:
    """Returns the other side."""
    return "white" if side == "black" else "black"


@dataclass(frozen=True)
class ClockControl:
    """A time control chosen per game (or per tournament)."""

    control: str = PER_MOVE
    move_seconds: float = 300.0
    sole_capture_seconds: float = 60.0
    grace_seconds: float = 60.0
    moves: int = 30
    seconds: float = 3600.0
    then_moves: int | None = None
    then_seconds: float | None = None
    increment_seconds: float = 0.0

    FIELDS = {
        PER_MOVE: ("move_seconds", "sole_capture_seconds", "grace_seconds"),
        MOVES_IN_TIME: ("moves", "seconds", "then_moves", "then_seconds", "increment_seconds"),
        NONE: (),
    }

    @classmethod
    def from_dict(cls, data: Any) -> ClockControl:
        """Reads a control from its JSON form; raises ``ClockControlError`` naming each bad field."""
        if data is None:
            return cls(control=NONE)
        if not isinstance(data, dict):
            raise ClockControlError({"clock": ['An object such as {"control": "per-move"}.']})
        control = data.get("control", PER_MOVE)
        if not isinstance(control, str) or control not in CONTROLS:
            raise ClockControlError({"control": [f"Unknown control {control!r}; one of {', '.join(CONTROLS)}."]})
        allowed = {"control", *cls.FIELDS[control]}
        errors: dict[str, list[str]] = {}
        for name in sorted(set(data) - allowed):
            errors[name] = [f"Not a field of the {control} control (fields: {', '.join(sorted(allowed))})."]
        values: dict[str, Any] = {"control": control}
        for name in cls.FIELDS[control]:
            if name not in data or (data[name] is None and name.startswith("then_")):
                continue
            value = data[name]
            integral = name in ("moves", "then_moves")
            # an int is compared as it is: float() of a JSON integer of 400 digits overflows
            if isinstance(value, bool) or not isinstance(value, int | float) or (
                integral and isinstance(value, float) and not value.is_integer()
            ):
                errors[name] = ["A whole number." if integral else "A number of seconds."]
                continue
            if isinstance(value, float) and not math.isfinite(value):
                errors[name] = ["A finite number."]
                continue
            if name == "increment_seconds" or name == "grace_seconds":
                ok = 0 <= value <= 3600
                message = "From 0 to 3600 seconds."
            elif integral:
                ok = 1 <= value <= 1000
                message = "From 1 to 1000 moves."
            else:
                ok = 0 < value <= MAX_SECONDS
                message = f"More than 0 and at most {int(MAX_SECONDS)} seconds."
            if not ok:
                errors[name] = [message]
                continue
            values[name] = int(value) if integral else float(value)
        if errors:
            raise ClockControlError(errors)
        return cls(**values)

    def as_dict(self) -> dict[str, Any]:
        """Returns the JSON form, with every field of the control filled in."""
        body: dict[str, Any] = {"control": self.control}
        for name in self.FIELDS[self.control]:
            body[name] = getattr(self, name)
        if self.control == MOVES_IN_TIME:
            body["then_moves"] = self.period_moves(2)
            body["then_seconds"] = self.period_seconds(2)
        return body

    @property
    def enabled(self) -> bool:
        return self.control != NONE

    def period_moves(self, period: int) -> int:
        """Returns the number of moves of a period (1 is the first)."""
        return self.moves if period == 1 or self.then_moves is None else self.then_moves

    def period_seconds(self, period: int) -> float:
        """Returns the time allotted for a period (1 is the first)."""
        return self.seconds if period == 1 or self.then_seconds is None else self.then_seconds

    def moves_due_after(self, periods: int) -> int:
        """Returns how many moves each side must have made to complete ``periods`` periods."""
        return sum(self.period_moves(p) for p in range(1, periods + 1))

    def move_limit(self, sole_capture: bool) -> float:
        """Returns the time for one move under ``per-move`` (Law 25: less for a sole capture)."""
        return min(self.sole_capture_seconds, self.move_seconds) if sole_capture else self.move_seconds


@dataclass(frozen=True)
class ClockState:
    """Where a game's clocks stand; ``remaining`` is as of ``since`` for the running side."""

    status: str = NOT_STARTED
    side: str | None = None
    since: datetime | None = None
    remaining: dict[str, float] = field(default_factory=lambda: {"black": 0.0, "white": 0.0})
    moves: dict[str, int] = field(default_factory=lambda: {"black": 0, "white": 0})
    periods: int = 1
    time_called: bool = False
    sole_capture: bool = False
    ply: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "status": self.status, "side": self.side, "since": self.since.isoformat() if self.since else None,
            "remaining": dict(self.remaining), "moves": dict(self.moves), "periods": self.periods,
            "time_called": self.time_called, "sole_capture": self.sole_capture, "ply": self.ply,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> ClockState:
        if not data:
            return cls()
        since = data.get("since")
        return cls(
            status=data.get("status", NOT_STARTED), side=data.get("side"),
            since=datetime.fromisoformat(since) if since else None,
            remaining={s: float(data.get("remaining", {}).get(s, 0.0)) for s in SIDES},
            moves={s: int(data.get("moves", {}).get(s, 0)) for s in SIDES},
            periods=int(data.get("periods", 1)), time_called=bool(data.get("time_called", False)),
            sole_capture=bool(data.get("sole_capture", False)), ply=int(data.get("ply", 0)),
        )


def _elapsed(since: datetime | None, now: datetime) -> float:
    return max(0.0, (now - since).total_seconds()) if since is not None else 0.0


def initial(control: ClockControl) -> ClockState:
    """Returns the clock of a game that has not started: each side's full first allotment."""
    full = control.move_seconds if control.control == PER_MOVE else control.seconds
    return ClockState(remaining={"black": full, "white": full})


def remaining_at(state: ClockState, side: str, now: datetime) -> float:
    """Returns the seconds ``side`` has left at ``now`` (negative after time is called)."""
    left = state.remaining[side]
    if state.status == RUNNING and state.side == side:
        left -= _elapsed(state.since, now)
    return left


def start(control: ClockControl, state: ClockState, *, side: str, ply: int, sole_capture: bool,
          now: datetime) -> ClockState:
    """Starts the clock of ``side`` (the side to move) at ``now``."""
    remaining = dict(state.remaining)
    if control.control == PER_MOVE:
        remaining[side] = control.move_limit(sole_capture)
    return replace(state, status=RUNNING, side=side, since=now, remaining=remaining, time_called=False,
                   sole_capture=sole_capture, ply=ply)


def turn(control: ClockControl, state: ClockState, *, moved: str | None, side: str, ply: int,
         sole_capture: bool, now: datetime) -> ClockState:
    """Stops the running clock and starts the clock of ``side``, now on move at ``ply``.

    ``moved`` is the side that has just completed a move (counted for ``moves-in-time``, with
    the increment and the next allotment when both sides have made the period's moves), or
    None when the turn changed otherwise (play put back by a ruling).
    """
    if state.status not in (RUNNING, PAUSED):
        return state
    remaining = dict(state.remaining)
    if state.status == RUNNING and state.side is not None:
        remaining[state.side] = remaining_at(state, state.side, now)
    moves = dict(state.moves)
    periods = state.periods
    if control.control == MOVES_IN_TIME and moved is not None:
        moves[moved] += 1
        remaining[moved] += control.increment_seconds
        while min(moves.values()) >= control.moves_due_after(periods):
            periods += 1
            for s in SIDES:
                remaining[s] += control.period_seconds(periods)
    if control.control == PER_MOVE:
        if moved is not None:
            remaining[moved] = control.move_seconds
        remaining[side] = control.move_limit(sole_capture)
    return replace(state, side=side, since=now if state.status == RUNNING else None, remaining=remaining,
                   moves=moves, periods=periods, time_called=False, sole_capture=sole_capture, ply=ply)


def pause(state: ClockState, now: datetime) -> ClockState:
    """Stops the running clock, keeping what is left (a dispute, Law 28)."""
    if state.status != RUNNING or state.side is None:
        return state
    remaining = dict(state.remaining)
    remaining[state.side] = remaining_at(state, state.side, now)
    return replace(state, status=PAUSED, since=None, remaining=remaining)


def resume(state: ClockState, now: datetime) -> ClockState:
    """Starts the paused clock of the side on move again."""
    if state.status != PAUSED:
        return state
    return replace(state, status=RUNNING, since=now)


def stop(state: ClockState, now: datetime) -> ClockState:
    """Stops the clocks (the game ended); a clock never started stays so."""
    if state.status in (NOT_STARTED, STOPPED):
        return state
    return replace(pause(state, now), status=STOPPED, since=None)


def reopen(control: ClockControl, state: ClockState, *, side: str, ply: int, sole_capture: bool) -> ClockState:
    """Puts stopped clocks back, paused, for ``side`` on move (a ruling that ended the game was undone)."""
    if state.status != STOPPED:
        return state
    remaining = dict(state.remaining)
    if control.control == PER_MOVE:
        remaining[side] = control.move_limit(sole_capture)
    return replace(state, status=PAUSED, side=side, since=None, remaining=remaining, time_called=False,
                   sole_capture=sole_capture, ply=ply)


def adjust(state: ClockState, *, side: str, seconds: float, now: datetime) -> ClockState:
    """Adds ``seconds`` (negative to take away) to the time ``side`` has left."""
    remaining = dict(state.remaining)
    if state.status == RUNNING and state.side is not None:
        remaining[state.side] = remaining_at(state, state.side, now)
    remaining[side] += seconds
    since = now if state.status == RUNNING else state.since
    called = state.time_called and not (side == state.side and remaining[side] > 0)
    return replace(state, remaining=remaining, since=since, time_called=called)


def call_time(state: ClockState) -> ClockState:
    """Marks time as called on the current move (``per-move``, Law 25)."""
    return replace(state, time_called=True)


def next_deadline(control: ClockControl, state: ClockState) -> tuple[datetime, str] | None:
    """Returns the next deadline (when, and ``time_call`` or ``loss``), or None if none runs."""
    if state.status != RUNNING or state.since is None or state.side is None or not control.enabled:
        return None
    left = state.remaining[state.side]
    if control.control == PER_MOVE:
        if not state.time_called:
            return state.since + timedelta(seconds=left), TIME_CALL
        return state.since + timedelta(seconds=left + control.grace_seconds), LOSS
    return state.since + timedelta(seconds=left), LOSS


def due(control: ClockControl, state: ClockState, now: datetime) -> str | None:
    """Returns what is due at ``now`` (``time_call`` or ``loss``), or None."""
    deadline = next_deadline(control, state)
    if deadline is None or deadline[0] > now:
        return None
    return deadline[1]
