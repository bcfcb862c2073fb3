"""Loss by delay (Laws 24-25): time called and the loss adjudicated when a clock's deadline passes.

Enforcement is a guarded transition (``clock_enforce``): it acts only when the deadline derived
from the clock's state has passed at the database's ``now``, and the transition it writes moves
that deadline on, so a second trigger for the same deadline finds nothing to do. It runs before
a move or a ruling is checked (with the game row locked) and in the workers' sweep
(``clock_sweep``, called by ``arbitration.sweeper`` in each Celery worker, which sleeps until
``clock_next_deadline``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models.functions import Now

from arbitration import timecontrol as tc
from arbitration.access import result_changed
from arbitration.clocks import _save, clock_of, control_of, db_now
from arbitration.lifecycle import finish, opponent, save_game, win_for
from arbitration.log import log_append
from arbitration.models import GameClock, LogEntry
from arbitration.persistence import game_lock
from games.models import Game, Termination

Kind = LogEntry.Kind


def clock_check_before_move(game: Any, now: datetime) -> bool:
    """Applies what is due on the mover's clock before a move is checked; tells if the game ended.

    Called by ``arbitration.moves.game_move_record`` with the game row locked: a move that
    arrives after the loss by delay was due gets the loss (written here, once) instead of the
    move, whether or not a worker has adjudicated it yet; one that arrives after time was
    called but within the grace minute is recorded, after the time call.
    """
    clock = clock_of(game)
    if clock is None:
        return False
    clock_enforce(game, now)
    return game.status == game.Status.FINISHED


def clock_enforce(game: Any, now: datetime) -> list[str]:
    """Calls time and adjudicates the loss by delay when due at ``now``; returns what it did.

    A guarded transition: nothing happens unless the game is in progress, its clock runs, and
    the deadline derived from the clock's state has passed. Law 25: time is called at the
    limit; the loss follows when the grace has passed too. Both are logged by the system
    (no actor) with the database's time.
    """
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
        result_changed(game, actor=None, kind=Termination.LOSS_BY_DELAY, entry_seq=game.log_seq, before=None,
                       after=game.result, note=f"{side.capitalize()} lost through improper delay (Laws 24-25).")
        done.append(tc.LOSS)
        break
    if done and done[-1] == tc.TIME_CALL:
        save_game(game)
    return done


def clock_sweep(*, limit: int = 50) -> int:
    """Enforces every clock whose deadline has passed; returns how many games it acted on.

    One transaction: the due games (at the database's time) are locked with ``FOR UPDATE SKIP
    LOCKED`` (a game another sweeper or a move request holds is left to it), then each is
    enforced at the database's ``now``. Safe to run in any number of processes at once.
    """
    acted = 0
    with transaction.atomic():
        due = list(
            Game.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(status=Game.Status.IN_PROGRESS, clock__deadline__lte=Now())
            .order_by("clock__deadline").values_list("pk", flat=True)[:limit]
        )
        for game_id in due:
            # Read again now that the row is ours: the clock joined above may predate a move
            # that committed while the row was being locked.
            game = game_lock(game_id)
            if clock_enforce(game, db_now()):
                acted += 1
    return acted


def clock_next_deadline(*, after: datetime | None = None) -> datetime | None:
    """Returns the nearest deadline of a running clock (the nearest later than ``after``), or None.

    One query on the index of deadlines alone (``gameclock_due``): a clock runs only while its
    game is in progress (the end of a game stops it), and ``clock_sweep`` checks the game anyway.
    """
    clocks = GameClock.objects.filter(deadline__isnull=False)
    if after is not None:
        clocks = clocks.filter(deadline__gt=after)
    return clocks.order_by("deadline").values_list("deadline", flat=True).first()
