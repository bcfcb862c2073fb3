"""Colours of a round of one game (Law 6 asks lots for a match; a one-game round has none).

A Swiss round of single games takes its colours from the Dutch system's allocation rules
(C.04.3 section E, ``tournaments.pairing.dutch.choose_colour``): the player's colour history,
his preference and its strength, then the ranking, then the colour drawn by lot for the top
pairing number in round 1. Draughts' Black moves first, as TRF's ``w`` does: Black here is
``w`` there. A round robin's single games take the Berger table's colours
(``roundrobin.berger_table``: the first-named has Black); a knockout's take lots, then
alternate in the tie-break games.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from tournaments.pairing.dutch import DutchPlayer, _colour_data, choose_colour, first_colour_down_the_order
from tournaments.pairing.trf import BLACK as TRF_SECOND
from tournaments.pairing.trf import WHITE as TRF_FIRST
from tournaments.pairing.trf import TrfRound

FIRST, SECOND = "B", "W"  # draughts: Black moves first


def initial_colour_lots(seed: int) -> str:
    """Casts lots for the colour of the top pairing number in round 1: ``"B"`` or ``"W"``."""
    return FIRST if random.Random(seed).random() < 0.5 else SECOND


def initial_colour_from_round_one(colours: Sequence[str | None], paired: Sequence[bool] | None = None) -> str | None:
    """Returns the colour lots gave the top pairing number, read from round 1 as it was played.

    ``colours`` are the round-1 colours of the players in pairing-number order (None: no game
    with a colour); ``paired`` says, in the same order, whether each took part in round 1's pairing
    (a game, a forfeit, the pairing-allocated bye; None: only those with a colour did). As the
    reference infers it: the first player with a colour had it if an even number of players who
    took part stand before him, else the other one (the allocation of round 1 gives the colours
    alternately down the players paired, as ``dutch.infer_initial_colour`` reads a TRF file:
    ``dutch.first_colour_down_the_order``).
    """
    took_part = [c is not None for c in colours] if paired is None else paired
    return first_colour_down_the_order(colours, took_part, lambda c: SECOND if c == FIRST else FIRST)


def _dutch(player: int, rank: int, score: float, history: Sequence[str]) -> DutchPlayer:
    rounds = tuple(TrfRound(0, TRF_FIRST if c == FIRST else TRF_SECOND, "=") for c in history)
    p = DutchPlayer(number=player, rank=rank, score=round(score * 10), rounds=rounds)
    _colour_data(p)
    return p


def swiss_single_game_colours(
    pairs: Sequence[tuple[int, int]], *, ranks: Mapping[int, int], scores: Mapping[int, float],
    history: Mapping[int, Sequence[str]], initial: str,
) -> list[tuple[int, int]]:
    """Returns each pair as (Black, White) by the Dutch system's colour rules (E1-E5).

    ``ranks`` are the pairing numbers from 0, ``scores`` the points before the round,
    ``history`` each player's colours in the games he played, in order (``"B"``, ``"W"``),
    ``initial`` the colour drawn for the top pairing number.
    """
    trf_initial = TRF_FIRST if initial == FIRST else TRF_SECOND
    out = []
    for a, b in pairs:
        pa = _dutch(a, ranks[a], scores.get(a, 0.0), history.get(a, ()))
        pb = _dutch(b, ranks[b], scores.get(b, 0.0), history.get(b, ()))
        colour = choose_colour(pa, pb, trf_initial)
        out.append((a, b) if colour == TRF_FIRST else (b, a))
    return out
