"""A team knockout cup on plain values: the draw (lots from a recorded seed) and who goes through."""

from __future__ import annotations

import random
from collections.abc import Sequence
from decimal import Decimal

from leagues.core.schedule import FixturePlan, ScheduleError

#: How a level cup match is decided.
BOARD_ELIMINATION = "board_elimination"  # the bottom board is struck off until one side leads
DECIDER = "decider"  # a decider game, recorded by the secretary
TIE_RULES = (BOARD_ELIMINATION, DECIDER)


def cup_draw(teams: Sequence[int], seed: int) -> list[FixturePlan]:
    """Returns the first round of a cup: ``teams`` drawn by lots (``random.Random(seed)``, reproducible from the
    seed kept on the record), paired in drawn order, the first drawn at home; as many byes as bring the field to a
    power of two, given to the last teams drawn."""
    ids = list(teams)
    if len(ids) < 2 or len(set(ids)) != len(ids):
        raise ScheduleError("a cup needs two or more distinct teams")
    drawn = ids[:]
    random.Random(seed).shuffle(drawn)
    size = 1
    while size < len(drawn):
        size *= 2
    byes = size - len(drawn)
    playing, bye_teams = drawn[:len(drawn) - byes], drawn[len(drawn) - byes:]
    plans = [FixturePlan(1, playing[k], playing[k + 1]) for k in range(0, len(playing), 2)]
    return plans + [FixturePlan(1, team, None) for team in bye_teams]


def next_round(winners: Sequence[int], number: int) -> list[FixturePlan]:
    """Returns round ``number`` from the previous round's winners in tie order: 1 v 2, 3 v 4, ..."""
    if len(winners) < 2 or len(winners) % 2:
        raise ScheduleError("a cup round pairs an even number of winners")
    return [FixturePlan(number, winners[k], winners[k + 1]) for k in range(0, len(winners), 2)]


def cup_winner(boards: Sequence[tuple[Decimal, Decimal]], rule: str) -> str | None:
    """Returns "home" or "away", the side through, from the boards' points; None when a decider must be played.

    More game points win. Level: under ``board_elimination`` the bottom board is struck off, again and again,
    until one side leads (level on board 1 alone: the away team goes through, as the visitors); under
    ``decider`` None.
    """
    if rule not in TIE_RULES:
        raise ValueError(f"unknown tie rule {rule!r}")
    remaining = list(boards)
    while remaining:
        home = sum((b[0] for b in remaining), Decimal(0))
        away = sum((b[1] for b in remaining), Decimal(0))
        if home != away:
            return "home" if home > away else "away"
        if rule == DECIDER:
            return None
        remaining.pop()
    return "away"
