"""The rating the American Checker Federation (ACF) publishes, computed for one tournament. Pure.

The ACF's published formula (usacheckers.com, "How ACF Ratings Are Calculated") is a
performance rating averaged into the player's rating over his last 128 games, not Elo's
``K × (score − expected)``:

    Rp = Rc + Window × (W − L) / N

``Rc`` the average rating of the opponents played, ``W`` and ``L`` the rounds won and lost,
``N`` the rounds played; ``Window`` is 400 for a tournament scored by round (its page names
four-game rounds) and 670 for one scored by game with two games a round ("the same average
rating and distribution" as 400 by round). "Ratings are computed by how many games were played
in each round and then averaged with the last 128 games": the event's performance weighs as
many games as the player played in it, his rating before as the games he has on the list, at
most 128 in all. So there is no K factor; what stands in for one is the 128-game memory
(a player with 128 games on the list moves by ``G/128`` of the gap between his performance and
his rating, ``G`` his games in the event: ``K = 128``'s share, in Elo's terms).

What the published page leaves open, and what this module chose (``docs/clubs.md``, ACF rating):
- a round of two games scored by round (this system's match) takes the by-round window, 400;
- only rounds against opponents with a rating before the event count (an unrated opponent
  has no rating to average); forfeits and byes are not rounds played;
- a player with no rating takes his performance as his rating (his games: those he played);
- a player whose games on the list are unknown counts as established (128);
- the result is rounded to the nearest whole point, halves up (the list prints whole numbers).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

#: The window of a tournament scored by round, and by game (two games a round): the ACF's constants.
WINDOW_BY_ROUND = 400
WINDOW_BY_GAME = 670
#: The games a rating is averaged over.
MEMORY_GAMES = 128


@dataclass(frozen=True, slots=True)
class AcfStanding:
    """A player's line on the list before the event: rating (None: unrated) and games (None: unknown)."""

    rating: int | None = None
    games: int | None = None


@dataclass(frozen=True, slots=True)
class AcfRound:
    """One round between two players as the ACF counts it: ``one``'s score (1 won, 0.5 drawn, 0 lost) and the
    games it held (a match of two games is one round of 2 games; scored by game, each game is a round of 1)."""

    one: int
    two: int
    score_one: float
    games: int = 1


@dataclass(frozen=True, slots=True)
class AcfChange:
    """What the event did to a player's rating: before, the opponents' average, W, L, N, games, performance,
    after (rounded), and the games the list counts after the event."""

    rating_before: int | None
    games_before: int | None
    opponents_average: float | None
    won: int
    lost: int
    rounds: int
    games: int
    performance: float | None
    rating_after: int | None
    games_after: int | None


def round_half_up(value: float) -> int:
    """Rounds to the nearest whole number, halves up (1500.5 → 1501, −0.5 → 0)."""
    return math.floor(value + 0.5)


def acf_performance(opponents_average: float, won: int, lost: int, rounds: int, *, window: int) -> float:
    """Returns ``Rc + Window × (W − L) / N``, the ACF's performance rating."""
    if rounds <= 0:
        raise ValueError("a performance needs at least one round")
    return opponents_average + window * (won - lost) / rounds


def acf_average(rating: float, games_before: int | None, performance: float, games: int, *,
                memory: int = MEMORY_GAMES) -> float:
    """Returns the rating after the event: the performance weighing its games, the rating before the games the
    list has for it, over at most ``memory`` games."""
    event = min(games, memory)
    before = memory if games_before is None else max(0, games_before)
    before = min(before, memory - event)
    if before + event == 0:
        return rating
    return (rating * before + performance * event) / (before + event)


def acf_ratings(before: Mapping[int, AcfStanding], rounds: Iterable[AcfRound], *, window: int = WINDOW_BY_ROUND,
                memory: int = MEMORY_GAMES) -> dict[int, AcfChange]:
    """Returns each player's change for the event (every player of ``before`` and of the rounds).

    A round counts for a player when his opponent had a rating before the event; a player with no
    counted round keeps his rating.
    """
    counted: dict[int, list[tuple[int, float, int]]] = defaultdict(list)  # player: (opponent rating, score, games)
    players = dict(before)
    for r in rounds:
        if r.score_one not in (0, 0.5, 1):
            raise ValueError("a round's score is 1, 0.5 or 0")
        if r.games < 1:
            raise ValueError("a round holds at least one game")
        for me, other, score in ((r.one, r.two, r.score_one), (r.two, r.one, 1 - r.score_one)):
            players.setdefault(me, AcfStanding())
            opponent = before.get(other, AcfStanding()).rating
            if opponent is not None:
                counted[me].append((opponent, score, r.games))
    out: dict[int, AcfChange] = {}
    for player, standing in players.items():
        mine = counted.get(player, [])
        if not mine:
            out[player] = AcfChange(standing.rating, standing.games, None, 0, 0, 0, 0, None, standing.rating,
                                    standing.games)
            continue
        n = len(mine)
        won = sum(1 for _, s, _ in mine if s == 1)
        lost = sum(1 for _, s, _ in mine if s == 0)
        games = sum(g for _, _, g in mine)
        average = sum(o for o, _, _ in mine) / n
        performance = acf_performance(average, won, lost, n, window=window)
        if standing.rating is None:
            after = performance
            games_after = games
        else:
            after = acf_average(standing.rating, standing.games, performance, games, memory=memory)
            games_after = None if standing.games is None else standing.games + games
        out[player] = AcfChange(standing.rating, standing.games, average, won, lost, n, games, performance,
                                round_half_up(after), games_after)
    return out
