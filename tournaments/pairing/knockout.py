"""Knockout: seeded brackets, byes to the top seeds, next rounds, and deciding a tied match."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournaments.pairing.types import Pairing, PairingError


def bracket_order(size: int) -> list[int]:
    """Returns the seeds in bracket order for a power-of-two ``size``: 8 -> 1,8,4,5,2,7,3,6.

    Adjacent pairs meet in the first round (1 v 8, 4 v 5, ...), and seeds 1 and 2 can meet only
    in the final.
    """
    if size < 1 or size & (size - 1):
        raise PairingError(f"a bracket size must be a power of two, got {size}")
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


@dataclass(frozen=True, slots=True)
class Seeded:
    id: int
    rating: int


def knockout_first_round(players: Sequence[Seeded]) -> list[Pairing]:
    """Returns round 1 of a knockout seeded by rating (highest first; ties by lower id).

    The bracket is the next power of two; missing seeds are byes, so the top seeds get them.
    The higher seed is named first (``black``). The list is in bracket order (byes included,
    numbered like boards), so its winners, in the same order, feed ``knockout_next_round``.
    """
    if len(players) < 2:
        raise PairingError("a knockout needs at least two players")
    if len({p.id for p in players}) != len(players):
        raise PairingError("a player appears twice")
    seeded = sorted(players, key=lambda p: (-p.rating, p.id))
    size = 1
    while size < len(seeded):
        size *= 2
    order = bracket_order(size)
    slots: list[Pairing] = []
    for k in range(0, size, 2):
        a, b = order[k], order[k + 1]
        top, bottom = min(a, b), max(a, b)
        if bottom > len(seeded):
            slots.append(
                Pairing(len(slots) + 1, seeded[top - 1].id, None, f"bye: seed {top} (no seed {bottom})")
            )
        else:
            slots.append(
                Pairing(
                    len(slots) + 1, seeded[top - 1].id, seeded[bottom - 1].id, f"seed {top} v seed {bottom}"
                )
            )
    return slots


def knockout_next_round(winners: Sequence[int]) -> list[Pairing]:
    """Returns the next round from the previous round's winners in bracket order.

    ``winners`` lists the winner of each bracket slot of the previous round, top of the bracket
    first (the winner of slot 1, of slot 2, ...): slots 1 and 2 meet, 3 and 4, ...
    """
    if len(winners) < 2 or len(winners) % 2:
        raise PairingError(f"a knockout round needs an even number of winners, got {len(winners)}")
    return [
        Pairing(k // 2 + 1, winners[k], winners[k + 1], f"winners of slots {k + 1} and {k + 2}")
        for k in range(0, len(winners), 2)
    ]


class TieBreak(StrEnum):
    BLOCKS = "blocks"  # 2-game blocks until decided
    BLOCKS_THEN_LOTS = "blocks-then-lots"  # up to ``max_blocks`` blocks, then lots
    LOTS = "lots"  # lots at once


@dataclass(frozen=True, slots=True)
class MatchDecision:
    """What a knockout match's games decide: a winner, or another block of games to play."""

    winner: int | None
    needs_block: bool
    reason: str
    score: tuple[float, float]


def decide_knockout_match(
    a: int,
    b: int,
    games: Sequence[float],
    *,
    games_per_match: int = 2,
    tie_break: TieBreak | str = TieBreak.BLOCKS,
    max_blocks: int = 0,
    seed: int | None = None,
) -> MatchDecision:
    """Decides a knockout match between ``a`` and ``b`` from its game results.

    ``games`` holds ``a``'s points in each game played (1, 0.5, 0), in order: the regular games
    (one, or an even number) first, then 2-game tie-break blocks. The match is decided by the first complete stage
    (regular games, then each block) after which the totals differ. Under ``blocks`` a tie
    means another block; under ``blocks-then-lots`` at most ``max_blocks`` blocks, then lots
    from ``seed``; under ``lots`` lots at once. Lots use ``random.Random(seed)``, so the
    recorded seed reproduces them.
    """
    rule = TieBreak(tie_break)
    if games_per_match != 1 and (games_per_match < 2 or games_per_match % 2):
        raise ValueError("a match is one game or an even number of games")
    if any(g not in (0, 0.5, 1) for g in games):
        raise ValueError("a game result is 1, 0.5 or 0 for the first player")
    played = len(games)
    total_a = float(sum(games))
    total_b = float(played - total_a)
    if played < games_per_match:
        return MatchDecision(
            None, False, f"match in progress: {played} of {games_per_match} games", (total_a, total_b)
        )
    extra = played - games_per_match
    if extra % 2:
        return MatchDecision(None, False, "tie-break block in progress", (total_a, total_b))
    blocks = extra // 2
    # The first stage that leaves the totals unequal decides.
    end = games_per_match
    while end <= played:
        sa = float(sum(games[:end]))
        sb = end - sa
        if sa != sb:
            if end != played:
                raise ValueError("games were played after the match was decided")
            stage = (
                "the match games"
                if end == games_per_match
                else f"tie-break block {(end - games_per_match) // 2}"
            )
            return MatchDecision(a if sa > sb else b, False, f"won on {stage}: {sa:g}-{sb:g}", (sa, sb))
        end += 2
    if rule is TieBreak.BLOCKS or (rule is TieBreak.BLOCKS_THEN_LOTS and blocks < max_blocks):
        return MatchDecision(
            None, True, f"tied {total_a:g}-{total_b:g}: another 2-game block", (total_a, total_b)
        )
    if seed is None:
        raise ValueError("lots need a recorded seed")
    winner = random.Random(seed).choice([a, b])
    return MatchDecision(
        winner, False, f"tied {total_a:g}-{total_b:g}: decided by lots (seed {seed})", (total_a, total_b)
    )
