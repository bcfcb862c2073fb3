"""Series standings across stages (pure): points per place, or the sum of results; best K of N.

Each stage gives a list of (player, place, score) rows; a player's stage points are the points
of his place (``place_points[place - 1]``, 0 past the list) or his score. His series total is the
sum of his best ``best_of`` stage points (all of them if None). Ties share a rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

PLACES = "places"
RESULTS = "results"
METHODS = (PLACES, RESULTS)


@dataclass(frozen=True, slots=True)
class StageRow:
    player: int
    place: int
    score: float


@dataclass(frozen=True, slots=True)
class SeriesRow:
    rank: int
    player: int
    total: float
    by_stage: tuple[float | None, ...]  # None: did not play that stage
    counted: tuple[bool, ...]  # which stages count towards the total (his best K)


def stage_points(row: StageRow, method: str, place_points: Sequence[float]) -> float:
    """Returns what one stage gives the player."""
    if method == PLACES:
        return float(place_points[row.place - 1]) if 1 <= row.place <= len(place_points) else 0.0
    if method == RESULTS:
        return float(row.score)
    raise ValueError(f"unknown series method {method!r}; one of {', '.join(METHODS)}")


def series_standings(stages: Sequence[Sequence[StageRow]], *, method: str, place_points: Sequence[float] = (),
                     best_of: int | None = None, names: Mapping[int, str] | None = None) -> list[SeriesRow]:
    """Returns the series standings: by total, then by the number of stages played, then by name (or id)."""
    if best_of is not None and best_of < 1:
        raise ValueError("best_of counts at least one stage")
    points: dict[int, list[float | None]] = {}
    for index, stage in enumerate(stages):
        for row in stage:
            points.setdefault(row.player, [None] * len(stages))[index] = stage_points(row, method, place_points)
    lines = []
    for player, by_stage in points.items():
        scored = sorted(((p, i) for i, p in enumerate(by_stage) if p is not None), key=lambda pi: (-pi[0], pi[1]))
        kept = scored if best_of is None else scored[:best_of]
        counted = {i for _p, i in kept}
        lines.append((sum(p for p, _i in kept), player, tuple(by_stage),
                      tuple(i in counted for i in range(len(stages)))))
    names = names or {}
    lines.sort(key=lambda line: (-line[0], -sum(p is not None for p in line[2]), names.get(line[1], ""), line[1]))
    rows = []
    for position, (total, player, by_stage, counted) in enumerate(lines, start=1):
        rank = rows[-1].rank if rows and rows[-1].total == total else position
        rows.append(SeriesRow(rank, player, total, by_stage, counted))
    return rows
