"""A game's life: its status (one function, a table of transitions), its end and its resumption.

The status changes only through ``game_status_set``, which refuses a transition the table does
not allow; the function that makes the change writes its log entry in the same transaction
(``start_if_scheduled``: a ``system`` entry; ``finish``: ``game_end``; ``resume``: the ruling
that undid the ending, or a ``system`` entry after it). ``finish`` sends ``game_finished``
after the commit (``arbitration.signals``), which is how the tournament hears of it.

``Game.arbitration`` caches what the log says is pending, so a move needs no replay. Its typed
form is ``arbitration.state.PendingState`` (its parts, its JSON form and the laws on it): a
service loads it once, with the game row locked, with ``PendingState.from_json``, passes the
value on (every change is a new value) and ``save_game(game, state)`` writes ``state.to_json()``.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from arbitration.clocks import clock_of, clock_reopen, clock_stop, db_now
from arbitration.errors import (
    GameNotStarted,
    GameOver,
)
from arbitration.log import log_append
from arbitration.models import LogEntry
from arbitration.persistence import game_save
from arbitration.signals import game_finished_on_commit
from arbitration.state import PendingState
from games.models import Game

#: The game statuses each status may change to.
GAME_TRANSITIONS: dict[str, frozenset[str]] = {
    Game.Status.SCHEDULED: frozenset({Game.Status.IN_PROGRESS}),
    Game.Status.IN_PROGRESS: frozenset({Game.Status.FINISHED}),
    # An ending undone by a correction or an appeal; or replaced by an arbiter's result (Law 28).
    Game.Status.FINISHED: frozenset({Game.Status.IN_PROGRESS, Game.Status.FINISHED}),
}


class GameTransitionRefused(RuntimeError):
    """A service asked for a status change the table does not allow: a bug, never a user's error."""


def game_status_set(game: Game, status: str) -> None:
    """Changes the game's status after checking ``GAME_TRANSITIONS`` (saved with the game by the caller)."""
    if status not in GAME_TRANSITIONS.get(game.status, frozenset()):
        raise GameTransitionRefused(f"Game {game.pk}: {game.status} -> {status} is not an allowed transition.")
    game.status = status


def opponent(side: str) -> str:
    """Returns the other side's name."""
    return "white" if side == "black" else "black"


def win_for(side: str) -> str:
    """Returns the result in which ``side`` won (1-0 is Black's win, as in PDN)."""
    return Game.Result.BLACK_WINS if side == "black" else Game.Result.WHITE_WINS


def game_over(game: Game) -> GameOver:
    """Returns the refusal (409 ``game_over``) for a request on a finished game."""
    return GameOver(
        f"The game is over ({game.result}, {game.termination}).",
        details={"result": game.result, "termination": game.termination},
    )


def ensure_in_progress(game: Game) -> None:
    """Refuses (409) when the game is finished or not started."""
    if game.status == Game.Status.FINISHED:
        raise game_over(game)
    if game.status == Game.Status.SCHEDULED:
        raise GameNotStarted("The game has not started.")


def start_if_scheduled(game: Game, actor: Any) -> None:
    """Starts a scheduled game (a tournament game made by pairing) at its first move or ruling."""
    if game.status == Game.Status.SCHEDULED:
        game_status_set(game, Game.Status.IN_PROGRESS)
        log_append(game=game, kind=LogEntry.Kind.SYSTEM, actor=actor, note="The game started.",
                   data={"started": True})


def save_game(game: Game, state: PendingState | None = None) -> None:
    """Saves the game's cached fields (position, status, pending state, chain head).

    ``state``: the pending state, written as its JSON form (without it the cache stays as it is).
    """
    if state is not None:
        game.arbitration = state.to_json()
    game_save(game)


def finish(
    game: Game, *, result: str, termination: str, actor: Any, side: str = "", law: str = "", note: str = "",
    data: dict | None = None, supersedes: LogEntry | None = None, at: Any = None,
) -> LogEntry:
    """Ends the game with a result and a termination, stops its clocks, and logs the end (``game_end``)."""
    if at is None and clock_of(game) is not None:
        at = db_now()
    game_status_set(game, Game.Status.FINISHED)
    game.result = result
    game.termination = termination
    game.finished_at = at or timezone.now()
    if at is not None:
        clock_stop(game, at)
    game_finished_on_commit(game)
    return log_append(
        game=game, kind=LogEntry.Kind.GAME_END, side=side, law=law, note=note, actor=actor, at=at,
        data={"result": result, "termination": termination, **(data or {})}, supersedes=supersedes,
    )


def resume(game: Game) -> None:
    """Puts a finished game back in progress (a ruling that ended it was overturned), its clocks paused."""
    game_status_set(game, Game.Status.IN_PROGRESS)
    game.result = None
    game.termination = None
    game.finished_at = None
    clock_reopen(game)
