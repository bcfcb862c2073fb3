"""The Dutch pairing's matcher (``tournaments.pairing.dutch._Matcher``) against networkx's
``max_weight_matching``: after each step of a pairing-like sequence (a new bracket's edges all
written again, a few players' edges given new weights, one player's edges small addends, the
pair he gets finalized), the matching it
returns, whether solved again or kept by ``_still_optimal`` or by the dual certificate
(``_certified``), weighs the heaviest matching of the players left."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from tournaments.pairing import dutch
from tournaments.pairing.dutch import _Matcher


def _heaviest(m: _Matcher) -> int:
    active = [v for v in range(m.n) if v not in m.fixed]
    g = nx.Graph()
    g.add_nodes_from(active)
    g.add_weighted_edges_from(
        (a, b, m.w[a][b]) for i, a in enumerate(active) for b in active[:i] if m.w[a][b]
    )
    return sum(m.w[a][b] for a, b in nx.max_weight_matching(g))


def _weight(m: _Matcher, mate: list[int]) -> int:
    total = 0
    for a in range(m.n):
        b = mate[a]
        assert mate[b] == a
        if a < b and a not in m.fixed:
            assert m.w[a][b], "a pair of the matching has no edge"
            total += m.w[a][b]
    return total


@pytest.mark.parametrize("seed", range(100))
def test_every_matching_kept_or_solved_is_a_maximum_one(seed, monkeypatch):
    rng = random.Random(seed)
    n = rng.randint(6, 26)
    big = 1 << rng.choice([12, 40, 190])  # every edge's top bits: the heaviest matchings are the largest
    spread = rng.choice([2, 2, 3, 8, 1000])  # 2, 3: many equal weights (blossoms), as in a score group
    half = [(big >> 1) + rng.randrange(spread) for _ in range(n)]
    barred = [[j for j in range(i) if rng.random() >= 0.85] for i in range(n)]  # whom each may not meet, below him
    m = _Matcher(n)
    m.set_plain(half, barred)
    assert all(not m.w[i][j] and not m.w[j][i] for i in range(n) for j in barred[i])
    assert all(m.w[i][j] == half[i] + half[j] for i in range(n) for j in range(i) if j not in barred[i])
    kept = [0]
    certified = _Matcher._certified

    def counted(self: _Matcher) -> bool:
        found = certified(self)
        kept[0] += found
        return found

    monkeypatch.setattr(dutch._Matcher, "_certified", counted)
    assert _weight(m, m.compute()) == _heaviest(m)
    bracket = rng.sample(range(n), k=rng.randint(2, n))  # the players whose edges the steps change
    for a in bracket:
        for b in bracket:
            if a < b and m.w[a][b]:
                m.set(a, b, big + rng.randrange(4 * spread))
    for _ in range(3 * n):
        active = [v for v in bracket if v not in m.fixed]
        if len(active) < 2:
            break
        pv = rng.choice(active)
        if rng.random() < 0.1:  # a new bracket: every edge among the players left written again
            rows = [[big + rng.randrange(4 * spread) if m.w[a][b] else 0 for b in active[:i]] for i, a in enumerate(active)]
            m.set_rows(active, rows, 0)
        elif rng.random() < 0.15:  # a rewrite of several players' edges
            for a in rng.sample(active, k=min(3, len(active))):
                for b in active:
                    if a != b and m.w[a][b]:
                        m.set(a, b, big + rng.randrange(4 * spread))
        else:  # small addends to one player's edges, as the finalizing of the remainder gives
            for b in active:
                if b != pv and m.w[pv][b]:
                    m.set(pv, b, m.w[pv][b] + rng.randrange(3))
        mate = m.compute()
        assert _weight(m, mate) == _heaviest(m)
        if mate[pv] != pv and rng.random() < 0.7:
            m.finalize(pv, mate[pv], 4 * big)
            assert _weight(m, m.compute()) == _heaviest(m)
    if seed == 0:
        assert kept[0], "the certificate was never used"


def test_settling_a_remainder_player_by_player_keeps_every_matching_a_maximum_one(monkeypatch):
    """The remainder's settling as the pairing does it (S1 against S2 only, each S1 player's edges given
    addends by his opponents' order, the matching computed, his pair fixed), on graphs of few distinct
    weights (blossoms, as in a score group): every matching weighs the heaviest, and most of the steps
    that move the matching are proven by an exchange of four or six players instead of a solve
    (``_Matcher._certified_at``)."""
    moved = solved = steps_solved = 0
    certified = _Matcher._certified

    def counted(self: _Matcher) -> bool:
        nonlocal moved
        before = list(self.mate)
        found = certified(self)
        moved += found and self.mate != before
        return found

    solve = dutch.max_weight_matching

    def counted_solve(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        nonlocal solved
        solved += 1
        return solve(*args, **kwargs)

    monkeypatch.setattr(dutch._Matcher, "_certified", counted)
    monkeypatch.setattr(dutch, "max_weight_matching", counted_solve)
    for seed in range(60):
        rng = random.Random(seed)
        n = rng.randint(12, 40)
        big, low = 1 << 60, 8  # the pairs' count on top; the lowest bits free for the addends
        spread = rng.choice([1, 2, 3])
        half = [(big >> 1) + (rng.randrange(spread) << low) for _ in range(n)]
        m = _Matcher(n)
        m.set_plain(half, [[j for j in range(i) if rng.random() >= 0.9] for i in range(n)])
        m.compute()
        bracket = sorted(rng.sample(range(n), k=2 * rng.randint(3, n // 2)))
        s1, s2 = bracket[: len(bracket) // 2], bracket[len(bracket) // 2 :]
        for a in bracket:  # S1 against S2 only, heavier than their edges outside the bracket
            for b in bracket:
                if a < b:
                    m.set(a, b, big + (big >> 2) + (rng.randrange(spread) << low) if (a in s1) != (b in s1) else 0)
        assert _weight(m, m.compute()) == _heaviest(m)
        for pv in s1:
            if pv in m.fixed:
                continue
            addend = 0
            for ov in reversed(s2):
                if ov in m.fixed:
                    continue
                if m.w[pv][ov]:
                    m.set(pv, ov, m.w[pv][ov] + addend)
                addend += 1
            before = solved
            mate = m.compute()
            steps_solved += solved > before
            assert _weight(m, mate) == _heaviest(m), seed
            if mate[pv] != pv and rng.random() < 0.8:  # (else he stays, his addends with him)
                m.finalize(pv, mate[pv], 4 * big)
    assert moved > 40, (moved, steps_solved)  # (64 against 154 solves when written)


@pytest.mark.parametrize("seed", range(20))
def test_a_row_written_records_each_change_once_for_the_matching_and_the_kept_graphs(seed):
    """``set_row(a, edges)`` writes each weight at both ends and records, edge by edge in its order: the
    weight before the edge's first change (``changed``, in the order of first changes), the edge for the
    kept graphs (``a * n + b``, ``a < b``), and two players no longer plain when the new weight is neither
    0 nor the sum of their halves; a write that changes nothing records nothing."""
    rng = random.Random(seed)
    n = rng.randint(4, 30)
    half = [(1 << 40) + rng.randrange(3) for _ in range(n)]
    m = _Matcher(n)
    m.set_plain(half, [[j for j in range(i) if rng.random() >= 0.8] for i in range(n)])
    m.compute()  # (after a matching the writes are recorded)
    m.pending, m.whole_pending, m.changed = set(), set(), {}
    w = [list(row) for row in m.w]  # the model, written as the docstring says
    changed, pending, plain, plain_changes = {}, set(), list(m.plain), m.plain_changes
    for _ in range(10):
        a = rng.randrange(n)
        others = rng.sample([b for b in range(n) if b != a], k=rng.randint(0, n - 1))
        edges = [(b, rng.choice([0, w[a][b], half[a] + half[b], (1 << 41) + rng.randrange(5)])) for b in others]
        m.set_row(a, edges)
        for b, weight in edges:
            if w[a][b] == weight:
                continue
            key = (min(a, b), max(a, b))
            changed.setdefault(key, w[a][b])
            pending.add(key[0] * n + key[1])
            w[a][b] = w[b][a] = weight
            if weight and weight != half[a] + half[b] and (plain[a] or plain[b]):
                plain[a] = plain[b] = False
                plain_changes += 1
        assert m.w == w
        assert list(m.changed.items()) == list(changed.items())
        assert m.pending == pending and m.whole_pending == pending
        assert m.plain == plain and m.plain_changes == plain_changes
    assert changed and not all(plain), "the steps changed nothing"
