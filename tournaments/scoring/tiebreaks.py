"""The FIDE tie-break catalogue (Tie-Break Regulations C.07, 2023/2024) on a tournament's rounds.

Pure: plain values in, numbers out. ``standings.py`` builds each player's :class:`Round` records
(one a round, every round up to the last one played, unplayed rounds included) and asks
:func:`values` for the tie-breaks a tournament chose, by code.

How unplayed rounds count (the regulations' article 16, as the FIDE tie-break checker reads it):

- **Voluntarily unplayed rounds (VUR)**: a forfeit lost, a round the player was not paired in
  (absent, left out after check-in, not yet entered, withdrawn), a requested bye. **Not**
  voluntary: the pairing-allocated bye and a forfeit won (the player came to play).
- **A player's own unplayed rounds** count, in Buchholz and Sonneborn-Berger, as a game against
  a *dummy opponent* with the player's own final score (16.4): a bye neither helps nor hurts.
- **An opponent's score** in Buchholz and Sonneborn-Berger is his *adjusted score* (16.3): his voluntarily unplayed
  rounds after the last round in which he was present count as draws, so that an opponent who
  withdrew early does not sink the players he met.
- **Cuts** (``-C1``, ``-C2``, ``-M1``, ``-M2``) drop the lowest (and for M the highest)
  contributions; among the lowest, a voluntarily unplayed round is cut first (16.5).
- **Direct encounter (DE)** is applied within a group still tied: when all of them met, their
  points against each other; when not, a player is placed above the rest only if his points
  against them are more than any other could have reached had the missing encounters been
  won (6.2); applied again inside each group it leaves tied.

Scores are the tournament's match points (a win 2 by default): every figure is on that scale;
Sonneborn-Berger weighs an opponent's score by the result (a win 1, a draw 1/2, a loss 0), which
orders players exactly as the points themselves would.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

#: Every tie-break by its FIDE code (and the draughts ones by their own), with its name as said.
CATALOGUE: dict[str, str] = {
    "BH": "Buchholz",
    "BH-C1": "Buchholz cut 1",
    "BH-C2": "Buchholz cut 2",
    "BH-M1": "Median Buchholz",
    "BH-M2": "Median Buchholz 2",
    "SB": "Sonneborn-Berger",
    "SB-C1": "Sonneborn-Berger cut 1",
    "PS": "Progressive score",
    "PS-C1": "Progressive score cut 1",
    "DE": "Direct encounter",
    "WIN": "Rounds won",
    "WON": "Games won over the board",
    "BPG": "Games played with Black",
    "BWG": "Games won with Black",
    "ARO": "Average rating of opponents",
    "ARO-C1": "Average rating of opponents cut 1",
    "TPR": "Tournament performance rating",
    "AOB": "Average of opponents' Buchholz",
    "KS": "Koya system",
    "HP": "Honour points",  # draughts' own, not FIDE's: the Sonneborn-Berger weighted game by game
}

#: The names the system used before the catalogue, kept for the tournaments that chose them:
#: each is now computed as the FIDE tie-break it always meant.
ALIASES: dict[str, str] = {
    "buchholz": "BH",
    "median_buchholz": "BH-M1",
    "sonneborn_berger": "SB",
    "head_to_head": "DE",
}

#: FIDE Rating Regulations (B.02), table 8.1(a): a score fraction p (in hundredths) to the rating
#: difference dp. Used by TPR.
SCORE_TO_DP = (
    -800,
    -677, -589, -538, -501, -470, -444, -422, -401, -383, -366,
    -351, -336, -322, -309, -296, -284, -273, -262, -251, -240,
    -230, -220, -211, -202, -193, -184, -175, -166, -158, -149,
    -141, -133, -125, -117, -110, -102, -95, -87, -80, -72,
    -65, -57, -50, -43, -36, -29, -21, -14, -7, 0,
    7, 14, 21, 29, 36, 43, 50, 57, 65, 72,
    80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
    158, 166, 175, 184, 193, 202, 211, 220, 230, 240,
    251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Round:
    """One round of a player's record, as the tie-breaks read it.

    ``opponent`` is None for a round without one (a bye, a round not paired in); ``played`` is
    True only for a match played over the board; ``voluntary`` marks a voluntarily unplayed
    round; ``fraction`` is the result (1 won, 1/2 drawn, 0 lost); ``black_games`` and
    ``black_wins`` count the games of the match played (and won) with Black; ``games`` holds
    the player's result in each game played over the board (1, 1/2, 0).
    """

    number: int
    points: float
    opponent: int | None
    played: bool
    voluntary: bool
    fraction: float
    black_games: int = 0
    black_wins: int = 0
    games: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Context:
    """What every tie-break may read: each player's rounds, scores and rating, the scale."""

    rounds: Mapping[int, Sequence[Round]]
    score: Mapping[int, float]
    ratings: Mapping[int, int]
    win: float
    draw: float
    round_count: int


