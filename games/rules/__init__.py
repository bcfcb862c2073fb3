"""The English-draughts rules engine: positions, moves, rule sets, games and perft.

Pure Python, no Django: ``from games.rules import Position, Move, RuleSet, Color, GameState``.
"""

from games.rules.counting import perft, perft_divide
from games.rules.errors import (
    AmbiguousMoveError,
    FENError,
    IllegalMoveError,
    MoveSyntaxError,
    PDNSyntaxError,
    RulesError,
)
from games.rules.game import GameState
from games.rules.moves import Move
from games.rules.position import INITIAL_FEN, Color, Position
from games.rules.rulesets import RuleSet

__all__ = [
    "AmbiguousMoveError",
    "Color",
    "FENError",
    "GameState",
    "INITIAL_FEN",
    "IllegalMoveError",
    "Move",
    "MoveSyntaxError",
    "PDNSyntaxError",
    "Position",
    "RuleSet",
    "RulesError",
    "perft",
    "perft_divide",
]
