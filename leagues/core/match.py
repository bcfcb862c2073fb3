"""A team match on plain values: each board's colours, its points, defaults, and the match result.

A board is ``games_per_board`` games (1, or 2 on one 3-move ballot with colours reversed). On a
one-game board the home team has Black (the first move) on the odd boards and White on the even
ones; on a two-game board that is game 1, and game 2 reverses it. Points are game points (a win
1, a draw 1/2); a board's points are its games' sum, and the team with more wins the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

HALF = Decimal("0.5")
ONE = Decimal(1)
ZERO = Decimal(0)


class SheetError(ValueError):
    """Raised when a team sheet breaks a rule; the message names the rule."""


def home_colour(board: int, game: int) -> str:
    """Returns the home team's colour (``"black"`` or ``"white"``) in game ``game`` (from 1) of ``board``."""
    if board < 1 or game < 1:
        raise ValueError("boards and games are numbered from 1")
    black = (board % 2 == 1) == (game % 2 == 1)
    return "black" if black else "white"


def game_points(result: str, home: str) -> tuple[Decimal, Decimal]:
    """Returns (home, away) points of a game from its PDN result (``1-0`` Black won) and the home colour."""
    if result == "1/2-1/2":
        return HALF, HALF
    if result not in ("1-0", "0-1"):
        raise ValueError(f"not a finished game's result: {result!r}")
    black_won = result == "1-0"
    home_won = black_won == (home == "black")
    return (ONE, ZERO) if home_won else (ZERO, ONE)


def board_default(games_per_board: int, *, home_present: bool, away_present: bool) -> tuple[Decimal, Decimal]:
    """Returns (home, away) points of a board a side did not field: the side present takes every game."""
    full = Decimal(games_per_board)
    return (full if home_present else ZERO, full if away_present else ZERO)


@dataclass(frozen=True, slots=True)
class MatchScore:
    """A team match's outcome: game (board) points and match points of each side."""

    home_points: Decimal
    away_points: Decimal
    home_match_points: int
    away_match_points: int

    @property
    def winner(self) -> str:
        if self.home_points > self.away_points:
            return "home"
        return "away" if self.away_points > self.home_points else ""


def match_score(boards: Sequence[tuple[Decimal, Decimal]], *, win: int = 2, draw: int = 1,
                loss: int = 0) -> MatchScore:
    """Returns the match's score from its boards' (home, away) points: more game points win the match."""
    home = sum((b[0] for b in boards), ZERO)
    away = sum((b[1] for b in boards), ZERO)
    if home > away:
        return MatchScore(home, away, win, loss)
    if away > home:
        return MatchScore(home, away, loss, win)
    return MatchScore(home, away, draw, draw)


def match_default(board_count: int, games_per_board: int, *, defaulting: str, win: int = 2,
                  loss: int = 0) -> MatchScore:
    """Returns the score of a match one side (``"home"``, ``"away"`` or ``"both"``) did not come to."""
    full = Decimal(board_count * games_per_board)
    home = ZERO if defaulting in ("home", "both") else full
    away = ZERO if defaulting in ("away", "both") else full
    return MatchScore(home, away, loss if defaulting in ("home", "both") else win,
                      loss if defaulting in ("away", "both") else win)


def sheet_problem(boards: Sequence[int | None], *, board_count: int, order_by_rating: bool,
                  ratings: dict[int, int | None], roster_order: dict[int, int]) -> str | None:
    """Returns why a team sheet (player ids by board, None for a board not fielded) breaks a rule, or None.

    The rules, each named in its message: "board count" (one entry a board), "one board a player",
    "roster" (every player on the team's roster), "bottom-board defaults" (a team fielding fewer
    players leaves its bottom boards empty, no gap above a player), and the board order: by
    rating (rule "board order by rating": no player below one rated higher) or the roster's
    nominated order (rule "nominated board order").
    """
    if len(boards) != board_count:
        return f"Rule 'board count': the sheet has {len(boards)} boards; this league plays {board_count}."
    fielded = [p for p in boards if p is not None]
    if len(set(fielded)) != len(fielded):
        return "Rule 'one board a player': a player is on two boards."
    for player in fielded:
        if player not in roster_order:
            return f"Rule 'roster': player {player} is not on the team's roster."
    seen_gap = False
    for number, player in enumerate(boards, start=1):
        if player is None:
            seen_gap = True
        elif seen_gap:
            return (f"Rule 'bottom-board defaults': board {number} is fielded below an empty board; a team that "
                    "fields fewer players defaults its bottom boards.")
    for upper, lower in zip(fielded, fielded[1:], strict=False):
        if order_by_rating:
            if (ratings.get(lower) or 0) > (ratings.get(upper) or 0):
                return (f"Rule 'board order by rating': player {lower} (rating {ratings.get(lower)}) is below "
                        f"player {upper} (rating {ratings.get(upper)}).")
        elif roster_order[lower] < roster_order[upper]:
            return (f"Rule 'nominated board order': player {lower} (roster board {roster_order[lower]}) is below "
                    f"player {upper} (roster board {roster_order[upper]}).")
    return None
