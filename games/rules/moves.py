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


#: The longest move text read, before any pattern runs: a king's jump over all twelve pieces,
#: written in full (``1x10x19x...``), is under 40 characters.
MAX_MOVE_TEXT = 80

# Every quantifier is possessive (``*+``, ``++``, ``{1,2}+``): a match never gives back what it
# took, so the time is linear in the text whatever it holds (the old pattern, with ``\s*`` on
# both sides of an optional group, was quadratic on "1-2" + spaces + "a"). The text is
# stripped first, so the pattern needs no leading or trailing space.
_MOVE_TEXT = re.compile(r"(\d{1,2}+)((?:\s*+[-xX:]\s*+\d{1,2}+)++)\s*+[!?*+#]*+\Z")
_STEP = re.compile(r"\s*+([-xX:])\s*+(\d{1,2}+)")


def _quoted(text: str) -> str:
    return repr(text) if len(text) <= MAX_MOVE_TEXT else repr(text[:MAX_MOVE_TEXT]) + f"... ({len(text)} characters)"


def parse_move_text(text: str) -> tuple[tuple[int, ...], bool]:
    """Reads move text into its squares and whether it is written as a capture.

    Accepts ``-``, ``x`` (either case) and ``:`` as separators and trailing annotation marks
    (``!``, ``?``, ``*``). Raises ``MoveSyntaxError`` for anything else, a square outside 1-32
    or a text longer than ``MAX_MOVE_TEXT`` (refused before the pattern runs). The result says
    nothing about legality.
    """
    if not isinstance(text, str):
        raise MoveSyntaxError(f"a move is text, not {type(text).__name__}; write a move as 11-15")
    if len(text) > MAX_MOVE_TEXT:
        raise MoveSyntaxError(f"{_quoted(text)} is not a move: a move is at most {MAX_MOVE_TEXT} characters")
    stripped = text.strip()
    match = _MOVE_TEXT.match(stripped)
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
            raise MoveSyntaxError(f"{stripped!r}: there is no square {square} (squares are 1-32)")
    return tuple(squares), written_capture
