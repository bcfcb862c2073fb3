"""A title match's score (pure): the score line game by game, and when one side cannot be caught.

A match is N games (N even) between two players; each game scores 1 for a win, 1/2 for a draw
(kept in half points, integers, so the arithmetic is exact). The match is decided when the
leader's score is more than the other's plus every point still to be played for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: A game's result for the match's first player, in half points: win 2, draw 1, loss 0.
WIN, DRAW, LOSS = 2, 1, 0


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """The running score after each game played, in half points, and whether and when it was decided."""

    games: int
    results: tuple[int, ...]  # the first player's half points in each game played, in order
    running: tuple[tuple[int, int], ...]  # (first, second) after each game
    decided_after: int | None  # the game after which one side could not be caught
    winner: int | None  # 1 or 2, once decided; None: not decided, or a drawn match

    @property
    def score(self) -> tuple[int, int]:
        return self.running[-1] if self.running else (0, 0)

    @property
    def played(self) -> int:
        return len(self.results)

    @property
    def finished(self) -> bool:
        """Tells whether every game was played."""
        return self.played == self.games

    @property
    def drawn(self) -> bool:
        """Tells whether all games were played and the score is level."""
        return self.finished and self.score[0] == self.score[1]


def decided(first: int, second: int, remaining: int) -> int | None:
    """Returns 1 or 2 when that side cannot be caught with ``remaining`` games to play, else None."""
    if first > second + WIN * remaining:
        return 1
    if second > first + WIN * remaining:
        return 2
    return None


def score_line(games: int, results: Sequence[int]) -> ScoreLine:
    """Returns the score line of a match of ``games`` games after ``results`` (half points of the first player).

    ``decided_after`` is the first game after which the score could not be caught; the winner
    stays the one decided then (the games played after it cannot change it).
    """
    if games < 2 or games % 2:
        raise ValueError(f"a match is an even number of games, got {games}")
    if len(results) > games:
        raise ValueError(f"{len(results)} results for a match of {games} games")
    first = second = 0
    running = []
    decided_after = winner = None
    for k, result in enumerate(results, start=1):
        if result not in (WIN, DRAW, LOSS):
            raise ValueError(f"a game's result is 0, 1 or 2 half points, got {result}")
        first += result
        second += WIN - result
        running.append((first, second))
        if decided_after is None:
            winner = decided(first, second, games - k)
            if winner is not None:
                decided_after = k
    return ScoreLine(games, tuple(results), tuple(running), decided_after, winner)


def half_points_text(half_points: int) -> str:
    """Returns half points as a score is written: ``3``, ``2½``, ``½``."""
    whole, half = divmod(half_points, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"
