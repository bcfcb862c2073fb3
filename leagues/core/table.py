"""The league table as a pure function of the matches' results (no Django)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

#: The declared order of the table: each next key decides only between teams level on those before.
TIE_ORDER = ("match points", "board points", "head to head", "honour points")


@dataclass(frozen=True, slots=True)
class Result:
    """A played (or defaulted) team match: board points and match points of each side."""

    home: int
    away: int
    home_points: Decimal
    away_points: Decimal
    home_match_points: int
    away_match_points: int


@dataclass(slots=True)
class Row:
    """A team's line of the table."""

    team: int
    name: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points_for: Decimal = Decimal(0)
    points_against: Decimal = Decimal(0)
    match_points: int = 0
    honour_points: Decimal = Decimal(0)
    head_to_head: int = 0
    rank: int = 0
    mark: str = ""  # "promoted", "relegated" or ""
    results: list[Result] = field(default_factory=list, repr=False)


def league_table(teams: Sequence[tuple[int, str]], results: Iterable[Result], *, promotion: int = 0,
                 relegation: int = 0) -> list[Row]:
    """Returns the table, ranked by ``TIE_ORDER``, then by name; promotion and relegation places marked.

    Honour points: the match points of each opponent beaten, and half those of each opponent
    drawn with (Sonneborn-Berger for teams). Head to head: the match points a team took in the
    matches among the teams level with it on match points and board points.
    """
    rows = {team: Row(team, name) for team, name in teams}
    results = [r for r in results if r.home in rows and r.away in rows]
    for r in results:
        for own, _other, pf, pa, mp, omp in ((r.home, r.away, r.home_points, r.away_points, r.home_match_points,
                                             r.away_match_points),
                                            (r.away, r.home, r.away_points, r.home_points, r.away_match_points,
                                             r.home_match_points)):
            row = rows[own]
            row.played += 1
            row.points_for += pf
            row.points_against += pa
            row.match_points += mp
            row.won += mp > omp
            row.drawn += mp == omp
            row.lost += mp < omp
            row.results.append(r)
    for row in rows.values():
        honour = Decimal(0)
        for r in row.results:
            home = r.home == row.team
            mp, omp = (r.home_match_points, r.away_match_points) if home else (r.away_match_points,
                                                                              r.home_match_points)
            opponent = rows[r.away if home else r.home].match_points
            if mp > omp:
                honour += opponent
            elif mp == omp:
                honour += Decimal(opponent) / 2
        row.honour_points = honour
    groups: dict[tuple[int, Decimal], list[Row]] = {}
    for row in rows.values():
        groups.setdefault((row.match_points, row.points_for), []).append(row)
    for group in groups.values():
        members = {row.team for row in group}
        for row in group:
            row.head_to_head = sum(
                (r.home_match_points if r.home == row.team else r.away_match_points)
                for r in row.results if len(group) > 1 and {r.home, r.away} <= members
            )
    ordered = sorted(rows.values(), key=lambda row: (-row.match_points, -row.points_for, -row.head_to_head,
                                                     -row.honour_points, row.name, row.team))
    for rank, row in enumerate(ordered, start=1):
        row.rank = rank
        if rank <= promotion:
            row.mark = "promoted"
        elif rank > len(ordered) - relegation:
            row.mark = "relegated"
    return ordered
