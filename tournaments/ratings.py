"""Ratings after a tournament: Glicko-2, computed with the kept ``glicko2`` package. Pure.

Glicko-2 was chosen over Elo because a kept library implements it (``glicko2`` 2.1.0, MIT,
checked against Glickman's published example in the tests) and because it tracks how reliable
each rating is (the deviation), which suits club players who play a few tournaments a year.
"""

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


#: The ranges a rating, its deviation and its volatility are brought into before they are used:
#: the registry accepts ratings of 0 to 4000 only (``players.models.RATING_MIN``/``RATING_MAX``),
#: but a row written before that bound (2**63 - 1 and -2**63 were accepted once) made the
#: expected score exactly 1 and the update divide by zero. Inside these ranges every step of
#: Glicko-2 is finite.
RATING_RANGE = (0.0, 4000.0)
RD_RANGE = (1.0, 500.0)
VOL_RANGE = (0.0001, 1.0)


def _within(value: float, bounds: tuple[float, float]) -> float:
    low, high = bounds
    return min(max(float(value), low), high)


def glicko_bounded(g: Glicko) -> Glicko:
    """Returns the rating with each of its parts brought into its range (``RATING_RANGE``, ...)."""
    return Glicko(_within(g.rating, RATING_RANGE), _within(g.rd, RD_RANGE), _within(g.vol, VOL_RANGE))


def glicko2_update(
    ratings: Mapping[int, Glicko], games: Iterable[GameScore], *, tau: float = 0.5
) -> dict[int, Glicko]:
    """Returns every player's Glicko-2 rating after the tournament, as one rating period.

    Each game counts as one result against the opponent's pre-tournament rating and RD
    (Glickman, "Example of the Glicko-2 system"). A player in ``ratings`` with no game gets
    only the RD increase of an idle period. Players missing from ``ratings`` start at the
    defaults (1500, 350, 0.06). Each input is first brought into its range (``glicko_bounded``),
    so that no stored value, however wrong, makes the update fail. Computed with the ``glicko2``
    package (MIT).
    """
    results: dict[int, list[tuple[float, float, float]]] = defaultdict(list)
    before = {player: glicko_bounded(rating) for player, rating in ratings.items()}
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
