"""Standings with ordered, configurable tiebreaks, and the crosstable.

Conventions (documented choices):

- A match is won by the player with more game points; match points follow the ``Scoring``
  (default win 2, draw 1, loss 0). A bye scores ``Scoring.bye`` match points and
  ``bye_game_points`` game points; a forfeit (unplayed) scores as given but is not a played
  game: it counts for neither player's wins/draws/losses, nor for Sonneborn-Berger, nor
  head-to-head. A forfeit in which nobody is awarded the match (both absent, equal points)
  is a lost match for both.
- **Buchholz**: the sum of the final match points of every opponent met over the board. Each
  unplayed round of the player (bye, forfeit won or lost) counts as a virtual opponent with
  the player's own final match points (the FIDE 2023 "dummy opponent" rule), so a bye
  neither helps nor hurts. Opponents' scores are taken as they stand (not adjusted).
- **Median Buchholz**: Buchholz without the highest and the lowest contribution (``cut`` = 1
  each way).
- **Sonneborn-Berger**: over played matches, the opponent's final match points times the
  player's result (win 1, draw 1/2, loss 0); unplayed rounds add nothing.
- **Head-to-head**: among players still tied on points and every earlier tiebreak, the match
  points they scored in played matches against each other (the value shown, when an earlier
  tiebreak decided, is among all players on the same points).
- **Wins**: matches won over the board. **Game points**: all game points, unplayed included.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum


class Kind(StrEnum):
    PLAYED = "played"
    FORFEIT = "forfeit"
    BYE = "bye"


@dataclass(frozen=True, slots=True)
class Scoring:
    """Match points for a win, a draw and a loss; a bye's match and game points."""

    win: float = 2
    draw: float = 1
    loss: float = 0
    bye: float = 2
    bye_game_points: float = 2


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One match of a round: ``a``'s and ``b``'s game points; ``b`` is ``None`` for a bye.

    ``kind`` is ``played``, ``forfeit`` (unplayed; the points are those awarded) or ``bye``.
    """

    round: int
    a: int
    b: int | None
    a_points: float = 0
    b_points: float = 0
    kind: str = Kind.PLAYED


def match_points(result: MatchResult, player: int, scoring: Scoring) -> float:
    """Returns the match points ``player`` scored in ``result``."""
    if result.b is None:
        return scoring.bye
    mine, theirs = (
        (result.a_points, result.b_points) if player == result.a else (result.b_points, result.a_points)
    )
    if mine > theirs:
        return scoring.win
    if mine < theirs or result.kind == Kind.FORFEIT:  # a double forfeit: both lose
        return scoring.loss
    return scoring.draw


TIEBREAKS = (
    "sonneborn_berger",
    "buchholz",
    "median_buchholz",
    "head_to_head",
    "wins",
    "game_points",
)

#: Each tiebreak as a page names it.
TIEBREAK_LABELS = {
    "sonneborn_berger": "Sonneborn-Berger",
    "buchholz": "Buchholz",
    "median_buchholz": "Median Buchholz",
    "head_to_head": "Head-to-head",
    "wins": "Wins",
    "game_points": "Game points",
}


@dataclass(frozen=True, slots=True)
class CrossEntry:
    """One round of a player's record."""

    round: int
    opponent: int | None
    game_points: float
    opponent_game_points: float
    match_points: float
    kind: str


@dataclass(slots=True)
class StandingRow:
    rank: int
    player: int
    points: float
    tiebreaks: dict[str, float] = field(default_factory=dict)
    game_points: float = 0.0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    forfeits: int = 0


_KIND_OF = {kind.value: kind for kind in Kind}  # a dict look-up: calling Kind() costs ~9 µs a match


def _records(results: Iterable[MatchResult], scoring: Scoring) -> dict[int, list[CrossEntry]]:
    records: dict[int, list[CrossEntry]] = defaultdict(list)
    for r in results:
        if r.b is None:
            records[r.a].append(CrossEntry(r.round, None, scoring.bye_game_points, 0, scoring.bye, Kind.BYE))
            continue
        kind = _KIND_OF.get(r.kind)
        if kind is None:
            raise ValueError(f"{r.kind!r} is not a kind of match ({', '.join(_KIND_OF)})")
        if kind is Kind.BYE:
            raise ValueError("a bye has no opponent")
        records[r.a].append(
            CrossEntry(r.round, r.b, r.a_points, r.b_points, match_points(r, r.a, scoring), kind)
        )
        records[r.b].append(
            CrossEntry(r.round, r.a, r.b_points, r.a_points, match_points(r, r.b, scoring), kind)
        )
    for entries in records.values():
        entries.sort(key=lambda e: e.round)
    return records


