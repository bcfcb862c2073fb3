"""Errors raised by the rules engine; all are ``ValueError`` subclasses, as in python-chess."""

from __future__ import annotations

from collections.abc import Sequence


class RulesError(ValueError):
    """Base class of every error the rules engine raises."""


class FENError(RulesError):
    """Raised when a FEN string cannot be read."""


class MoveSyntaxError(RulesError):
    """Raised when a move is not written as PDN writes English-draughts moves."""


class IllegalMoveError(RulesError):
    """Raised when a well-formed move is not legal in the position.

    ``reason`` is a sentence for a person ("a capture is compulsory: 14x23, 21x14");
    ``legal_moves`` lists the legal moves in PDN, full path.
    """

    def __init__(self, reason: str, legal_moves: Sequence[str] = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.legal_moves = list(legal_moves)


class AmbiguousMoveError(RulesError):
    """Raised when a short-form capture (``15x31``) matches more than one legal path."""

    def __init__(self, text: str, candidates: Sequence[str]) -> None:
        super().__init__(f"{text} is ambiguous: it could be {', '.join(candidates)}")
        self.text = text
        self.candidates = list(candidates)


class PDNSyntaxError(RulesError):
    """Raised when PDN text cannot be read; names the line and column (both 1-based)."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.message = message
        self.line = line
        self.column = column
