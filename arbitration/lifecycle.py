"""A game's life: its status (one function, a table of transitions), its end and its resumption.

The status changes only through ``game_status_set``, which refuses a transition the table does
not allow; the function that makes the change writes its log entry in the same transaction
(``start_if_scheduled``: a ``system`` entry; ``finish``: ``game_end``; ``resume``: the ruling
that undid the ending, or a ``system`` entry after it). ``finish`` sends ``game_finished``
after the commit (``arbitration.signals``), which is how the tournament hears of it.

``Game.arbitration`` caches what the log says is pending, so a move needs no replay (see
``arbitration.state`` for its parts).
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
from games.models import Game

FORTY_MOVE_LIMIT = 40
AUTOMATIC_FORTY_PLIES = 80  # 40 moves by each side without a capture or a man move (WCDF)
FIFTY_MOVE_PLIES = 100  # 50 moves by each side without a man move or a piece removed (Pask)

OFFENCE_KINDS = ("touch_offence", "conduct", "left_room")

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


def _json_copy(value: Any) -> Any:
    """Returns a deep copy of JSON data (dicts, lists and scalars), faster than ``copy.deepcopy``."""
    if isinstance(value, dict):
        return {key: _json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_copy(item) for item in value]
    return value


def arbitration_state(game: Game) -> dict[str, Any]:
    """Returns a copy of the game's pending-state cache with every key filled in."""
    state = _json_copy(game.arbitration) if game.arbitration else {}
    state.setdefault("open_choices", [])
    state.setdefault("constraints", [])
    state.setdefault("forty", {"active": False, "start_ply": None, "stronger_side": None, "count": 0,
                               "awaiting_ruling": False})
    state.setdefault("progress", {"ply": 0, "fen": game.initial_fen})
    offences = state.setdefault("offences", {})
    for kind in OFFENCE_KINDS:
        offences.setdefault(kind, {"black": 0, "white": 0})
    state.setdefault("appeals", [])
    return state


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


def save_game(game: Game, state: dict[str, Any] | None = None) -> None:
    """Saves the game's cached fields (position, status, pending state, chain head)."""
    if state is not None:
        game.arbitration = state
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
