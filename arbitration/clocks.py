"""Clocks (Laws 24-25): the game's clock row, its transitions, and the sweep that enforces it.

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
(one in each Celery worker, ``arbitration.sweeper``) share the work without doubling it, and a
killed one loses nothing: the deadline stays in the database until a transition moves it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db import connection, transaction

from accounts.roles import is_director
from arbitration import timecontrol as tc
from arbitration.errors import InvalidRuling, NotAllowed
from arbitration.log import log_append
from arbitration.models import GameClock, LogEntry
from config import sqlrows

Kind = LogEntry.Kind


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
        sqlrows.row_update(clock, ["state", "deadline", "deadline_kind", "updated_at"])


def _sole_capture(game: Any) -> bool:
    from games.rules import Position
    from games.services import engine_rules

    return Position.from_fen(game.fen).sole_capture(engine_rules(game))


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


# --- what the move and ruling services call ----------------------------------------------------


def clock_check_before_move(game: Any, now: datetime) -> bool:
    """Applies what is due on the mover's clock before a move is checked; tells if the game ended.

    Called by ``games.services.game_move_record`` with the game row locked: a move that
    arrives after the loss by delay was due gets the loss (written here, once) instead of the
    move, whether or not a worker has adjudicated it yet; one that arrives after time was
    called but within the grace minute is recorded, after the time call.
    """
    clock = clock_of(game)
    if clock is None:
        return False
    clock_enforce(game, now)
    return game.status == game.Status.FINISHED


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


def clock_enforce(game: Any, now: datetime) -> list[str]:
    """Calls time and adjudicates the loss by delay when due at ``now``; returns what it did.

    A guarded transition: nothing happens unless the game is in progress, its clock runs, and
    the deadline derived from the clock's state has passed. Law 25: time is called at the
    limit; the loss follows when the grace has passed too. Both are logged by the system
    (no actor) with the database's time.
    """
    from games.models import Game, Termination
    from games.services import finish, opponent, save_game, win_for

    clock = clock_of(game)
    done: list[str] = []
    if clock is None or game.status != Game.Status.IN_PROGRESS:
        return done
    control = control_of(clock)
    state = tc.ClockState.from_dict(clock.state)
    while (what := tc.due(control, state, now)) is not None:
        side = state.side
        deadline = tc.next_deadline(control, state)[0]  # type: ignore[index]
        late = max(0.0, (now - deadline).total_seconds())
        if what == tc.TIME_CALL:
            state = tc.call_time(state)
            grace = control.grace_seconds
            log_append(
                game=game, kind=Kind.TIME_CALL, side=side, law="25", at=now,
                note=f"Time called on {side}: the move must be completed within {grace:g} s (Law 25).",
                data={"deadline": deadline.isoformat(), "late_ms": round(late * 1000, 1), "ply": game.ply},
            )
            _save(clock, control, state)
            done.append(tc.TIME_CALL)
            continue
        state = tc.stop(state, now)
        _save(clock, control, state)
        finish(
            game, result=win_for(opponent(side)), termination=Termination.LOSS_BY_DELAY, actor=None, side=side,
            law="25", at=now,
            note=f"{side.capitalize()} did not complete the move in time: the game is lost through improper delay "
            "(Laws 24-25).",
            data={"deadline": deadline.isoformat(), "late_ms": round(late * 1000, 1), "ply": game.ply},
        )
        save_game(game)
        done.append(tc.LOSS)
        break
    if done and done[-1] == tc.TIME_CALL:
        save_game(game)
    return done


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


# --- the clock rulings ----------------------------------------------------------------------


def _clock_for_ruling(r: Any) -> tuple[GameClock, tc.ClockControl, tc.ClockState]:
    clock = clock_of(r.game)
    if clock is None:
        raise InvalidRuling("This game is played without a clock.", details={"clock": None})
    return clock, control_of(clock), tc.ClockState.from_dict(clock.state)


def _clock_start(r: Any) -> None:
    clock, control, state = _clock_for_ruling(r)
    if state.status != tc.NOT_STARTED:
        raise InvalidRuling(f"The clock has already been started ({state.status}); use clock_resume after a pause.")
    now = db_now()
    side = _side_to_move(r.game)
    state = tc.start(control, state, side=side, ply=r.game.ply, sole_capture=_sole_capture(r.game), now=now)
    _save(clock, control, state)
    r.log(Kind.CLOCK_START, law="24", side=side, at=now,
          data={"control": control.as_dict(), "remaining": state.remaining})


def _clock_pause(r: Any) -> None:
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


def _clock_resume(r: Any) -> None:
    clock, control, state = _clock_for_ruling(r)
    if state.status != tc.PAUSED:
        raise InvalidRuling(f"The clocks are not paused ({state.status}).")
    now = db_now()
    state = tc.resume(state, now)
    _save(clock, control, state)
    r.log(Kind.CLOCK_RESUME, at=now, data={"remaining": state.remaining})


def _clock_adjust(r: Any) -> None:
    if not is_director(r.actor):
        raise NotAllowed("Only a tournament director may adjust a clock.")
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


CLOCK_RULINGS = {
    Kind.CLOCK_START: _clock_start,
    Kind.CLOCK_PAUSE: _clock_pause,
    Kind.CLOCK_RESUME: _clock_resume,
    Kind.CLOCK_ADJUST: _clock_adjust,
}


# --- the sweep ----------------------------------------------------------------------------


def clock_sweep(*, limit: int = 50) -> int:
    """Enforces every clock whose deadline has passed; returns how many games it acted on.

    One transaction: the due games are locked with ``FOR UPDATE SKIP LOCKED`` (a game another
    sweeper or a move request holds is left to it), then each is enforced at the database's
    ``now``. Safe to run in any number of processes at once.
    """
    from games.models import Game
    from games.services import game_lock

    acted = 0
    with transaction.atomic():
        due = list(
            Game.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(status=Game.Status.IN_PROGRESS, clock__deadline__lte=db_now())
            .order_by("clock__deadline").values_list("pk", flat=True)[:limit]
        )
        for game_id in due:
            # Read again now that the row is ours: the clock joined above may predate a move
            # that committed while the row was being locked.
            game = game_lock(game_id)
            if clock_enforce(game, db_now()):
                acted += 1
    return acted
