"""What every ruling handler shares: the ``Ruling`` it receives and the reading of its fields."""

from __future__ import annotations

from typing import Any

from arbitration.log import log_append
from arbitration.models import LogEntry
from arbitration.state import PendingState
from games.models import Game
from games.rules import (
    Position,
)

Kind = LogEntry.Kind


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def remove_piece(fen: str, square: int) -> str:
    """Returns the position with the piece on ``square`` taken off, same side to move."""
    position = Position.from_fen(fen)
    black = [s for s in position.squares("black") if s != square]
    white = [s for s in position.squares("white") if s != square]
    kings = [s for s in position.squares("black", kings=True) + position.squares("white", kings=True) if s != square]
    return Position.from_squares(black, white, kings, position.side_to_move).fen()


class Ruling:
    """What a ruling function receives: the locked game, its pending state and the request.

    ``state`` is a frozen value: a handler that changes it assigns the new one
    (``r.state = r.state.with_...(...)``); ``ruling_issue`` saves the last.
    """

    def __init__(self, game: Game, state: PendingState, actor: Any, side: str, note: str,
                 payload: dict[str, Any]) -> None:
        self.game = game
        self.state = state
        self.actor = actor
        self.side = side
        self.note = note
        self.payload = payload

    def log(self, kind: str, *, law: str = "", data: dict | None = None, side: str | None = None,
            supersedes: LogEntry | None = None, note: str | None = None, at: Any = None) -> LogEntry:
        return log_append(game=self.game, kind=kind, side=self.side if side is None else side, law=law,
                          note=self.note if note is None else note, data=data or {}, actor=self.actor,
                          supersedes=supersedes, at=at)

    def position(self) -> Position:
        return Position.from_fen(self.game.fen)
