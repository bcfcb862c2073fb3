"""The matching the Dutch pairing uses (``tournaments.pairing._blossom``), warm-started or not,
against networkx's ``max_weight_matching``: the same total weight on random graphs that change a
little between solves, as the pairing's graphs do (a few vertices' edges reweighted, edges
dropped, vertices leaving and coming), the solver comparing the graphs itself or told what changed."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from tournaments.pairing._blossom import WarmState, max_weight_matching


def _graph(vertices: list[int], edges: dict[tuple[int, int], int]) -> dict[int, dict[int, int]]:
    graph: dict[int, dict[int, int]] = {v: {} for v in vertices}
    for (a, b), x in edges.items():
        if a in graph and b in graph:
            graph[a][b] = graph[b][a] = x
    return graph


def _networkx_weight(graph: dict[int, dict[int, int]]) -> int:
    g = nx.Graph()
    g.add_nodes_from(graph)
    g.add_weighted_edges_from((a, b, x) for a, row in graph.items() for b, x in row.items() if a < b)
    return sum(graph[a][b] for a, b in nx.max_weight_matching(g))


def _weight(graph: dict[int, dict[int, int]], mate: dict[int, int]) -> int:
    for a, b in mate.items():
        assert mate[b] == a and b in graph[a]
    return sum(graph[a][b] for a, b in mate.items() if a < b)


def _update(kept: dict[int, dict[int, int]], graph: dict[int, dict[int, int]]) -> list[tuple[int, int]]:
    """Makes ``kept`` the same graph as ``graph`` in place; returns the edges that changed
    between vertices of both."""
    for v in [v for v in kept if v not in graph]:
        for k in kept.pop(v):
            del kept[k][v]
    both = set(kept)
    for v in graph:
        kept.setdefault(v, {})
    changed = []
    for v, row in graph.items():
        for k in set(row) | set(kept[v]):
            if k > v and row.get(k) != kept[v].get(k):
                if v in both and k in both:
                    changed.append((v, k))
                if k in row:
                    kept[v][k] = kept[k][v] = row[k]
                else:
                    del kept[v][k], kept[k][v]
    return changed


def _solved_three_ways(vertices, edges, state, told, kept):  # noqa: ANN001, ANN202
    """Checks that a cold solve, a warm start (``state``) and a warm start told the changed edges
    (``told``, its graph ``kept`` updated in place) all reach networkx's heaviest weight; returns ``kept``."""
    graph = _graph(vertices, edges)
    best = _networkx_weight(graph)
    assert _weight(graph, max_weight_matching(graph)) == best
    assert _weight(graph, max_weight_matching(graph, state=state)) == best
    if kept is None:
        kept = _graph(vertices, edges)
        assert _weight(graph, max_weight_matching(kept, state=told)) == best
    else:
        changed = _update(kept, graph)
        assert _weight(graph, max_weight_matching(kept, changed, state=told)) == best
    return kept


@pytest.mark.parametrize("seed", range(40))
def test_warm_started_matchings_are_maximum(seed):
    rng = random.Random(seed)
    n = rng.randint(2, 24)
    density = rng.random()
    top = rng.choice([10, 1000, 1 << 60])  # 10: many ties
    vertices = list(range(n))
    edges = {(a, b): rng.randint(1, top) for a in vertices for b in vertices if a < b and rng.random() < density}
    state, told = WarmState(), WarmState()  # told: given the changed edges, its graph updated in place
    kept: dict[int, dict[int, int]] | None = None
    new = n
    for _ in range(25):
        kept = _solved_three_ways(vertices, edges, state, told, kept)
        change = rng.random()
        for _ in range(rng.randint(1, 3)):
            if change < 0.6:  # one vertex's edges reweighted (some dropped)
                v = rng.choice(vertices)
                for u in vertices:
                    if u != v and rng.random() < 0.5:
                        key = (min(u, v), max(u, v))
                        if rng.random() < 0.2:
                            edges.pop(key, None)
                        else:
                            edges[key] = rng.randint(1, top)
            elif change < 0.8 and len(vertices) > 1:  # a vertex leaves
                vertices.remove(rng.choice(vertices))
            else:  # a vertex comes
                vertices.append(new)
                for u in vertices[:-1]:
                    if rng.random() < density:
                        edges[(u, new)] = rng.randint(1, top)
                new += 1


def test_an_empty_graph_has_an_empty_matching():
    state = WarmState()
    assert max_weight_matching({}, state=state) == {}
    assert max_weight_matching({0: {1: 5}, 1: {0: 5}}, state=state) == {0: 1, 1: 0}


