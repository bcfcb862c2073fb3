"""Plain values shared by the pairing algorithms (no Django, no ORM)."""

from __future__ import annotations

from dataclasses import dataclass


class PairingError(ValueError):
    """Raised when a round cannot be paired under the format's rules."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of a round.

    ``black`` is the player proposed to have Black (the first move, Law 7) in the first game of
    the match; ``white`` is ``None`` for a bye. ``reason`` explains the pairing to a director.
    """

    board: int
    black: int
    white: int | None
    reason: str = ""

    @property
    def is_bye(self) -> bool:
        return self.white is None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.black,) if self.white is None else (self.black, self.white)
