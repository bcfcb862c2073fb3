"""Round robin against the FIDE Berger tables (FIDE Handbook C.05, Annex 1), typed in by hand."""

from __future__ import annotations

import itertools

import pytest

from tournaments.pairing import PairingError, berger_table, round_robin

FIDE_4 = [
    [(1, 4), (2, 3)],
    [(4, 3), (1, 2)],
    [(2, 4), (3, 1)],
]
FIDE_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
FIDE_8 = [
    [(1, 8), (2, 7), (3, 6), (4, 5)],
    [(8, 5), (6, 4), (7, 3), (1, 2)],
    [(2, 8), (3, 1), (4, 7), (5, 6)],
    [(8, 6), (7, 5), (1, 4), (2, 3)],
    [(3, 8), (4, 2), (5, 1), (6, 7)],
    [(8, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 8), (5, 3), (6, 2), (7, 1)],
]


@pytest.mark.parametrize(("n", "published"), [(4, FIDE_4), (6, FIDE_6), (8, FIDE_8)])
def test_berger_table_matches_the_fide_table(n, published):
    table = berger_table(n)
    assert [set(r) for r in table] == [set(r) for r in published]


@pytest.mark.parametrize("n", [2, 4, 6, 8, 10, 12, 14, 16, 20])
def test_every_pair_meets_once_and_colours_balance(n):
    table = berger_table(n)
    pairs = [frozenset(p) for r in table for p in r]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    for r in table:
        assert sorted(itertools.chain.from_iterable(r)) == list(range(1, n + 1))
    firsts = {i: sum(1 for r in table for a, _ in r if a == i) for i in range(1, n + 1)}
    assert all(abs(2 * f - (n - 1)) <= 1 for f in firsts.values())


def test_round_robin_maps_seeds_to_players_and_first_named_has_black():
    rounds = round_robin([101, 102, 103, 104])
    assert [(p.black, p.white) for p in rounds[0]] == [(101, 104), (102, 103)]
    assert [(p.black, p.white) for p in rounds[1]] == [(104, 103), (101, 102)]


def test_double_round_robin_reverses_colours_in_the_second_cycle():
    rounds = round_robin([1, 2, 3, 4], double=True)
    assert len(rounds) == 6
    for first, second in zip(rounds[:3], rounds[3:], strict=True):
        assert [(p.white, p.black) for p in first] == [(p.black, p.white) for p in second]
        assert all("second cycle" in p.reason for p in second)


def test_odd_round_robin_gives_each_player_one_bye():
    rounds = round_robin([1, 2, 3, 4, 5])
    assert len(rounds) == 5
    byes = [p.black for r in rounds for p in r if p.is_bye]
    assert sorted(byes) == [1, 2, 3, 4, 5]
    assert all(sum(p.is_bye for p in r) == 1 for r in rounds)


def test_round_robin_refuses_too_few_or_duplicate_players():
    with pytest.raises(PairingError):
        round_robin([1])
    with pytest.raises(PairingError):
        round_robin([1, 1, 2])
