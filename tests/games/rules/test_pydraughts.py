"""Cross-checks legal moves against pydraughts on positions reached by random play."""

from __future__ import annotations

import pytest

from games.rules import Position
from tests.games.rules.test_reference import random_game_positions

draughts = pytest.importorskip("draughts")


def test_legal_moves_match_pydraughts_along_random_games():
    positions = random_game_positions(seed=3, games=6)
    assert any(p.count("black", kings=True) for p in positions)
    for position in positions[::2]:
        board = draughts.Board(variant="english", fen=position.fen())
        theirs = {tuple(move.steps_move) for move in board.legal_moves()}
        ours = {move.path for move in position.legal_moves()}
        assert ours == theirs, position.fen()


def test_initial_position_matches_pydraughts():
    board = draughts.Board(variant="english")
    ours = Position.initial()
    assert {tuple(m.steps_move) for m in board.legal_moves()} == {m.path for m in ours.legal_moves()}
