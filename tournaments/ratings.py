"""Ratings after a tournament: Glicko-2 (the ``glicko2`` package) or FIDE-style Elo. Pure."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import glicko2


@dataclass(frozen=True, slots=True)
class GameScore:
    """One game played over the board: ``black``'s score (1, 0.5, 0). Forfeits are not rated."""

    black: int
    white: int
    black_score: float


@dataclass(frozen=True, slots=True)
class Glicko:
    rating: float = 1500.0
    rd: float = 350.0
    vol: float = 0.06


def glicko2_update(
    ratings: Mapping[int, Glicko], games: Iterable[GameScore], *, tau: float = 0.5
) -> dict[int, Glicko]:
    """Returns every player's Glicko-2 rating after the tournament, as one rating period.

    Each game counts as one result against the opponent's pre-tournament rating and RD
    (Glickman, "Example of the Glicko-2 system"). A player in ``ratings`` with no game gets
    only the RD increase of an idle period. Players missing from ``ratings`` start at the
    defaults (1500, 350, 0.06). Computed with the ``glicko2`` package (MIT).
    """
    results: dict[int, list[tuple[float, float, float]]] = defaultdict(list)
    before = dict(ratings)
    for g in games:
        if g.black_score not in (0, 0.5, 1):
            raise ValueError("a game score is 1, 0.5 or 0")
        for p in (g.black, g.white):
            before.setdefault(p, Glicko())
        results[g.black].append((before[g.white].rating, before[g.white].rd, g.black_score))
        results[g.white].append((before[g.black].rating, before[g.black].rd, 1 - g.black_score))
    out: dict[int, Glicko] = {}
    for p, r in before.items():
        player = glicko2.Player(rating=r.rating, rd=r.rd, vol=r.vol)
        player._tau = tau
        if results.get(p):
            ratings_list, rds, scores = zip(*results[p], strict=True)
            player.update_player(list(ratings_list), list(rds), list(scores))
        else:
            player.did_not_compete()
        out[p] = Glicko(player.rating, player.rd, player.vol)
    return out


def elo_expected(rating: float, opponent: float) -> float:
    """Returns the expected score against ``opponent`` (FIDE: the difference capped at 400)."""
    diff = max(-400.0, min(400.0, opponent - rating))
    return 1 / (1 + 10 ** (diff / 400))


def fide_k(rating: float, games_before: int, *, age_under_18: bool = False, ever_2400: bool = False) -> int:
    """Returns the FIDE K factor: 40 for a player's first 30 games (or under 18 and below 2300),
    10 once he has reached 2400, otherwise 20."""
    if games_before < 30 or (age_under_18 and rating < 2300):
        return 40
    if ever_2400 or rating >= 2400:
        return 10
    return 20


def elo_update(
    ratings: Mapping[int, float],
    games: Iterable[GameScore],
    *,
    k: Mapping[int, int] | int = 20,
) -> dict[int, float]:
    """Returns every player's Elo rating after the tournament: R + K * sum(score - expected).

    Expectations use the pre-tournament ratings (FIDE practice for a rating period). ``k`` is
    one K for all or a K per player (see ``fide_k``). Players without games keep their rating.
    """
    change: dict[int, float] = defaultdict(float)
    for g in games:
        if g.black_score not in (0, 0.5, 1):
            raise ValueError("a game score is 1, 0.5 or 0")
        rb, rw = ratings[g.black], ratings[g.white]
        change[g.black] += g.black_score - elo_expected(rb, rw)
        change[g.white] += (1 - g.black_score) - elo_expected(rw, rb)

    def k_of(p: int) -> int:
        return k if isinstance(k, int) else k[p]

    return {p: r + k_of(p) * change.get(p, 0.0) for p, r in ratings.items()}
