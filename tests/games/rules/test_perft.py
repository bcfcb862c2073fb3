"""Perft: published counts from the start position, and the divide."""

from __future__ import annotations

import pytest

from games.rules import Position, RuleSet, perft
from games.rules.counting import perft_divide

# Published perft counts of English draughts from the start position (depths 1-9; depth 10 is
# 18391564, left to benchmarks/perft.py).
PUBLISHED = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680]


@pytest.mark.parametrize(("depth", "count"), list(enumerate(PUBLISHED, start=1)))
def test_perft_from_the_start_matches_published_counts(depth, count):
    assert perft(Position.initial(), depth) == count


def test_perft_depth_zero_is_one():
    assert perft(Position.initial(), 0) == 1


def test_standard_huff_perft_equals_standard():
    assert perft(Position.initial(), 6, RuleSet.STANDARD_HUFF) == 36768


def test_customary_perft_uses_the_generic_generator_and_counts_more():
    assert perft(Position.initial(), 4, RuleSet.CUSTOMARY) > 1469


def test_perft_divide_sums_to_perft():
    divide = perft_divide(Position.initial(), 5)
    assert list(divide) == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    assert sum(divide.values()) == 7361


def test_bulk_counting_agrees_with_making_every_move():
    # The generic walk makes every move; the fast path counts the last ply without making it.
    from games.rules.counting import _perft_generic

    for fen in ["B:W18,19,26,27,K30:BK10,14,15,K22", "W:W9,10,11,18,19,20,26,27:BK2,K13,14,K22,23"]:
        position = Position.from_fen(fen)
        for depth in (1, 2, 3, 4):
            assert perft(position, depth) == _perft_generic(position, depth, RuleSet.STANDARD)


def test_hashed_perft_agrees_with_plain_perft():
    from games.rules.counting import perft_hashed

    assert perft_hashed(Position.initial(), 8) == 845931
    position = Position.from_fen("B:W18,19,26,27,K30:BK10,14,15,K22")
    assert perft_hashed(position, 5) == perft(position, 5)