@pytest.mark.parametrize("seed", range(30))
def test_matchings_after_most_of_the_graph_changed_are_maximum(seed):
    """The warm start when most vertices' edges changed (every blossom dissolved, each changed
    edge made feasible by raising its lower-numbered end) and the cold start (each dual lowered by
    half its least slack first), on graphs of many equal weights and of weights of hundreds of
    bits, as the Dutch pairing's are: most edges gain an amount that depends on their lower end
    (the remainder's exchange weights), or are drawn again."""
    rng = random.Random(seed)
    n = rng.randint(4, 30)
    big = 1 << rng.choice([3, 64, 200])
    vertices = list(range(n))
    edges = {
        (a, b): big + rng.randint(0, 3) * (big >> 2) + rng.randint(0, 2)
        for a in vertices
        for b in vertices
        if a < b and rng.random() < 0.8
    }
    state, told = WarmState(), WarmState()
    kept: dict[int, dict[int, int]] | None = None
    for _ in range(12):
        kept = _solved_three_ways(vertices, edges, state, told, kept)
        moved = set(rng.sample(vertices, k=rng.randint(len(vertices) // 2 + 1, len(vertices))))
        gain = {v: rng.choice([-2, 1, 2, big >> 1, big]) for v in vertices}
        for (a, b), x in list(edges.items()):
            if a in moved or b in moved:
                if rng.random() < 0.8:
                    edges[a, b] = max(1, x + gain[a])
                else:
                    edges[a, b] = big + rng.randint(0, 3) * (big >> 2)


def _leaves_walked(b):  # noqa: ANN001, ANN202
    """b's leaves in networkx's order, walked again (``Blossom.leaves`` keeps its list)."""
    out, stack = [], [*b.childs]
    while stack:
        t = stack.pop()
        if isinstance(t, int):
            out.append(t)
        else:
            stack.extend(t.childs)
    return out


@pytest.mark.parametrize("seed", range(20))
def test_matchings_through_many_blossoms_are_maximum(seed):
    """Graphs of small weights, whose solves make blossoms of blossoms: delta3 (half
    the least slack between two S-blossoms) taken from the heap of the edges the scans met, the
    edges a new blossom took inside dropped, with the duals doubled on an odd least slack; and
    the leaves that each blossom left keeps, after the augmentations that rotated it."""
    rng = random.Random(seed)
    n = rng.randint(30, 60)
    vertices = list(range(n))
    edges = {(a, b): rng.randint(1, 20) for a in vertices for b in vertices if a < b and rng.random() < 0.3}
    state, told = WarmState(), WarmState()
    kept: dict[int, dict[int, int]] | None = None
    blossoms = 0
    for _ in range(8):
        kept = _solved_three_ways(vertices, edges, state, told, kept)
        blossoms += len(state.blossomdual) + len(told.blossomdual)  # (those left with a positive dual)
        for b in (*state.blossomdual, *told.blossomdual):  # each known list of leaves is the walk's
            assert b.leaves() == _leaves_walked(b)
        for v in rng.sample(vertices, k=rng.randint(1, 4)):
            for u in vertices:
                if u != v and rng.random() < 0.3:
                    edges[(min(u, v), max(u, v))] = rng.randint(1, 20)
    assert blossoms


@pytest.mark.parametrize("seed", range(30))
def test_stages_that_go_on_after_an_augmentation_reach_a_maximum(seed):
    """Score-group-like graphs (a few equal weights of hundreds of bits, dense): the greedy start
    leaves many singles, and a stage makes several augmentations, each taking apart the two
    trees its path joined while the others grow on (``drop_trees``); every solve, cold or warm,
    weighs networkx's heaviest."""
    rng = random.Random(seed)
    n = rng.randint(20, 70)
    big = 1 << rng.choice([60, 200, 420])
    vertices = list(range(n))
    group = [rng.randrange(3) for _ in vertices]  # three score groups: equal weights within and between
    edges = {
        (a, b): big + (4 - abs(group[a] - group[b])) * rng.choice([1, 1, 1, 2])
        for a in vertices
        for b in vertices
        if a < b and rng.random() < 0.6
    }
    state, told = WarmState(), WarmState()
    kept: dict[int, dict[int, int]] | None = None
    for _ in range(4):
        kept = _solved_three_ways(vertices, edges, state, told, kept)
        for v in rng.sample(vertices, k=rng.randint(1, 3)):
            for u in vertices:
                if u != v and rng.random() < 0.5:
                    edges[(min(u, v), max(u, v))] = big + rng.randrange(6)