def canonical(code: str) -> str:
    """Returns the catalogue code a tie-break name stands for (an old name gives its FIDE code)."""
    return ALIASES.get(code, code)


def name_of(code: str) -> str:
    """Returns a tie-break's name as people say it, for a code of the catalogue or an old name."""
    return CATALOGUE.get(canonical(code), code.replace("_", " ").capitalize())


# --- scores -------------------------------------------------------------------------------------


def adjusted_score(rounds: Sequence[Round], draw: float) -> float:
    """Returns a player's score as his opponents' Buchholz counts it (article 16.3).

    His voluntarily unplayed rounds without an opponent after the last round he was present
    (played, a bye he was given, a forfeit won) count as draws.
    """
    present = max((r.number for r in rounds if not r.voluntary), default=0)
    return math.fsum(
        r.points if r.number <= present or r.opponent is not None else draw for r in rounds
    )


@dataclass(frozen=True, slots=True)
class _Part:
    """One round's contribution to a Buchholz-like sum, with what the cuts sort on."""

    value: float
    score: float
    voluntary: bool


def _cut(parts: list[_Part], low: int, high: int) -> list[_Part]:
    """Returns the contributions left after cutting the ``low`` lowest and ``high`` highest.

    Among the lowest, a voluntarily unplayed round goes first (article 16.5).
    """
    parts = list(parts)
    low = min(low, len(parts))
    high = min(high, len(parts) - low)
    for _ in range(low):
        lowest = min(parts, key=lambda p: (p.score, p.value))
        unplayed = min(parts, key=lambda p: (not p.voluntary, p.score, p.value))
        parts.remove(lowest if lowest.value > unplayed.value else unplayed)
    for _ in range(high):
        parts.remove(max(parts, key=lambda p: (p.score, p.value)))
    return parts


def _buchholz_parts(player: int, ctx: Context, adjusted: Mapping[int, float], *, weighted: bool) -> list[_Part]:
    parts = []
    for r in ctx.rounds[player]:
        if r.played and r.opponent is not None:
            score, voluntary = adjusted[r.opponent], False
        else:  # the dummy opponent: the player's own score (article 16.4)
            score, voluntary = ctx.score[player], r.voluntary
        parts.append(_Part(score * r.fraction if weighted else score, score, voluntary))
    return parts


def _cuts_of(code: str) -> tuple[int, int]:
    modifier = code.partition("-")[2]
    if not modifier:
        return 0, 0
    count = int(modifier[1:])
    return (count, count) if modifier[0] == "M" else (count, 0)


# --- the catalogue ------------------------------------------------------------------------------


def values(codes: Sequence[str], ctx: Context) -> dict[str, dict[int, float]]:
    """Returns each tie-break's value for every player, by the code (or old name) asked for.

    Direct encounter is not here: it depends on the group still tied (:func:`direct_encounter`).
    """
    adjusted = {p: adjusted_score(rs, ctx.draw) for p, rs in ctx.rounds.items()}
    cache: dict[str, dict[int, float]] = {}

    def compute(code: str) -> dict[int, float]:
        if code not in cache:
            cache[code] = _COMPUTE[code.partition("-")[0]](code, ctx, adjusted, compute)
        return cache[code]

    return {name: compute(canonical(name)) for name in codes if canonical(name) != "DE"}


def _bh(code: str, ctx: Context, adjusted: Mapping[int, float], _c: Callable) -> dict[int, float]:
    low, high = _cuts_of(code)
    return {p: math.fsum(x.value for x in _cut(_buchholz_parts(p, ctx, adjusted, weighted=False), low, high))
            for p in ctx.rounds}


def _sb(code: str, ctx: Context, adjusted: Mapping[int, float], _c: Callable) -> dict[int, float]:
    low, high = _cuts_of(code)
    return {p: math.fsum(x.value for x in _cut(_buchholz_parts(p, ctx, adjusted, weighted=True), low, high))
            for p in ctx.rounds}


def _hp(_code: str, ctx: Context, adjusted: Mapping[int, float], _c: Callable) -> dict[int, float]:
    """HP, honour points: for every game played over the board, the opponent's score times the game's result.

    Draughts weighs each game, where Sonneborn-Berger weighs the match: a 2-game round won 2-0
    counts the opponent's score twice, one won 1-0 with a draw (1.5-0.5) one and a half times, a
    1-1 round once. The opponent's score is his adjusted score (article 16.3), as in SB;
    unplayed rounds (byes, forfeits) have no games and count nothing.
    """
    return {p: math.fsum(adjusted[r.opponent] * math.fsum(r.games) for r in rs
                         if r.played and r.opponent is not None)
            for p, rs in ctx.rounds.items()}


def _ps(code: str, ctx: Context, _a: Mapping[int, float], _c: Callable) -> dict[int, float]:
    low, _high = _cuts_of(code)
    out = {}
    for p, rs in ctx.rounds.items():
        running, total = 0.0, 0.0
        for r in rs:
            running += r.points
            if r.number > low:
                total += running
        out[p] = total
    return out


