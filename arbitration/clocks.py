"""Clocks (Laws 24-25): the game's clock row, its transitions and its view; ``arbitration.delay`` enforces it.

One time source: every timestamp that decides a deadline comes from the database's clock
(``db_now``), never from the clock of the process that happens to run the code, so a worker
whose clock is fast flags nothing early.

Every function here is called with the game row locked (``select_for_update``), in the
transaction of the move or ruling that changes the clock. Enforcement is a guarded
transition (``clock_enforce``): it acts only when the deadline derived from the clock's state
has passed at the database's ``now``, and the transition it writes moves that deadline on, so
a second trigger for the same deadline finds nothing to do.

Workers find due clocks with ``clock_sweep``: one indexed query for the deadlines that have
passed, locking those games with ``FOR UPDATE SKIP LOCKED`` so that any number of sweepers
(``arbitration.delay``; one in each Celery worker, ``arbitration.sweeper``) share the work without doubling it, and a
killed one loses nothing: the deadline stays in the database until a transition moves it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db import connection

from arbitration import timecontrol as tc
from arbitration.models import GameClock
from arbitration.persistence import clock_save
from games.rules import Position


def db_now() -> datetime:
    """Returns the database's current time (aware, UTC): the one time source for clocks."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT clock_timestamp()")
            return cursor.fetchone()[0].astimezone(UTC)
        cursor.execute("SELECT strftime('%Y-%m-%d %H:%M:%f', 'now')")
        return datetime.fromisoformat(cursor.fetchone()[0]).replace(tzinfo=UTC)


def clock_of(game: Any) -> GameClock | None:
    """Returns the game's clock row, or None when the game has no clock.

    Free when the game was read with ``select_related("clock")`` (``game_get``, for reads); one
    query otherwise, once per game object. Under a lock, read it after the lock is held
    (``game_lock`` does not join it).
    """
    if not hasattr(game, "_clock_row"):
        if not game.has_clock:
            game._clock_row = None
            return None
        try:
            game._clock_row = game.clock
        except GameClock.DoesNotExist:
            game._clock_row = None
    return game._clock_row


def control_of(clock: GameClock) -> tc.ClockControl:
    return tc.ClockControl.from_dict(clock.control)


def _save(clock: GameClock, control: tc.ClockControl, state: tc.ClockState, *, new: bool = False) -> None:
    """Writes the state and the deadline derived from it (inserts the row when ``new``)."""
    clock.state = state.as_dict()
    deadline = tc.next_deadline(control, state)
    clock.deadline, clock.deadline_kind = deadline if deadline else (None, "")
    if new:
        clock.save(force_insert=True)
    else:
        clock_save(clock)


def _sole_capture(game: Any) -> bool:
    return Position.from_fen(game.fen).sole_capture(game.engine_rules())


def _side_to_move(game: Any) -> str:
    return "black" if game.fen.startswith("B") else "white"


def clock_create(game: Any, control: tc.ClockControl) -> GameClock | None:
    """Gives a new game its clock (none for the ``none`` control)."""
    if not control.enabled:
        game._clock_row = None
        return None
    clock = GameClock(game=game, control=control.as_dict())
    _save(clock, control, tc.initial(control), new=True)
    game.has_clock = True  # saved with the game's other fields by the caller (game_create)
    game._clock_row = clock
    return clock


def clock_after_turn(game: Any, now: datetime, *, moved: str | None) -> None:
    """Stops the clock of the side that moved and starts the other's (or the side now on move).

    ``moved`` is the side that completed a move, or None when play was put back by a ruling.
    """
    clock = clock_of(game)
    if clock is None:
        return
    control = control_of(clock)
    state = tc.ClockState.from_dict(clock.state)
    if state.status not in (tc.RUNNING, tc.PAUSED):
        return
    state = tc.turn(control, state, moved=moved, side=_side_to_move(game), ply=game.ply,
                    sole_capture=_sole_capture(game), now=now)
    _save(clock, control, state)


def clock_stop(game: Any, now: datetime) -> None:
    """Stops the clocks when the game ends."""
    clock = clock_of(game)
    if clock is None:
        return
    state = tc.ClockState.from_dict(clock.state)
    if state.status == tc.STOPPED:
        return
    _save(clock, control_of(clock), tc.stop(state, now))


def clock_reopen(game: Any) -> None:
    """Puts the clocks of a game taken back into play paused, the side on move to run next.

    A correction or an appeal decision that undoes the end of a game calls this; the referee
    starts the clock again with ``clock_resume``.
    """
    clock = clock_of(game)
    if clock is None:
        return
    control = control_of(clock)
    state = tc.reopen(control, tc.ClockState.from_dict(clock.state), side=_side_to_move(game), ply=game.ply,
                      sole_capture=_sole_capture(game))
    _save(clock, control, state)


def clock_view(game: Any, now: datetime) -> dict[str, Any] | None:
    """Returns the ``clocks`` block of the game state: time left per side, the next deadline."""
    clock = clock_of(game)
    if clock is None:
        return None
    control = control_of(clock)
    state = tc.ClockState.from_dict(clock.state)
    deadline = tc.next_deadline(control, state)
    return {
        "control": control.as_dict(),
        "status": state.status,
        "running": state.side if state.status == tc.RUNNING else None,
        "black": {"remaining": round(tc.remaining_at(state, "black", now), 3),
                  "running": state.status == tc.RUNNING and state.side == "black"},
        "white": {"remaining": round(tc.remaining_at(state, "white", now), 3),
                  "running": state.status == tc.RUNNING and state.side == "white"},
        "time_called": state.time_called,
        "sole_capture": state.sole_capture,
        "moves": state.moves,
        "next_deadline": {"at": deadline[0].isoformat(), "kind": deadline[1], "side": state.side}
        if deadline else None,
        "server_now": now.isoformat(),
    }
