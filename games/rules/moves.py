"""Moves and their PDN notation (``11-15``, ``22x15``, ``15x24x31``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.rules.errors import MoveSyntaxError


@dataclass(frozen=True, order=True, slots=True)
class Move:
    """A move: every square the piece stands on, the pieces it captures, and crowning.

    ``path`` starts with the origin and lists every landing square (two squares for a plain
    move or single jump). ``captures`` lists the captured squares in the order they are jumped.
    ``crowns`` is true when a man ends the move on the far row. Moves sort by path.
    """

    path: tuple[int, ...]
    captures: tuple[int, ...] = ()
    crowns: bool = False

    @property
    def is_capture(self) -> bool:
        """Tells whether the move jumps at least one piece."""
        return bool(self.captures)

    @property
    def start(self) -> int:
        """Returns the square the piece leaves."""
        return self.path[0]

    @property
    def end(self) -> int:
        """Returns the square the piece ends on."""
        return self.path[-1]

    def pdn(self) -> str:
        """Returns the move in PDN, full path: ``11-15``, ``22x15``, ``15x24x31``."""
        if self.captures:
            return "x".join(map(str, self.path))
        return f"{self.path[0]}-{self.path[1]}"

    def short_pdn(self) -> str:
        """Returns the move in PDN short form: origin and destination only (``15x31``)."""
        separator = "x" if self.captures else "-"
        return f"{self.path[0]}{separator}{self.path[-1]}"

    def __str__(self) -> str:
        return self.pdn()


_MOVE_TEXT = re.compile(r"\s*(\d{1,2})((?:\s*[-xX:]\s*\d{1,2})+)\s*[!?*+#]*\s*\Z")
_STEP = re.compile(r"\s*([-xX:])\s*(\d{1,2})")


def parse_move_text(text: str) -> tuple[tuple[int, ...], bool]:
    """Reads move text into its squares and whether it is written as a capture.

    Accepts ``-``, ``x`` (either case) and ``:`` as separators and trailing annotation marks
    (``!``, ``?``, ``*``). Raises ``MoveSyntaxError`` for anything else or a square outside
    1-32. The result says nothing about legality.
    """
    match = _MOVE_TEXT.match(text) if isinstance(text, str) else None
    if match is None:
        raise MoveSyntaxError(f"{text!r} is not a move; write a move as 11-15, a jump as 22x15 or 15x24x31")
    squares = [int(match.group(1))]
    written_capture = False
    for separator, square in _STEP.findall(match.group(2)):
        squares.append(int(square))
        if separator != "-":
            written_capture = True
    for square in squares:
        if not 1 <= square <= 32:
            raise MoveSyntaxError(f"{text.strip()!r}: there is no square {square} (squares are 1-32)")
    return tuple(squares), written_capture