def crosstable(
    results: Iterable[MatchResult], players: Sequence[int] = (), scoring: Scoring | None = None
) -> dict[int, list[CrossEntry]]:
    """Returns each player's record, round by round (the rows of the crosstable)."""
    records = _records(results, scoring or Scoring())
    return {p: records.get(p, []) for p in (players or sorted(records))} | {
        p: e for p, e in records.items() if p not in players
    }


def standings(
    results: Iterable[MatchResult],
    players: Sequence[int] = (),
    *,
    scoring: Scoring | None = None,
    tiebreaks: Sequence[str] = ("sonneborn_berger", "buchholz", "wins", "game_points"),
    median_cut: int = 1,
) -> list[StandingRow]:
    """Returns the standings: by match points, then ``tiebreaks`` in order; equal rows share a rank.

    ``players`` lists everybody (so a player with no result still appears); the rest come from
    ``results``. Ties left after every tiebreak are listed by player id.
    """
    scoring = scoring or Scoring()
    for t in tiebreaks:
        if t not in TIEBREAKS:
            raise ValueError(f"unknown tiebreak {t!r}; choose from {', '.join(TIEBREAKS)}")
    records = _records(list(results), scoring)
    everyone = sorted(set(players) | set(records))
    points = {p: math.fsum(e.match_points for e in records.get(p, [])) for p in everyone}  # correctly rounded

    def contributions(p: int) -> list[float]:
        return [
            points[e.opponent] if e.kind == Kind.PLAYED and e.opponent is not None else points[p]
            for e in records.get(p, [])
        ]

    def result_fraction(mp: float) -> float:
        if mp == scoring.win:
            return 1.0
        if mp == scoring.draw:
            return 0.5
        return 0.0

    rows: dict[int, StandingRow] = {}
    for p in everyone:
        entries = records.get(p, [])
        row = StandingRow(0, p, points[p])
        for e in entries:
            if e.kind == Kind.BYE:
                row.byes += 1
            elif e.kind == Kind.FORFEIT:
                row.forfeits += 1
            else:
                row.played += 1
                if e.match_points == scoring.win:
                    row.wins += 1
                elif e.match_points == scoring.draw:
                    row.draws += 1
                else:
                    row.losses += 1
        row.game_points = float(sum(e.game_points for e in entries))
        contrib = sorted(contributions(p))
        values = {
            "sonneborn_berger": sum(
                points[e.opponent] * result_fraction(e.match_points)
                for e in entries
                if e.kind == Kind.PLAYED and e.opponent is not None
            ),
            "buchholz": sum(contrib),
            "median_buchholz": sum(contrib[median_cut : len(contrib) - median_cut])
            if len(contrib) > 2 * median_cut
            else 0.0,
            "wins": row.wins,
            "game_points": row.game_points,
        }
        row.tiebreaks = {t: float(values[t]) for t in tiebreaks if t != "head_to_head"}
        rows[p] = row

    def head_to_head(group: list[int]) -> None:
        members = set(group)
        for p in group:
            rows[p].tiebreaks["head_to_head"] = float(
                sum(
                    e.match_points
                    for e in records.get(p, [])
                    if e.kind == Kind.PLAYED and e.opponent in members
                )
            )

    # Sort group by group so head-to-head is computed only among the players still tied.
    def split(group: list[int], level: int) -> list[list[int]]:
        if len(group) == 1 or level == len(tiebreaks):
            return [sorted(group)]
        name = tiebreaks[level]
        if name == "head_to_head":
            head_to_head(group)
        buckets: dict[float, list[int]] = defaultdict(list)
        for p in group:
            buckets[rows[p].tiebreaks[name]].append(p)
        out: list[list[int]] = []
        for value in sorted(buckets, reverse=True):
            out.extend(split(buckets[value], level + 1))
        return out

    by_points: dict[float, list[int]] = defaultdict(list)
    for p in everyone:
        by_points[points[p]].append(p)
    ordered: list[StandingRow] = []
    for value in sorted(by_points, reverse=True):
        if "head_to_head" in tiebreaks:
            head_to_head(by_points[value])  # shown value when an earlier tiebreak decides
        for tied in split(by_points[value], 0):
            rank = len(ordered) + 1
            for p in tied:
                rows[p].rank = rank
                ordered.append(rows[p])
    for row in ordered:
        row.tiebreaks = {t: row.tiebreaks.get(t, 0.0) for t in tiebreaks}
    return ordered
