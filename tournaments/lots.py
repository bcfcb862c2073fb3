"""Lots for colour and the plan of a match's games (Laws 6 and 26), reproducible from a seed."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from games.rules import INITIAL_FEN
from tournaments.ballots import Ballot


def new_seed() -> int:
    """Returns a fresh seed to record before lots are cast or ballots drawn."""
    return secrets.randbits(63)


@dataclass(frozen=True, slots=True)
class Lots:
    """The recorded outcome of lots cast for colour: who has Black (the first move) in game 1."""

    seed: int
    black_first: int
    white_first: int


def cast_lots(a: int, b: int, seed: int) -> Lots:
    """Casts lots between ``a`` and ``b`` once, at the start of the match (Law 6).

    ``random.Random(seed).random() < 0.5`` gives ``a`` Black in the first game; the same
    seed and the same order of players always give the same outcome.
    """
    if a == b:
        raise ValueError("a player cannot play himself")
    a_black = random.Random(seed).random() < 0.5
    return Lots(seed, a if a_black else b, b if a_black else a)


@dataclass(frozen=True, slots=True)
class GamePlan:
    """One game of a match: its number (from 1), colours, the ballot and the starting position."""

    number: int
    black: int
    white: int
    start_fen: str
    ballot: Ballot | None = None


def plan_match(lots: Lots, *, games: int = 2, ballots: Sequence[Ballot] | None = None) -> list[GamePlan]:
    """Returns the games of a match: colours alternate from the lots (Laws 6, 26).

    A match is an even number of games so each player has the first move equally often (a
    round of one game, 1, takes its colour from the round's rule). With a ballot, ``ballots``
    holds ``games // 2`` openings (one for a single game): each is played twice in a row with
    colours reversed, from the position it makes. Without ballots (go-as-you-please) every
    game starts from the initial position.
    """
    if games != 1 and (games < 2 or games % 2):
        raise ValueError(f"a match is one game or an even number of games, got {games}")
    if ballots is not None and len(ballots) != max(games // 2, 1):
        raise ValueError(f"{games} games need {max(games // 2, 1)} ballots, got {len(ballots)}")
    plan = []
    for k in range(games):
        black, white = (
            (lots.black_first, lots.white_first) if k % 2 == 0 else (lots.white_first, lots.black_first)
        )
        drawn = ballots[k // 2] if ballots is not None else None
        plan.append(GamePlan(k + 1, black, white, drawn.fen if drawn else INITIAL_FEN, drawn))
    return plan