def _count(test: Callable[[Round], int]) -> Callable[..., dict[int, float]]:
    def count(_code: str, ctx: Context, _a: Mapping[int, float], _c: Callable) -> dict[int, float]:
        return {p: float(sum(test(r) for r in rs)) for p, rs in ctx.rounds.items()}
    return count


def _rated_opponents(player: int, ctx: Context) -> list[tuple[int, float]]:
    """Returns (rating, result) of each opponent met over the board who has a rating."""
    return [(ctx.ratings[r.opponent], r.fraction) for r in ctx.rounds[player]
            if r.played and r.opponent is not None and ctx.ratings.get(r.opponent) is not None]


def _average_rating(ratings: Sequence[int]) -> float:
    return float(math.floor(sum(ratings) / len(ratings) + 0.5)) if ratings else 0.0


def _aro(code: str, ctx: Context, _a: Mapping[int, float], _c: Callable) -> dict[int, float]:
    low, high = _cuts_of(code)
    out = {}
    for p in ctx.rounds:
        ratings = sorted(rating for rating, _f in _rated_opponents(p, ctx))
        out[p] = _average_rating(ratings[low:len(ratings) - high] if len(ratings) > low + high else [])
    return out


def _tpr(_code: str, ctx: Context, _a: Mapping[int, float], _c: Callable) -> dict[int, float]:
    """TPR: the average rating of the opponents met plus dp of the score fraction (B.02 8.1a)."""
    out = {}
    for p in ctx.rounds:
        met = _rated_opponents(p, ctx)
        if not met:
            out[p] = 0.0
            continue
        hundredths = math.floor(100 * sum(f for _r, f in met) / len(met) + 0.5)
        out[p] = _average_rating([r for r, _f in met]) + SCORE_TO_DP[hundredths]
    return out


def _aob(_code: str, ctx: Context, _a: Mapping[int, float], compute: Callable) -> dict[int, float]:
    buchholz = compute("BH")
    out = {}
    for p, rs in ctx.rounds.items():
        met = [buchholz[r.opponent] for r in rs if r.played and r.opponent is not None]
        out[p] = math.fsum(met) / len(met) if met else 0.0
    return out


def _ks(_code: str, ctx: Context, _a: Mapping[int, float], _c: Callable) -> dict[int, float]:
    """Koya: the points scored against the opponents who scored at least half the points possible."""
    half = ctx.win * ctx.round_count / 2
    return {p: math.fsum(r.points for r in rs if r.opponent is not None and ctx.score[r.opponent] >= half)
            for p, rs in ctx.rounds.items()}


_COMPUTE: dict[str, Callable[..., dict[int, float]]] = {
    "BH": _bh,
    "SB": _sb,
    "PS": _ps,
    "WIN": _count(lambda r: int(r.fraction == 1)),
    "WON": _count(lambda r: int(r.fraction == 1 and r.played)),
    "BPG": _count(lambda r: r.black_games if r.played else 0),
    "BWG": _count(lambda r: r.black_wins if r.played else 0),
    "ARO": _aro,
    "TPR": _tpr,
    "AOB": _aob,
    "KS": _ks,
    "HP": _hp,
}


def direct_encounter(group: Sequence[int], ctx: Context) -> tuple[dict[int, float], dict[int, int]]:
    """Returns, for a group of players still tied, each one's points against the others and his
    place among them (1 first; equal places stay tied), by article 6 of the regulations.

    Applied again inside every subgroup it leaves tied, until nothing changes.
    """
    shown: dict[int, float] = {}
    place = dict.fromkeys(group, 1)

    def settle(members: list[int], first: int) -> None:
        inside = set(members)
        scored: dict[int, float] = {}
        met: dict[int, set[int]] = {}
        for p in members:
            encounters = [r for r in ctx.rounds[p] if r.played and r.opponent in inside]
            scored[p] = math.fsum(r.points for r in encounters)
            met[p] = {r.opponent for r in encounters if r.opponent is not None}
        if len(members) == len(group):
            shown.update(scored)
        everyone_met = all(len(met[p]) == len(members) - 1 for p in members)
        best = {p: scored[p] + (len(members) - 1 - len(met[p])) * ctx.win for p in members}
        ordered = sorted(members, key=lambda p: (-scored[p], -best[p], p))
        groups: list[list[int]] = [[ordered[0]]]
        alone = True  # 6.2: each placed alone so far (someone tied above ties everyone below)
        for above, p in zip(ordered, ordered[1:], strict=False):
            apart = scored[above] != scored[p] if everyone_met else alone and scored[above] > best[p]
            if apart:
                groups.append([p])
            else:
                alone = False
                groups[-1].append(p)
        at = first
        for members_tied in groups:
            for p in members_tied:
                place[p] = at
            at += len(members_tied)
        if len(groups) == 1:
            return
        for members_tied in groups:
            if len(members_tied) > 1:
                settle(members_tied, place[members_tied[0]])

    settle(list(group), 1)
    return shown, place
