"""Ratings: Glicko-2 against Glickman's published example; FIDE-style Elo."""

from __future__ import annotations

import pytest

from tournaments.ratings import GameScore, Glicko, elo_expected, elo_update, fide_k, glicko2_update


def test_glicko2_reproduces_glickmans_example():
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 v 1400/30 (won), 1550/100 (lost),
    1700/300 (lost) -> 1464.06 / 151.52 / 0.05999 (the paper rounds intermediate values)."""
    before = {1: Glicko(1500, 200, 0.06), 2: Glicko(1400, 30), 3: Glicko(1550, 100), 4: Glicko(1700, 300)}
    games = [GameScore(1, 2, 1), GameScore(3, 1, 1), GameScore(1, 4, 0)]
    after = glicko2_update(before, games)
    assert after[1].rating == pytest.approx(1464.06, abs=0.02)
    assert after[1].rd == pytest.approx(151.52, abs=0.01)
    assert after[1].vol == pytest.approx(0.05999, abs=1e-5)


def test_glicko2_idle_player_only_gains_deviation():
    after = glicko2_update({1: Glicko(1600, 100), 2: Glicko(), 3: Glicko()}, [GameScore(2, 3, 0.5)])
    assert after[1].rating == 1600 and after[1].rd > 100


def test_elo_win_between_equals_moves_k_over_two():
    after = elo_update({1: 1500, 2: 1500}, [GameScore(1, 2, 1)], k=20)
    assert after == {1: 1510, 2: 1490}


def test_elo_is_zero_sum_with_one_k_and_caps_the_difference_at_400():
    after = elo_update({1: 2400, 2: 1600, 3: 2000}, [GameScore(1, 2, 0.5), GameScore(3, 1, 0)], k=20)
    assert sum(after.values()) == pytest.approx(6000)
    assert elo_expected(2400, 1600) == elo_expected(2400, 2000)


def test_fide_k_factor():
    assert fide_k(1800, 10) == 40
    assert fide_k(1800, 100) == 20
    assert fide_k(2450, 100) == 10
    assert fide_k(2100, 100, age_under_18=True) == 40
    assert elo_update({1: 1500, 2: 1500}, [GameScore(1, 2, 0)], k={1: 40, 2: 20}) == {1: 1480, 2: 1510}
