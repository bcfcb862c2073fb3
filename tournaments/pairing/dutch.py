"""The FIDE Dutch system (C.04.3, the 2025 rules), as the endorsed reference bbpPairings pairs it.

The round is one maximum-weight matching over all the players to pair, refined bracket by
bracket from the top score group down. Each possible pair has a weight, a single integer whose
bit fields, from the highest down, hold the criteria in their order of precedence, so that a
heavier matching is always a better pairing under the rules:

1. absolute criteria (C1-C3): a pair that has met, or two players with the same absolute colour
   preference (except in the last round for players above half the possible points), has no
   edge at all; everybody but at most one player paired, and the player left out (the
   pairing-allocated bye) must be eligible (C2: no earlier bye, no forfeit win, no full-point
   bye);
2. completion (C4): the pairing of the current bracket must leave the rest pairable (the
   lower score groups keep their edges in the same matching);
3. C6-C7: the most pairs in the current bracket, and the highest scores paired in it (so the
   fewest and lowest downfloaters); the same for the next bracket (the limbo);
4. C9: the bye goes to a player with the fewest unplayed games among its score group;
5. colours (C10-C13): no absolute colour imbalance, no absolute colour preference violated,
   colour preferences satisfied, strong preferences satisfied;
6. floats (C14-C21): no repeated downfloat or upfloat from the previous round, then from two
   rounds before, then the lowest scores of repeated floaters;
7. the ordering rules of section B: in a heterogeneous bracket the moved-down players meet the
   highest residents that the criteria allow, and in the remainder S1 meets S2 with the fewest
   exchanges, the smallest differences of exchanged pairing numbers, then top against top.

The bracket is settled first (which MDPs are paired, then their opponents, then the remainder
pair by pair); each settled pair is fixed in the matching (its edge made heaviest, the others of
its players removed) and the next score group becomes the bracket. Colours follow section E.

Weights and the order of the steps follow bbpPairings' ``dutch.cpp`` (Apache-2.0) closely,
because the goal is its pairings; the code is our own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import compress, takewhile
from operator import ne

from tournaments.pairing._blossom import Blossom, WarmState, max_weight_matching
from tournaments.pairing.trf import BLACK, WHITE, PointSystem, TrfRound, TrfTournament
from tournaments.pairing.types import PairingError

FLOAT_DOWN, FLOAT_UP, FLOAT_NONE = 0, 1, 2
_SINK, _PENDANT = -1, -2  # the extra vertices of ``_Matcher._reduced``'s graph


def _invert(colour: str | None) -> str | None:
    return WHITE if colour == BLACK else BLACK if colour == WHITE else None


@dataclass(slots=True)
class DutchPlayer:
    """A player as the Dutch system sees him before the round (scores in tenths of a point)."""

    number: int  # pairing number in the file
    rank: int  # effective pairing number, from 0, among the players of the tournament
    score: int
    rounds: tuple[TrfRound, ...]
    bye_eligible: bool = True
    played_games: int = 0
    imbalance: int = 0
    preference: str | None = None
    repeated: str | None = None  # the colour of the last two played games, if the same
    strong: bool = False
    virtual: tuple[int, ...] = ()  # acceleration: the virtual points before each round (index 0: round 1)

    def virtual_before(self, k: int) -> int:
        """Returns the virtual points (acceleration) the player had when round ``k + 1`` was paired."""
        return self.virtual[k] if 0 <= k < len(self.virtual) else 0

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1

    @property
    def absolute_preference(self) -> bool:
        return self.imbalance > 1 or self.repeated is not None


@dataclass(frozen=True, slots=True)
class DutchPair:
    """A pair of the round: ``white`` (the file's ``w``, who moves first) against ``black``;
    ``black`` is None for the pairing-allocated bye."""

    white: int
    black: int | None


def _colour_data(p: DutchPlayer) -> None:
    whites = blacks = consecutive = 0
    last = None
    for r in p.rounds:
        if not r.played:
            continue
        p.played_games += 1
        if r.colour is None:  # a match of two games, colours reversed: both colours, no preference
            continue
        if r.colour == WHITE:
            whites += 1
        else:
            blacks += 1
        consecutive = consecutive + 1 if consecutive and r.colour == last else 1
        last = r.colour
    lower = BLACK if whites > blacks else WHITE
    p.imbalance = abs(whites - blacks)
    if p.imbalance > 1:
        p.preference = lower
    elif consecutive > 1:
        p.preference = _invert(last)
    elif p.imbalance > 0:
        p.preference = lower
    elif consecutive:
        p.preference = _invert(last)
    p.repeated = last if consecutive > 1 else None
    p.strong = not p.absolute_preference and p.imbalance > 0


def _bye_eligible(p: DutchPlayer, system: PointSystem) -> bool:
    return not any(not r.played and (r.points(system) >= system.win or r.is_pairing_bye) for r in p.rounds)


def _attach_sink(graph: dict[int, dict[int, int]], upper: list[int], half: dict[int, int], top: int,
                 spare: int) -> None:
    """Gives ``_Matcher._reduced``'s graph its sink (an edge to every player of it, which takes the bye of an
    odd count) and, through the pendant, its edge to ``spare``: the plain player with the least half."""
    graph[_SINK] = {a: top - half[a] for a in upper}
    for a in upper:
        graph[a][_SINK] = top - half[a]
    graph[_SINK][_PENDANT] = top - half[spare]
    graph[_PENDANT] = {_SINK: top - half[spare]}


def _apply_pending(
    graph: dict[int, dict[int, int]],
    pending: set[int],
    n: int,
    w: list[list[int]],
    members: set[int],
    half: list[int] | None,
    one: Callable[[int, int], int] | None,
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Writes into ``graph`` the edges set since it was solved (``pending``: each edge ``a``-``b``,
    ``a < b``, as the number ``a * n + b``) between two of ``members``, each weighing
    ``w[a][b] - half[a] - half[b]`` (``w[a][b]`` with no ``half``; no edge if not positive; ``one``
    keeps each such weight once), and empties ``pending``. Returns the edges that changed and, apart,
    those that only got lighter or went (``max_weight_matching``'s ``changed`` and ``lowered``): the
    reduced graph's and the whole one's.
    """
    changed: list[tuple[int, int]] = []
    lowered: list[tuple[int, int]] = []
    # (in the order of the rows: the set's own order jumps about the table of weights and the
    # graph's rows, missing the memory caches; this way a quarter to a third faster. The edges are
    # numbers, not pairs, because numbers sort several times faster than pairs, in the same order.)
    last = None
    for key in sorted(pending):
        a = key // n
        if a != last:  # (a row's lookups once)
            last, row, to_a, keep = a, w[a], graph.get(a), a in members
            half_a = half[a] if half is not None else None
            base = a * n
        if keep:
            b = key - base
            if b not in members:
                continue
            e = row[b]
            if e and half_a is not None:
                e -= half_a + half[b]
                if e > 0:
                    e = one(e, e)
            weight = e if e > 0 else None
            old = to_a.get(b)
            if old != weight:
                if weight is None:
                    del to_a[b], graph[b][a]
                    lowered.append((a, b))
                else:
                    to_a[b] = graph[b][a] = weight
                    (changed if old is None or weight > old else lowered).append((a, b))
    pending.clear()
    return changed, lowered


class _Matcher:
    """A complete graph with integer weights (0: no edge) and its maximum-weight matching.

    A finalized pair is taken out of the graph (``finalize``: every later matching is computed
    on the players not fixed and holds the fixed pairs): later matchings are smaller. And the
    matching is not computed again when the weights changed since the last one cannot have
    made another matching heavier (``_still_optimal``): the pairing asks for a matching after
    every small step, and most steps confirm the one it has.

    The players below the bracket (``_reduced``): after ``set_plain`` every edge weighs
    ``half[a] + half[b]`` (0 between players who may not meet); a player stays "plain" while
    each of his edges weighs the sum of its halves or 0, which the brackets change only for
    their own players and the next score group. When that group is the last one, new halves
    make it plain (``set_halves``, which checks every edge of it). The matching is computed on
    the players who are not plain, and the plain ones are paired afterwards by a simple search;
    ``_reduced`` says why that is exact.

    Each matching starts from the last one on the same graph (``warm_reduced``, ``warm_whole``:
    ``_blossom.WarmState``): only the players whose edges changed since are unmatched, and the
    blossom method re-pairs them, instead of solving the whole graph again. The reduced graph
    itself is kept and updated from the edges set since (``pending``), and the matching is
    told which of its edges changed (``_reduced_graph``); so is the whole graph (``whole_pending``,
    ``_whole_graph``).
    """

    def __init__(self, n: int):
        self.n = n
        self.w = [[0] * n for _ in range(n)]
        self.mate = list(range(n))
        self.fixed: dict[int, int] = {}
        self.changed: dict[tuple[int, int], int] = {}
        self.computed = False
        self.afresh = False  # the weights were written again since the last matching (``set_rows``)
        self.half: list[int] | None = None
        self.plain = [False] * n
        self.plain_changes = 0  # counts the changes of ``plain`` (``_certified`` keeps the non-plain players)
        self.upper_key, self.upper_all = -1, []
        self.warm_reduced = WarmState()  # the last solutions, where the next matchings start
        self.warm_whole = WarmState()
        self.reduced_graph: dict[int, dict[int, int]] | None = None  # the last one solved
        # the edges set since (``a * n + b`` for ``a``-``b``, ``a < b``: ``_apply_pending``; None: the halves changed)
        self.pending: set[int] | None = None
        self.whole_graph: dict[int, dict[int, int]] | None = None  # the last whole graph solved
        self.whole_pending: set[int] | None = None  # the edges set since, as ``pending`` (None: rewritten)
        # whether the reduced graph's warm state (its duals changed by ``cert_dual``) proves the
        # matching a maximum one of the graph as it was at the last matching (``_certified``)
        self.proven = False
        self.reduced_upper: list[int] = []  # the players of the reduced graph last solved, and the plain ones
        self.reduced_lower: list[int] = []
        self.cert_dual: dict[int, int] = {}  # the duals ``_certified`` changed since the last solve
        self.blossom_sums: dict[int, dict] = {}  # ``_certified_at``'s sums of blossom duals, until the next solve
        self.interned: dict[int, int] = {}  # each weight of the reduced graphs, once

    def set(self, a: int, b: int, weight: int) -> None:
        """Gives the edge ``a``-``b`` the weight ``weight`` (``set_row`` with one edge)."""
        self.set_row(a, ((b, weight),))

    def set_row(self, a: int, edges: Iterable[tuple[int, int]]) -> None:
        """Gives each edge ``a``-``b`` of ``edges`` (pairs ``(b, weight)``, in their order) its weight, and
        records what changed: the edge's weight before its first change since the last matching
        (``changed``), the edge for each kept graph (``pending``, ``whole_pending``), and its two players
        no longer plain when the new weight is neither 0 nor the sum of their halves. A write that
        changes nothing records nothing (a plain player's edges are already plain or 0: ``set_halves``).
        One call for a player's row (the remainder's weights, a few hundred thousand edges a round of
        1,000 players), its lookups made once."""
        n, w, changed, pending, whole = self.n, self.w, self.changed, self.pending, self.whole_pending
        half, plain = self.half, self.plain
        row = w[a]
        half_a = half[a] if half is not None else None
        for b, weight in edges:
            old = row[b]
            if old == weight:
                continue
            if a < b:
                key, number = (a, b), a * n + b
            else:
                key, number = (b, a), b * n + a
            if key not in changed:
                changed[key] = old
            if pending is not None:
                pending.add(number)
            if whole is not None:
                whole.add(number)
            row[b] = weight
            w[b][a] = weight
            if weight and half_a is not None and weight != half_a + half[b] and (plain[a] or plain[b]):
                plain[a] = plain[b] = False
                self.plain_changes += 1

    def set_rows(self, vertices: list[int], rows: list[list[int]], begin: int) -> None:
        """Writes each edge ``vertices[i]``-``vertices[j]`` as ``rows[i][j]``, for ``j < i`` and ``i >= begin``:
        a bracket's weights, all written again before its first matching, which starts afresh.

        Nothing of it is recorded (``changed``, ``pending``): the next matching is computed from
        nothing (``afresh``), on a reduced graph built again. The warm start kept hardly a pair of
        the last solution (round 3 of 1,000 players: 1 of 277) and its duals, raised to make the
        new edges feasible, left the solve more stages than a cold start's (the first matchings of
        the brackets of rounds 2-5: 0.4-1.3 s, a third less cold); and recording the rewrite, some
        600,000 edges a round of 1,000 players, cost more than building the graph again.
        """
        w, half, plain = self.w, self.half, self.plain
        for i in range(begin, len(vertices)):
            a, weights = vertices[i], rows[i]
            row = w[a]
            for j in range(i):
                b, weight = vertices[j], weights[j]
                if row[b] == weight:
                    continue
                row[b] = w[b][a] = weight
                if weight and half is not None and weight != half[a] + half[b]:
                    plain[a] = plain[b] = False
        self.plain_changes += 1
        self.afresh = True
        self.pending = self.whole_pending = None
        self.warm_reduced.graph = self.warm_whole.graph = None

    def set_plain(self, half: list[int], barred: list[list[int]]) -> None:
        """Gives every edge its plain weight: ``half[a] + half[b]``, 0 if ``a`` and ``b`` may not meet
        (``barred[a]``: the players ``b < a`` whom ``a`` may not meet, ascending)."""
        self.half = half
        w, changed, n = self.w, self.changed, self.n
        # (few players' halves differ: each sum is made once and shared by the cells that hold it,
        # a few hundred integers where there were a million, 80 MB at 1,000 players, which every
        # later read of the table fetched from memory)
        kinds: dict[int, int] = {}
        kind = [kinds.setdefault(h, len(kinds)) for h in half]
        sums = [[x + y for y in kinds] for x in kinds]
        # (each row made by map() from the sums, which shares them, then the few pairs that may not meet
        # set to 0: a row of 1,000 in one call where a comprehension tested every cell)
        if not self.computed:  # nothing to record: the first matching compares with none
            above: list[list[int]] = [[] for _ in range(n)]  # above[a]: the players b > a whom a may not meet
            for b, lower in enumerate(barred):
                for a in lower:
                    above[a].append(b)
            for a in range(n):
                row = w[a] = list(map(sums[kind[a]].__getitem__, kind))
                row[a] = 0
                for b in barred[a]:
                    row[b] = 0
                for b in above[a]:
                    row[b] = 0
            self.plain = [True] * n
            self.plain_changes += 1
            self.pending = self.whole_pending = None
            return
        for a in range(n):
            row = w[a]
            new = list(map(sums[kind[a]].__getitem__, kind[:a]))
            for b in barred[a]:
                new[b] = 0
            for b in compress(range(a), map(ne, new, row)):  # (the cells that change, found by map())
                weight = new[b]
                # what ``set`` records (the pending edges and the plain flags are reset below)
                if (b, a) not in changed:
                    changed[b, a] = row[b]
                row[b] = w[b][a] = weight
        self.plain = [True] * n
        self.plain_changes += 1
        self.pending = self.whole_pending = None

    def set_halves(self, half: list[int], group: list[int]) -> None:
        """Takes new halves; the players of ``group`` whose every edge weighs 0 or the sum of
        its two halves (each is checked) become plain, every other player is not."""
        self.half = half
        self.plain = [False] * self.n
        self.plain_changes += 1
        self.pending = None
        w = self.w
        active = [v for v in range(self.n) if v not in self.fixed]
        for a in group:
            row, half_a = w[a], half[a]
            self.plain[a] = all(not row[b] or row[b] == half_a + half[b] for b in active if b != a)

    def _still_optimal(self) -> bool:
        """Says whether the last matching M is still a maximum one after the weight changes.

        True when no edge of M got lighter and no edge outside M got heavier (then a matching
        gains at most what M gains); or when that holds for every edge but those of one vertex
        v, and v's edge in M (none: 0) gained at least as much as any other edge of v, and did
        not lose (then a matching gains at v at most what M gains there).
        """
        mate, w = self.mate, self.w
        hubs = None  # the vertices common to every wrong edge so far (none: no wrong edge)
        for (a, b), old in self.changed.items():
            new = w[a][b]
            if new != old and (new > old) != (mate[a] == b):
                if hubs is None:
                    hubs = {a, b}
                else:
                    hubs &= {a, b}
                    if not hubs:
                        return False
        if hubs is None:
            return True
        deltas = [
            (a, b, w[a][b] - old) for (a, b), old in self.changed.items() if (a in hubs or b in hubs) and w[a][b] != old
        ]
        for v in hubs:
            at_v = [(a, b, d) for a, b, d in deltas if v in (a, b)]
            at_mate = next((d for a, b, d in at_v if mate[v] in (a, b) and mate[v] != v), 0)
            if at_mate >= 0 and all(d <= at_mate for _, _, d in at_v):
                return True
        return False

    def _certified(self) -> bool:
        """Says whether the last matching is still a maximum one, by a dual solution that proves it.

        The last solve of the reduced graph (``_reduced``) left an optimal dual solution of it
        (``_blossom.WarmState``: a dual for each vertex and each blossom, every edge's slack at
        least 0, the matched ones tight, every single vertex's dual 0). Since, some pairs matched
        to each other may have left (finalized) and some edges changed. The duals of the vertices
        and blossoms that stay still bound every matching of what is left (a pair leaving a
        blossom, or one of its players and the base's mate leaving, keeps the slack of each of
        its edges and the matching's edges inside it, so its term of the bound still holds and
        is met). Then a cover of the edges changed since the last matching: each of its vertices
        (none matched to another) takes the dual that keeps its matched edge tight (0 if single,
        ``dual``, which holds the duals so changed since the solve); if every edge of those
        vertices keeps a slack of at least 0, the duals prove the matching a maximum one of the
        graph as it is now, and the plain players' pairs stand as they were (``_reduced``).

        The finalizing of the remainder's pairs changes the edges of one player at a time by
        small addends, which most often leave him the opponent he has: the solve is skipped, and
        the next one starts from the last solution with all the changes since (``pending``: the
        reduced graph and the warm state stay as the last solve left them). Round 3 of 1,000
        players: 301 of the round's 510 matchings kept so.
        """
        graph, state = self.reduced_graph, self.warm_reduced
        if not self.proven or self.pending is None or graph is None or state.graph is not graph:
            return False
        w, half, mate, fixed, plain = self.w, self.half, self.mate, self.fixed, self.plain
        if self.upper_key != self.plain_changes:
            self.upper_key, self.upper_all = self.plain_changes, [v for v in range(self.n) if not plain[v]]
        upper = [v for v in self.upper_all if v not in fixed]
        members = set(upper)
        if len(upper) + len(self.reduced_lower) != self.n - len(fixed) or not members.issubset(self.reduced_upper):
            return False  # a player stopped being plain (or became plain): the graph is another one
        smate = state.mate
        for v in self.reduced_upper:
            if v not in members:  # gone: it must leave with its mate
                m = smate.get(v)
                if m is None or m < 0 or m in members:
                    return False
        edges = []  # the edges between players of the graph whose reduced weight changed
        for (a, b), old in self.changed.items():
            e = w[a][b]
            if e == old or a in fixed or b in fixed:
                continue
            if not e and mate[a] == b:  # (a pair of the plain players' search, or a single's)
                return False
            if a in members and b in members:
                if e:
                    e -= half[a] + half[b]
                if old:
                    old -= half[a] + half[b]
                # heavier and now an edge (else the duals still hold it); lighter: only if matched (an
                # unmatched edge's slack only grows)
                if (e > old and e > 0) or (e < old and smate.get(a) == b):
                    edges.append((a, b))
                    if len(edges) > 8 * self.n:  # more than a few players' rows: a rewrite, which the solve is for
                        return False
        if not edges:
            return True
        # the vertices that take new duals: a cover of those edges, by the ends that hold most of them
        ends = Counter(v for edge in edges for v in edge)
        cover = set()
        for a, b in edges:
            if a not in cover and b not in cover:
                cover.add(a if ends[a] >= ends[b] else b)
        dualvar, blossomdual, blossomparent = state.dualvar, state.blossomdual, state.blossomparent
        inblossom, scale, dual = state.inblossom, state.scale, self.cert_dual

        def twice_z(v: int) -> dict[int, int]:
            """Twice the duals of the blossoms that hold both ``v`` and each other vertex of its
            top-level blossom (the others: 0), down the blossom tree along ``v``'s branch."""
            path = []
            b = blossomparent[v]
            while b is not None:
                path.append(b)
                b = blossomparent[b]
            out: dict[int, int] = {}
            z = 0
            for i in range(len(path) - 1, -1, -1):
                b = path[i]
                z += 2 * blossomdual[b]
                below = path[i - 1] if i else v
                for c in b.childs:
                    if c is below:
                        continue
                    if c.__class__ is Blossom:
                        for u in c.leaves():
                            out[u] = z
                    else:
                        out[c] = z
            return out

        around = {}
        for v in cover:
            m = smate.get(v)
            around[v] = z = twice_z(v) if inblossom[v] != v else {}
            if m is None:
                dual[v] = 0
            elif m in cover:
                return False
            else:
                e = graph[v][m] if m < 0 else w[v][m] - half[v] - half[m]
                d = scale * e - dual.get(m, dualvar[m]) - z.get(m, 0)
                if d < 0:
                    return False
                dual[v] = d
        if len(cover) == 1:
            return self._certified_at(next(iter(cover)), upper, members, around)
        for v in cover:  # every edge of v, with its weight now
            dv, z, row, half_v = dual[v], around[v], w[v], half[v]
            sink = graph[v].get(_SINK)
            if sink is not None and dv + dual.get(_SINK, dualvar[_SINK]) + z.get(_SINK, 0) < scale * sink:
                return False
            for u in upper:
                e = row[u]
                if e and u != v:
                    e -= half_v + half[u]
                    if e > 0 and dv + dual.get(u, dualvar[u]) + z.get(u, 0) < scale * e:
                        return False
        return True

    def _certified_at(self, v: int, upper: list[int], members: set[int], around: dict[int, dict[int, int]]) -> bool:
        """``_certified`` when the edges changed are all ``v``'s: the matching as it is, or with one exchange.

        ``v``'s dual must be at least ``need(u)`` for each edge ``v``-``u`` (what makes it feasible);
        if the greatest is the one of ``v``'s mate ``m``, the matching stands (``dual[v]``, as
        ``_certified`` set it). If it is another vertex's, ``c``, taking ``c`` as ``v``'s opponent
        and pairing ``m`` with ``c``'s mate ``d`` may still be a maximum matching: it is when the
        edge ``m``-``d`` is tight (its slack 0 with the duals as they are) and every blossom with a
        dual holds as many pairs as before; then ``v``'s dual ``need(c)`` proves it (every edge of
        ``v`` feasible, the new pairs tight, nothing else changed); likewise an exchange of six
        (``d``-``x`` and ``y``-``m`` tight, ``x``-``y`` a pair). The settling of a remainder,
        which raises ``v``'s edges by small addends for the best opponent the criteria leave him,
        changes four players' pairs so in most of its steps (round 8 of 1,000 players: 286 of the
        332 steps that changed the matching), and the solve, which took the blossoms around those
        players apart and built them again, is skipped. The blossoms around the players moved no longer
        follow the matching: they are marked stale (``WarmState.stale``) for the next solve.
        """
        graph, state = self.reduced_graph, self.warm_reduced
        w, half, dual = self.w, self.half, self.cert_dual
        dualvar, blossomdual, blossomparent, inblossom = state.dualvar, state.blossomdual, state.blossomparent, state.inblossom
        scale, smate = state.scale, state.mate
        z, row, half_v = around[v], w[v], half[v]
        best = dual[v]
        picks: list[int] = []  # the ends of v's edges that need the most, if more than its mate's
        sink = graph[v].get(_SINK)
        if sink is not None:
            need = scale * sink - dual.get(_SINK, dualvar[_SINK]) - z.get(_SINK, 0)
            if need > best:
                best, picks = need, [_SINK]
        for u in upper:
            e = row[u]
            if e and u != v:
                e -= half_v + half[u]
                if e > 0:
                    need = scale * e - dual.get(u, dualvar[u]) - z.get(u, 0)
                    if need > best:
                        best, picks = need, [u]
                    elif need == best and picks:
                        picks.append(u)
        if not picks:
            return True
        m = smate.get(v)
        if m is None or m < 0:
            return False
        # for each vertex met: 2 z of each blossom around it, summed from the top down (kept until the
        # next solve, which alone changes the blossoms and their duals: ``_reduced`` empties it)
        sums = self.blossom_sums

        def around_of(x: int) -> dict:
            out = sums.get(x)
            if out is None:
                path = []
                b = blossomparent[x]
                while b is not None:
                    path.append(b)
                    b = blossomparent[b]
                out = sums[x] = {}
                total = 0
                for b in reversed(path):
                    total += 2 * blossomdual[b]
                    out[b] = total
            return out

        def tight_to(a: int) -> Callable[[int], bool]:
            """Tells whether the edge ``a``-``x`` is tight (its slack 0 with the duals as they are), for many
            ``x``, ``a``'s terms read once: most edges are far from it, and one whose slack is below 0 or above
            the greatest sum of blossom duals around ``a`` (what the innermost blossom holding both ends
            adds) is refused before the blossoms around ``x`` are read."""
            row_a, half_a, dual_a, za = w[a], half[a], dual.get(a, dualvar[a]), around_of(a)
            most = max(za.values()) if za else 0

            def test(x: int) -> bool:
                e = row_a[x]
                if not e:
                    return False
                e -= half_a + half[x]
                if e <= 0:
                    return False
                need = scale * e - dual_a - dual.get(x, dualvar[x])
                if need < 0 or need > most:
                    return False
                if not za:
                    return True  # (need is 0: no blossom holds a)
                zb = around_of(x)
                return need == (next((za[b] for b in reversed(zb) if b in za), 0) if zb else 0)

            return test

        def proven(cycle: list[int]) -> bool:
            """Whether exchanging along ``cycle`` (v, c, d, ..., m: the pairs v-c, d-x, ..., y-m for
            c-d, x-y, ..., m-v) keeps every blossom with a dual as full as it was."""
            chains = {x: around_of(x) for x in cycle}  # (the blossoms that hold each player)
            for b in {b for x in chains.values() for b in x}:
                if not blossomdual[b]:
                    continue
                count = 0
                for i in range(0, len(cycle), 2):
                    a, b1, a2 = cycle[i], cycle[i + 1], cycle[i + 2 - len(cycle)]
                    count += (b in chains[a] and b in chains[b1]) - (b in chains[b1] and b in chains[a2])
                if count:
                    return False
            return True

        def exchange(c: int) -> list[int] | None:
            """The players whose pairs change when ``v`` takes ``c`` (a cycle of four or six), or None."""
            if c < 0 or c not in members:
                return None
            d = smate.get(c)
            if d is None or d < 0 or d in (v, m) or d not in members:
                return None
            to_d, to_m = tight_to(d), tight_to(m)
            if to_m(d) and proven([v, c, d, m]):
                return [v, c, d, m]
            for x in upper:  # six players: d-x and y-m tight, x-y a pair
                if x in (v, c, d, m):
                    continue
                y = smate.get(x)
                if y is None or y < 0 or y in (v, c, d, m) or y not in members or not to_d(x) or not to_m(y):
                    continue
                if proven([v, c, d, x, y, m]):
                    return [v, c, d, x, y, m]
            return None

        # (two ends needing the same: the first that an exchange can give is v's opponent; with it
        # the matching is a maximum one either way. In the benchmark's 57 such ties of eight rounds
        # of 1,000 players, only one of the two could be given.)
        cycle = next((found for c in picks if (found := exchange(c)) is not None), None)
        if cycle is None:
            return False
        dual[v] = best
        mate = self.mate
        for i in range(0, len(cycle), 2):
            a, b = cycle[i], cycle[i + 1]
            smate[a], smate[b] = b, a
            mate[a], mate[b] = b, a
        if any(inblossom[x] != x for x in cycle):
            state.stale.update(cycle)
        return True

    def compute(self) -> list[int]:
        if self.computed and not self.afresh:
            # (the certificate first: a matching that ``_still_optimal`` keeps may no longer be
            # proven by the duals, for the next certificate)
            if self._certified():
                self.changed.clear()
                return self.mate
            if self._still_optimal():
                self.proven = False
                self.changed.clear()
                return self.mate
        active = [v for v in range(self.n) if v not in self.fixed]
        mate = self._reduced(active) if self.half is not None else None
        self.proven = mate is not None
        self.cert_dual = {}
        if mate is None:
            graph, changed, lowered = self._whole_graph(active)
            mate = list(range(self.n))
            for a, b in max_weight_matching(graph, changed, state=self.warm_whole, lowered=lowered).items():
                mate[a] = b
        for a, b in self.fixed.items():
            mate[a] = b
        self.mate = mate
        self.changed.clear()
        self.computed = True
        self.afresh = False
        return mate

    def _reduced(self, active: list[int]) -> list[int] | None:
        """Returns a maximum-weight matching of ``active`` found on its non-plain players, or None.

        Why it is exact. Take each plain weight as ``half`` of it at either end. Subtracting
        ``half[a] + half[b]`` from every edge lowers every perfect matching by the same sum, so
        the heaviest perfect matchings stay the heaviest; after it every edge that touches a
        plain player weighs 0. The heaviest matchings are perfect ones (all but one player if
        their number is odd: a sink vertex, joined to every player by an edge of weight 0, takes
        the one left over), because the top bits of every edge count the pairs and outweigh the
        lower bits of a whole matching: extending a matching along an augmenting path (one pair
        more, nobody unpaired) always makes it heavier. So a heaviest
        perfect matching is: the non-plain players U matched among themselves, one of them or
        a plain player given to the sink, and everybody else in pairs that weigh 0. The graph
        solved here is U with the reduced weights, the sink (joined to each u by ``top - half[u]``
        and, through one pendant vertex, to the plain player with the least ``half``, the best
        plain one to leave out) and no plain player: a player of U it leaves single is to be
        paired with a plain player. If the plain players and those can then all be paired
        (``_complete``), the whole is a heaviest perfect matching: the optimal dual solution of
        the small graph, with 0 for every plain player, is feasible for the whole graph (the
        plain players' edges weigh 0, the sink's to a plain player at most its pendant edge) and
        every edge used is tight. If they cannot, None: the caller computes the whole matching.
        """
        half = self.half
        lower = [v for v in active if self.plain[v]]
        if not lower:
            return None
        upper = [v for v in active if not self.plain[v]]
        self.reduced_upper, self.reduced_lower = upper, lower
        bye = None
        if len(active) & 1:
            sink, pendant = _SINK, _PENDANT
            spare = min(reversed(lower), key=half.__getitem__)  # the lightest, the lowest placed
            graph, changed, lowered = self._reduced_graph(upper, spare)
            found = max_weight_matching(graph, changed, state=self.warm_reduced, lowered=lowered)
            self.blossom_sums = {}
            bye = spare if found[sink] == pendant else found[sink]
        else:
            graph, changed, lowered = self._reduced_graph(upper, None)
            found = max_weight_matching(graph, changed, state=self.warm_reduced, lowered=lowered) if upper else {}
            self.blossom_sums = {}
        single = [a for a in upper if a not in found and a != bye]
        paired = self._complete(single, [v for v in lower if v != bye])
        if paired is None:
            return None
        mate = list(range(self.n))
        for a, b in found.items():
            if a >= 0 and b >= 0:
                mate[a] = b
        for a, b in paired.items():
            mate[a] = b
        return mate

    def _reduced_graph(
        self, upper: list[int], spare: int | None
    ) -> tuple[dict[int, dict[int, int]], list[tuple[int, int]] | None, list[tuple[int, int]] | None]:
        """Returns the graph ``_reduced`` solves (``spare``: the plain player the sink's pendant
        stands for, None for no sink), the edges that changed since the last one (None: any) and,
        apart, those of them that only got lighter or went (``max_weight_matching``'s ``lowered``).

        The last graph is updated in place from the edges set since (``pending``) and the
        matching is told what changed; unless the halves changed: then the graph is built again,
        and the matching compares it with the last one itself.
        """
        w, half = self.w, self.half
        # (each weight kept once, shared by the edges that have it: a bracket's edges take a few
        # hundred values, which the blossom's scans then read from the memory caches)
        one = self.interned.setdefault
        sink, pendant = _SINK, _PENDANT
        top = max(half) + 1
        graph = self.reduced_graph
        if graph is None or self.pending is None:
            graph = {a: {} for a in upper}
            for i, a in enumerate(upper):
                row, to_a, half_a = w[a], graph[a], half[a]
                for b in upper[:i]:
                    e = row[b]
                    if e:
                        e -= half_a + half[b]
                        if e > 0:
                            to_a[b] = e = one(e, e)
                            graph[b][a] = e
            if spare is not None:
                _attach_sink(graph, upper, half, top, spare)
            self.reduced_graph, self.pending = graph, set()
            return graph, None, None
        members = set(upper)
        for v in [v for v in graph if v >= 0 and v not in members]:  # fixed, or plain again
            for k in graph.pop(v):
                del graph[k][v]
        added = [a for a in upper if a not in graph]
        for a in added:
            graph[a] = {}
        for a in added:
            row, to_a, half_a = w[a], graph[a], half[a]
            for b in upper:
                e = row[b] if b != a else 0
                if e:
                    e -= half_a + half[b]
                    if e > 0:
                        to_a[b] = e = one(e, e)
                        graph[b][a] = e
        fresh = members.difference(added)  # the vertices of both graphs
        changed, lowered = _apply_pending(graph, self.pending, self.n, w, fresh, half, one)
        if spare is None:
            for v in (sink, pendant):
                for k in graph.pop(v, ()):
                    del graph[k][v]
        elif sink not in graph:
            _attach_sink(graph, upper, half, top, spare)
        else:
            for a in added:
                graph[sink][a] = graph[a][sink] = top - half[a]
            if graph[sink][pendant] != top - half[spare]:
                graph[sink][pendant] = graph[pendant][sink] = top - half[spare]
                changed.append((pendant, sink))
        return graph, changed, lowered

    def _whole_graph(
        self, active: list[int]
    ) -> tuple[dict[int, dict[int, int]], list[tuple[int, int]] | None, list[tuple[int, int]] | None]:
        """Returns the whole graph of ``active`` (no player plain: the last brackets), the edges that
        changed since the last one solved (None: any) and, apart, those that only got lighter or went.

        As ``_reduced_graph``: the last graph is updated in place from the edges set since
        (``whole_pending``), instead of built again and compared with the last one edge by edge by
        the matching (in the last brackets, a matching after each step of the settling; rounds 1-3
        of 1,000 players 0.35 % fewer instructions, 250 players x 9 rounds 0.65 %).
        """
        w = self.w
        graph = self.whole_graph
        members = set(active)
        if (
            graph is None
            or self.whole_pending is None
            or self.warm_whole.graph is not graph
            or any(v not in graph for v in active)
        ):
            graph = {}
            for a in active:
                row = w[a]
                graph[a] = {b: row[b] for b in active if row[b] > 0}
            self.whole_graph, self.whole_pending = graph, set()
            return graph, None, None
        for v in [v for v in graph if v not in members]:  # fixed since
            for k in graph.pop(v):
                del graph[k][v]
        changed, lowered = _apply_pending(graph, self.whole_pending, self.n, w, members, None, None)
        return graph, changed, lowered

    def _complete(self, single: list[int], lower: list[int]) -> dict[int, int] | None:
        """Pairs all of ``single`` (with plain players only) and ``lower``, or returns None.

        A greedy pass, then one repair per two players left over (each takes one end of a pair
        already made). None does not mean that no such pairing exists, only that this search
        found none; the caller then computes the whole matching.
        """
        if (len(single) + len(lower)) & 1:
            return None
        w = self.w
        free = list(lower)
        pairs: dict[int, int] = {}
        for a in single:
            row = w[a]
            j = next((j for j, b in enumerate(free) if row[b]), None)
            if j is None:
                return None
            pairs[a] = free.pop(j)
            pairs[pairs[a]] = a
        left = []
        free.reverse()
        while free:
            a = free.pop()
            row = w[a]
            j = next((j for j in range(len(free) - 1, -1, -1) if row[free[j]]), None)
            if j is None:
                left.append(a)
                continue
            b = free.pop(j)
            pairs[a], pairs[b] = b, a
        while left:
            a, b = left.pop(), left.pop()
            row_a, row_b = w[a], w[b]
            x = next((x for x, y in pairs.items() if row_a[x] and row_b[y]), None)
            if x is None:
                return None
            y = pairs[x]
            pairs[a], pairs[x], pairs[b], pairs[y] = x, a, y, b
        return pairs

    def finalize(self, a: int, b: int, weight: int) -> None:
        """Fixes the pair ``a``-``b`` (its edge the heaviest): both players leave the graph.

        Every later matching is computed on the players not fixed and holds the fixed pairs as
        they are, so the other edges of ``a`` and ``b`` are never read again: they are neither
        cleared nor recorded as changed (a player's row is 1,000 edges; ``_certified`` and
        ``_still_optimal`` would read each of them after every pair of the round).
        """
        self.fixed[a], self.fixed[b] = b, a
        self.set(a, b, weight)


@dataclass
class _Round:
    """What the weights need to know about the round."""

    players: list[DutchPlayer]  # sorted: score down, then rank
    by_number: dict[int, DutchPlayer]
    system: PointSystem
    played_rounds: int
    rounds_total: int
    forbidden: dict[int, set[int]]
    initial_colour: str | None
    floats: dict[tuple[int, int], int] = field(default_factory=dict, repr=False, compare=False)  # float_of's answers

    def score_back(self, p: DutchPlayer, back: int) -> int:
        s = p.score - p.virtual_before(self.played_rounds) + p.virtual_before(self.played_rounds - back)
        for k in range(self.played_rounds - back, self.played_rounds):
            s -= p.rounds[k].points(self.system)
        return s

    def float_of(self, p: DutchPlayer, back: int) -> int:
        known = self.floats.get((p.number, back))
        if known is not None:
            return known
        r = p.rounds[self.played_rounds - back]
        if not r.played:
            found = FLOAT_DOWN if r.points(self.system) > self.system.loss else FLOAT_NONE
        else:
            mine = self.score_back(p, back)
            theirs = self.score_back(self.by_number[r.opponent], back)
            found = FLOAT_DOWN if mine > theirs else FLOAT_UP if mine < theirs else FLOAT_NONE
        self.floats[p.number, back] = found
        return found

    def compatible(self, a: DutchPlayer, b: DutchPlayer) -> bool:
        if b.number in self.forbidden.get(a.number, ()):
            return False
        if not (a.absolute_preference and b.absolute_preference and a.preference == b.preference):
            return True
        top = self.played_rounds * max(self.system.win, self.system.draw) >> 1
        return self.played_rounds >= self.rounds_total - 1 and (a.score > top or b.score > top)


def _colour_bits(w: int, p: DutchPlayer, o: DutchPlayer, mask: bool, bits: int) -> int:
    w <<= bits
    w |= mask and (not p.absolute_imbalance or not o.absolute_imbalance or p.preference != o.preference)
    w <<= bits
    if mask:
        if p.imbalance == o.imbalance:
            rep_ok = p.repeated is None or p.repeated != o.repeated
        else:
            rep_ok = (o if p.imbalance > o.imbalance else p).repeated != _invert(p.preference)
        w |= not p.absolute_preference or not o.absolute_preference or p.preference != o.preference or rep_ok
    w <<= bits
    w |= mask and (p.preference != o.preference or p.preference is None or o.preference is None)
    w <<= bits
    w |= mask and (
        (not p.strong and not p.absolute_preference)
        or (not o.strong and not o.absolute_preference)
        or (p.absolute_preference and o.absolute_preference)
        or p.preference != o.preference
    )
    return w


def _bits(n: int) -> int:
    return max(n, 0).bit_length()


def _neutral_colour(p: DutchPlayer, o: DutchPlayer) -> str | None:
    if p.preference != o.preference or p.preference is None or o.preference is None:
        if p.preference is not None:
            return p.preference
        return _invert(o.preference)
    if p.absolute_preference and (p.imbalance > o.imbalance or not o.absolute_preference):
        return p.preference
    if o.absolute_preference and (o.imbalance > p.imbalance or not p.absolute_preference):
        return _invert(o.preference)
    if p.strong and not o.strong:
        return p.preference
    if o.strong and not p.strong:
        return _invert(o.preference)
    mine = [r.colour for r in reversed(p.rounds) if r.played]
    theirs = [r.colour for r in reversed(o.rounds) if r.played]
    for a, b in zip(mine, theirs, strict=False):
        if a != b:
            return b
    return None


def _lower(p: DutchPlayer, o: DutchPlayer) -> bool:
    """Says whether ``p`` stands below ``o`` (lower score, or same score and later rank)."""
    return (p.score, o.rank) < (o.score, p.rank)


def choose_colour(p: DutchPlayer, o: DutchPlayer, initial: str | None) -> str | None:
    """Returns the colour of ``p`` against ``o`` under the rules of section E (E1-E5)."""
    c = _neutral_colour(p, o)
    if c is not None:
        return c
    if p.preference is None:
        if _lower(p, o):
            return initial if o.rank & 1 else _invert(initial)
        return _invert(initial) if p.rank & 1 else initial
    return _invert(o.preference) if _lower(p, o) else p.preference


def _weight(
    rd: _Round,
    hi: DutchPlayer,
    lo: DutchPlayer,
    in_current: bool,
    in_next: bool,
    bye_score: int,
    sg_bits: int,
    sgs_shift: int,
    shifts: dict[int, int],
    single_bye_floater: bool,
    unplayed_ranks: dict[int, int],
) -> int:
    if not rd.compatible(hi, lo):
        return 0

    def cand(p: DutchPlayer) -> bool:
        return p.bye_eligible and p.score <= bye_score

    w = 1 + (not cand(hi)) + (not cand(lo))
    w = (w << sg_bits) | in_current
    w <<= sgs_shift
    if in_current:
        w |= 1 << shifts[hi.score]
    w = (w << sg_bits) | in_next
    w <<= sgs_shift
    if in_next:
        w |= 1 << shifts[hi.score]
    w <<= 2 * sg_bits
    if single_bye_floater:
        if hi.score == bye_score:
            w |= unplayed_ranks[hi.played_games]
        if lo.score == bye_score:
            w += unplayed_ranks[lo.played_games]
    w = _colour_bits(w, lo, hi, in_current, sg_bits)
    played = rd.played_rounds
    cur = in_current
    fl = {}
    if cur:
        for back in (1, 2):
            if played >= back:
                fl[back] = (rd.float_of(lo, back), rd.float_of(hi, back))
    for back in (1, 2):  # the floats of the last round, then of the one before it
        if played < back:
            break
        w <<= sg_bits
        if cur:
            flo, fhi = fl[back]
            w |= flo == FLOAT_DOWN
            w += hi.score <= lo.score and fhi == FLOAT_DOWN
        w <<= sg_bits
        if cur:
            w |= not (hi.score > lo.score and fl[back][0] == FLOAT_UP)
    if played:
        w <<= sgs_shift
        if cur:
            w += (fl[1][0] == FLOAT_DOWN) << shifts[lo.score]
            w += (fl[1][1] == FLOAT_DOWN) << shifts[hi.score]
        w <<= sgs_shift
        if cur and not (fl[1][0] == FLOAT_UP and hi.score > lo.score):
            w |= 1 << shifts[hi.score]
    if played > 1:
        w <<= sgs_shift
        if cur:
            w += (fl[2][0] == FLOAT_DOWN) << shifts[lo.score]
            w += (fl[2][1] == FLOAT_DOWN) << shifts[hi.score]
        w <<= sgs_shift
        if cur and not (fl[2][0] == FLOAT_UP and hi.score > lo.score):
            w |= 1 << shifts[hi.score]
    w <<= 3 * sg_bits + 1
    return w


def _signature(rd: _Round, p: DutchPlayer) -> tuple:
    """Returns all that ``_weight`` reads of ``p``, but whom he may meet: two players of the same
    signature weigh the same against anybody they may both meet (``pair_round`` keeps the weights
    of each two signatures)."""
    floats = tuple(rd.float_of(p, back) for back in (1, 2) if rd.played_rounds >= back)
    return (p.score, p.bye_eligible, p.played_games, p.imbalance, p.preference, p.repeated, p.strong, floats)


def _total_shift(played: int, sg_bits: int, sgs_shift: int) -> int:
    t = 2 * sg_bits + 2 * sgs_shift + 2 * sg_bits + 4 * sg_bits
    if played:
        t += 2 * sg_bits + 2 * sgs_shift
    if played > 1:
        t += 2 * sg_bits + 2 * sgs_shift
    return t + 3 * sg_bits + 1


def _score_fields(score: list[int]) -> tuple[dict[int, int], int, int]:
    """Returns, for scores sorted from the highest, each score group's bit position in a field
    of one bit per group (``shifts``), that field's width and the width of a count of players."""
    shifts: dict[int, int] = {}
    sgs_shift = 0
    biggest = 0
    count = 0
    for i in range(len(score) - 1, -1, -1):
        count += 1
        if i == 0 or score[i] < score[i - 1]:
            shifts[score[i]] = sgs_shift
            sgs_shift += _bits(count)
            biggest = max(biggest, count)
            count = 0
    return shifts, sgs_shift, _bits(biggest)


def _plain_half(
    rd: _Round,
    p: DutchPlayer,
    bye_score: int,
    single_bye_floater: bool,
    unplayed_ranks: dict[int, int],
    sg_bits: int,
    sgs_shift: int,
) -> int:
    """Returns half the weight of ``p``'s edges outside the bracket: ``_weight(rd, hi, lo, False,
    False, ...)`` is ``_plain_half`` of ``hi`` plus that of ``lo`` for every pair that may meet.

    Outside the bracket an edge holds only the bits of each player alone: the pair itself (the
    top bit, halved here), whether the player is no bye candidate, and his rank for the bye.
    """
    top = _total_shift(rd.played_rounds, sg_bits, sgs_shift)
    half = (1 << top - 1) + ((not (p.bye_eligible and p.score <= bye_score)) << top)
    if single_bye_floater and p.score == bye_score:
        half += unplayed_ranks[p.played_games] << top - 4 * sg_bits - 2 * sgs_shift
    return half


def _last_group_halves(
    rd: _Round,
    players: list[DutchPlayer],
    bracket: list[int],
    nsgb: int,
    bye_score: int,
    single_bye_floater: bool,
    unplayed_ranks: dict[int, int],
) -> list[int]:
    """Returns halves (see ``_plain_half``) for a bracket whose next score group, from
    ``bracket[nsgb]`` on, is the last one: every edge that touches that group is the sum of
    its two halves (or 0), so that the matching can leave the group below it.

    Such an edge (``_weight`` with ``in_next``) holds the two players' plain bits, the bit
    of a pair in the next bracket and the bit of the higher player's score group; within the
    group that last bit is the group's own, shared half and half, and from a bracket player it
    is his group's, which he takes whole less the group's half.
    """
    score = [p.score for p in players]
    shifts, sgs_shift, sg_bits = _score_fields(score)
    top = _total_shift(rd.played_rounds, sg_bits, sgs_shift)
    pair_bit = 1 << top - 2 * sg_bits - sgs_shift
    group_unit = top - 2 * sg_bits - 2 * sgs_shift
    own = 1 << shifts[score[bracket[nsgb]]] + group_unit
    half = [0] * len(players)
    for pi, v in enumerate(bracket):
        plain = _plain_half(rd, players[v], bye_score, single_bye_floater, unplayed_ranks, sg_bits, sgs_shift)
        if pi >= nsgb:
            half[v] = plain + pair_bit // 2 + own // 2
        else:
            half[v] = plain + pair_bit // 2 + (1 << shifts[score[v]] + group_unit) - own // 2
    return half


def _first_round_pairs(rd: _Round) -> dict[int, int] | None:
    """Returns the pairs (vertex to vertex) of a round that the rules decide without a matching, or None.

    Before any round is played, with one score group (no acceleration), no prohibited pairing and
    every player free to take the bye, no criterion but the order of the bracket is left: the bye
    goes to the last player (C.04.3 C5-C9 cannot tell the others apart), and the first candidate of
    the bracket, S1's i-th player against S2's i-th, meets every criterion. So it is the
    pairing; the reference's matchings give the same on the first round of every file of
    ``tests/tournaments/pairing/data/dutch/``. At 1,000 players the matchings took minutes here.
    """
    players = rd.players
    if rd.played_rounds or any(p.score != players[0].score or not p.bye_eligible for p in players):
        return None
    numbers = {p.number for p in players}
    if any(numbers.intersection(rd.forbidden.get(p.number, ())) for p in players):
        return None
    half = len(players) // 2
    pairs = {}
    for i in range(half):
        pairs[i], pairs[i + half] = i + half, i
    return pairs


def _coloured(rd: _Round, pairs: dict[int, int]) -> list[DutchPair]:
    """Returns the pairs with their colours (the allocation rules); an unpaired player has the bye."""
    result: list[DutchPair] = []
    for v, p in enumerate(rd.players):
        if v in pairs:
            o = rd.players[pairs[v]]
            if p.number < o.number:
                c = choose_colour(p, o, rd.initial_colour)
                result.append(DutchPair(p.number, o.number) if c == WHITE else DutchPair(o.number, p.number))
        else:
            result.append(DutchPair(p.number, None))
    return result


def pair_round(rd: _Round) -> list[DutchPair]:
    """Pairs the round; raises ``PairingError`` if no pairing meets the absolute criteria."""
    players = rd.players
    n = len(players)
    if n == 0:
        return []
    decided = _first_round_pairs(rd)
    if decided is not None:
        return _coloured(rd, decided)
    score = [p.score for p in players]
    shifts, sgs_shift, sg_bits = _score_fields(score)
    max_weight = (1 << (_total_shift(rd.played_rounds, sg_bits, sgs_shift) + 2)) - 1
    unplayed_ranks: dict[int, int] = {}

    # A pair's weight depends on the pair only through whether the two may meet: else on what
    # each player is alone (``_signature``), so it is computed once for each two kinds of players.
    kinds: dict[tuple, int] = {}
    kind = [kinds.setdefault(_signature(rd, p), len(kinds)) for p in players]
    # known[kind of the lower-placed player, in the current bracket, bye score, single][kind of the
    # higher-placed one]: their weight, if they may meet (barred_by[v]: whom v may not meet)
    known: dict[tuple[int, bool, int, bool], dict[int, int]] = {}
    barred_by = [rd.forbidden.get(p.number, ()) for p in players]

    m = _Matcher(n)
    top = score[0]
    # barred[i]: the players j < i that rd.compatible(players[i], players[j]) refuses, ascending (its
    # terms read once per player; few a player: the lists are walked where each pair was tested)
    forbidden, late = rd.forbidden, rd.played_rounds >= rd.rounds_total - 1
    top_score = rd.played_rounds * max(rd.system.win, rd.system.draw) >> 1
    free = object()  # (no absolute preference: equal to nobody's)
    strict = [p.preference if p.absolute_preference else free for p in players]  # a colour he must have
    high = [late and p.score > top_score for p in players]
    at = {p.number: j for j, p in enumerate(players)}
    strict_at: dict[object, list[int]] = {}  # for each colour, the players who must have it and whom it stops
    for j in range(n):
        if strict[j] is not free and not high[j]:
            strict_at.setdefault(strict[j], []).append(j)
    barred = []
    for i in range(n):
        out = {j for x in forbidden.get(players[i].number, ()) if (j := at.get(x)) is not None and j < i}
        if strict[i] is not free and not high[i]:  # (else the colours never stop him)
            out.update(takewhile(lambda j, i=i: j < i, strict_at.get(strict[i], ())))
        barred.append(sorted(out))
    if n & 1:  # who gets the bye: the top bit says whether both players are of the top score group
        unit = sgs_shift + sg_bits
        m.set_plain(
            [
                (1 << unit - 1) + ((not p.bye_eligible) << unit) + (shifts[p.score] << sg_bits)
                for p in players
            ],
            barred,
        )
        for i in range(n):
            if score[i] >= top:
                row, out = m.w[i], set(barred[i])
                m.set_row(i, [(j, row[j] + 1) for j in range(i) if j not in out])
    else:
        m.set_plain(
            [_plain_half(rd, p, 0, False, unplayed_ranks, sg_bits, sgs_shift) for p in players], barred
        )
    mate = m.compute()
    unmatched = [v for v in range(n) if mate[v] == v]
    if len(unmatched) > 1 or any(not players[v].bye_eligible for v in unmatched):
        raise PairingError("no pairing of the round meets the absolute criteria (C1-C3)")
    bye_score = 0
    single = False
    if n & 1:
        bye_score = score[unmatched[0]]
        if bye_score >= top:
            single = True
            for v in range(n):
                if score[v] < top:
                    break
                if score[mate[v]] < top:
                    single = False
                    break
        counts = sorted((p.played_games for p in players if p.score == bye_score), reverse=True)
        for rank, games in enumerate(counts):
            unplayed_ranks[games] = rank
        m.set_plain(
            [_plain_half(rd, p, bye_score, single, unplayed_ranks, sg_bits, sgs_shift) for p in players],
            barred,
        )

    pairs: dict[int, int] = {}
    matched = [False] * n
    bracket: list[int] = []  # vertices (indices into players) of the bracket, then the next group
    nxt_it = 0
    while nxt_it < n and score[nxt_it] >= top:
        bracket.append(nxt_it)
        nxt_it += 1
    sg_begin = 0  # number of moved-down players in the bracket
    sg_begin_vertex = 0
    while len(bracket) > 1 or nxt_it < n:
        nsgb = len(bracket)
        nsgb_vertex = sg_begin_vertex + (nsgb - sg_begin)
        sg_it = nxt_it
        while nxt_it < n and score[nxt_it] >= score[sg_it]:
            bracket.append(nxt_it)
            nxt_it += 1
        size = len(bracket)
        base: list[list[int]] = [[] for _ in range(size)]
        for lg in range(sg_begin, size):  # (``weight`` of each pair, its lookups made once a row)
            lv = bracket[lg]
            lo, cur = players[lv], lg < nsgb
            known_lg = known.setdefault((kind[lv], cur, bye_score, single), {})
            lo_number = lo.number
            row = base[lg]
            for sm in range(lg):
                sv = bracket[sm]
                if lo_number in barred_by[sv]:
                    row.append(0)
                    continue
                k = kind[sv]
                found = known_lg.get(k)
                if found is None:
                    found = known_lg[k] = _weight(
                        rd, players[sv], lo, cur, not cur, bye_score, sg_bits, sgs_shift, shifts, single, unplayed_ranks
                    )
                row.append(found)
        m.set_rows(bracket, base, sg_begin)
        if nxt_it == n and nsgb < size:  # the next score group is the last one: it stands below
            m.set_halves(
                _last_group_halves(rd, players, bracket, nsgb, bye_score, single, unplayed_ranks),
                bracket[nsgb:],
            )

        def ewc(sm: int, lg: int, sm_rem: int, rem_pairs: int, base: list[list[int]] = base) -> int:
            r = base[lg][sm]
            if r:
                addend = int(sm_rem < rem_pairs)
                addend <<= 2 * sg_bits
                addend -= sm_rem
                addend <<= 1
                r += addend
            return r

        def in_bracket(v: int, low: int = sg_begin_vertex, high: int = nsgb_vertex) -> bool:
            return low <= v < high

        mate = m.compute()
        # Which moved-down players are paired in this bracket.
        md_score = None
        remaining = remaining_matched = 0
        for pi in range(sg_begin):
            if pi == 0 or score[bracket[pi]] < md_score:
                md_score = score[bracket[pi]]
                remaining = remaining_matched = 0
                k = pi
                while score[bracket[k]] >= md_score:
                    remaining += 1
                    if in_bracket(mate[bracket[k]]):
                        remaining_matched += 1
                    k += 1
            if not remaining_matched:
                continue
            pv = bracket[pi]
            if remaining <= remaining_matched:
                matched[pv] = True
                continue
            remaining -= 1
            if not in_bracket(mate[pv]):
                m.set_row(pv, [(bracket[oi], e | 1) for oi in range(sg_begin, nsgb) if (e := base[oi][pi])])
                mate = m.compute()
            if in_bracket(mate[pv]):
                matched[pv] = True
                remaining_matched -= 1
                m.set_row(pv, [(bracket[oi], (e | (nsgb - sg_begin)) + 1) for oi in range(sg_begin, nsgb) if (e := base[oi][pi])])
        # Their opponents: the highest residents the criteria allow.
        for pi in range(sg_begin):
            pv = bracket[pi]
            if not matched[pv]:
                continue
            addend = size
            edges = []
            for oi in range(nsgb - 1, sg_begin - 1, -1):
                ov = bracket[oi]
                if matched[ov]:
                    continue
                e = base[oi][pi]
                if e:
                    edges.append((ov, e + addend))
                    addend += 1
            m.set_row(pv, edges)
            mate = m.compute()
            mv = mate[pv]
            matched[mv] = True
            m.finalize(pv, mv, max_weight)
        # The remainder: S1 against S2 with the fewest, smallest exchanges.
        remainder: list[int] = []
        rem_pairs = 0
        for pi in range(sg_begin, nsgb):
            pv = bracket[pi]
            if mate[pv] < sg_begin_vertex:
                continue
            remainder.append(pi)
            if mate[pv] < pv:
                rem_pairs += 1
        for j, oi in enumerate(remainder):  # (ascending: the players before oi are remainder[:j])
            m.set_row(bracket[oi], [(bracket[pi], ewc(pi, oi, idx, rem_pairs)) for idx, pi in enumerate(remainder[:j])])
        mate = m.compute()

        def is_s1(v: int, high: int = nsgb_vertex) -> bool:
            """Says whether ``v`` is paired, in the matching, with a later player of the bracket."""
            return v < m.mate[v] < high

        exchanges = 0
        if remainder:
            first_s2 = remainder[rem_pairs] if rem_pairs < len(remainder) else None
            for pi in remainder:
                if first_s2 is not None and pi >= first_s2:
                    break
                exchanges += not is_s1(bracket[pi])
        left = exchanges
        pos = rem_pairs
        idx = rem_pairs
        while pos > 0 and left:
            q0 = pos
            idx -= 1
            pos -= 1
            rp = remainder[pos]
            pv = bracket[rp]
            if is_s1(pv):
                m.set_row(pv, [(bracket[rq], e - 1) for rq in remainder[q0:] if (e := ewc(rp, rq, idx, rem_pairs))])
                mate = m.compute()
            exchange = not is_s1(pv)
            left -= exchange
            if exchange:
                for rq in remainder[pos + 1 :]:
                    base[rq][rp] = 0
            m.set_row(pv, [(bracket[rq], ewc(rp, rq, idx, rem_pairs)) for rq in remainder[pos + 1 :]])
        left = exchanges
        idx = rem_pairs
        pos = rem_pairs
        while pos < len(remainder) and left > 1:
            rp = remainder[pos]
            pv = bracket[rp]
            already = is_s1(pv)
            if not already:
                m.set_row(pv, [(bracket[rq], e + 1) for rq in remainder[pos + 1 :] if (e := ewc(rp, rq, idx, rem_pairs))])
                mate = m.compute()
            if is_s1(pv):
                left -= 1
                row = base[rp]
                for rq in remainder[:pos]:
                    row[rq] = 0
                m.set_row(pv, [(bracket[rq], 0) for rq in remainder[:pos]])
                for oi in range(nsgb, size):
                    base[oi][rp] = 0
                m.set_row(pv, [(bracket[oi], 0) for oi in range(nsgb, size)])
            if not already:
                m.set_row(pv, [(bracket[rq], ewc(rp, rq, idx, rem_pairs)) for rq in remainder[pos + 1 :]])
            idx += 1
            pos += 1
        for p_pos, rp in enumerate(remainder):
            pv = bracket[rp]
            s1 = is_s1(pv)
            edges = []
            for rq in remainder[p_pos + 1 :]:
                ov = bracket[rq]
                if not s1 or is_s1(ov):
                    base[rq][rp] = 0
                edges.append((ov, base[rq][rp]))
            m.set_row(pv, edges)
        for rp in remainder:
            pv = bracket[rp]
            if is_s1(pv):
                addend = 0
                edges = []
                for ro in reversed(remainder):
                    ov = bracket[ro]
                    if ro <= rp or matched[ov]:
                        continue
                    e = base[ro][rp]
                    if e:
                        edges.append((ov, e + addend))
                    addend += 1
                m.set_row(pv, edges)
                mate = m.compute()
                mv = mate[pv]
                matched[pv] = matched[mv] = True
                m.finalize(pv, mv, max_weight)
        # The next bracket: the players left over, then the next score group.
        new_bracket: list[int] = []
        sg_begin = 0
        single = bool(n & 1) and sg_it < n and bye_score >= score[sg_it]
        for pi, pv in enumerate(bracket):
            if pi < nsgb and matched[pv]:
                pairs[pv] = mate[pv]
                pairs[mate[pv]] = pv
            else:
                new_bracket.append(pv)
                if pi < nsgb:
                    sg_begin += 1
                if single and score[mate[pv]] < score[sg_it]:
                    single = False
        bracket = new_bracket
        sg_begin_vertex = nsgb_vertex

    return _coloured(rd, pairs)


def round_of(
    t: TrfTournament,
    *,
    rounds_total: int | None = None,
    initial_colour: str | None = None,
    virtual_points: dict[int, tuple[int, ...]] | None = None,
) -> _Round:
    """Builds what the pairing of the next round needs from a tournament cut after the rounds played.

    The round to pair is the first one not paired: players whose line already holds it (a
    requested bye, an absence) sit it out. ``virtual_points`` (acceleration, ``baku_virtual_points``;
    by default the file's ``XXA`` lines) gives, by pairing number, the virtual points each player has before each round (in tenths):
    they count in his score for the pairing only.
    """
    if virtual_points is None:  # the file's own acceleration (XXA lines), if any
        virtual_points = dict(t.accelerations)
    system = t.points
    paired_rounds = max((k + 1 for p in t.players for k, r in enumerate(p.rounds) if r.paired), default=0)
    played = paired_rounds
    total = rounds_total or t.rounds_total or played + 1
    forbidden: dict[int, set[int]] = {}
    for first, last, who in t.forbidden:
        if first <= played + 1 <= last:
            for a in who:
                forbidden.setdefault(a, set()).update(who - {a})
    rank = 0
    valid: list[DutchPlayer] = []
    by_number: dict[int, DutchPlayer] = {}
    for tp in t.players:
        rounds = tuple(tp.rounds) + (TrfRound(None, None, " "),) * max(0, played - len(tp.rounds))
        is_valid = len(tp.rounds) <= played or any(r.paired for r in tp.rounds)
        if not is_valid:
            continue
        p = DutchPlayer(
            tp.number,
            rank,
            sum(r.points(system) for r in rounds[:played]),
            rounds,
            virtual=virtual_points.get(tp.number, ()),
        )
        p.score += p.virtual_before(played)
        rank += 1
        _colour_data_upto(p, played)
        p.bye_eligible = _bye_eligible_upto(p, system, played)
        by_number[p.number] = p
        if len(tp.rounds) <= played:
            valid.append(p)
        for r in rounds[:played]:
            if r.played:
                forbidden.setdefault(p.number, set()).add(r.opponent)
    for b_round, number in t.requested_byes:
        if b_round == played + 1:
            valid = [p for p in valid if p.number != number]
    valid.sort(key=lambda p: (-p.score, p.rank))
    initial = initial_colour or t.initial_colour or infer_initial_colour(t)
    return _Round(valid, by_number, system, played, total, forbidden, initial)


def _colour_data_upto(p: DutchPlayer, played: int) -> None:
    full = p.rounds
    p.rounds = full[:played]
    _colour_data(p)
    p.rounds = full


def _bye_eligible_upto(p: DutchPlayer, system: PointSystem, played: int) -> bool:
    return not any(
        not r.played and (r.points(system) >= system.win or r.is_pairing_bye) for r in p.rounds[:played]
    )


def infer_initial_colour(t: TrfTournament) -> str | None:
    """Returns the colour the first pairing number had (or would have had) in the first round
    with colours, as the reference infers it."""
    first = None
    for p in t.players:
        for k, r in enumerate(p.rounds):
            if r.colour is not None and (first is None or k < first):
                first = k
    if first is None:
        return None
    paired = [p for p in t.players if any(r.paired for r in p.rounds[: first + 1])]
    return first_colour_down_the_order([p.rounds[first].colour for p in paired], [True] * len(paired), _invert)


def first_colour_down_the_order(
    colours: Sequence[str | None], paired: Sequence[bool], other: Callable[[str], str]
) -> str | None:
    """Returns the top pairing number's colour in a round that gave colours alternately down the players
    paired: the first player with a colour had it if an even number of players paired stand before him,
    else ``other`` of it. ``colours`` and ``paired`` are the players' in pairing-number order (a player
    paired without a colour: a forfeit, the bye)."""
    index = 0
    for colour, took_part in zip(colours, paired, strict=True):
        if colour is not None:
            return other(colour) if index & 1 else colour
        index += took_part
    return None


def pair_next_round(
    t: TrfTournament,
    *,
    rounds_total: int | None = None,
    initial_colour: str | None = None,
    virtual_points: dict[int, tuple[int, ...]] | None = None,
) -> list[DutchPair]:
    """Returns the Dutch pairing of the round after the last one paired in ``t``."""
    return pair_round(
        round_of(t, rounds_total=rounds_total, initial_colour=initial_colour, virtual_points=virtual_points)
    )


def baku_virtual_points(
    numbers: Sequence[int], rounds_total: int, system: PointSystem | None = None, *,
    starting: Collection[int] | None = None,
) -> dict[int, tuple[int, ...]]:
    """Returns the Baku acceleration's virtual points (FIDE C.04.5.1), by pairing number, before each round.

    ``numbers`` are the pairing numbers of the players in the pairing list's order. The first group
    (GA) is the first half of the list the tournament started from, rounded up to an even number
    (2 x ceil(n / 4)); ``starting`` holds the numbers of that list (None: all of ``numbers``: no
    late entry). A late entry is placed in the list as the others are and the last GA player stays
    the one he was (C.04.5.1, "Late entries"): GA is every player up to him, so it may grow by the
    late entries placed above him and hold an odd number; never by the ones below. The
    accelerated rounds are the first half of the tournament (rounded up): GA players have 1
    virtual point (a win's worth) before the first half of them (rounded up) and 0.5 before the
    others; GB players, and everybody after the accelerated rounds, none.
    """
    system = system or PointSystem()
    order = list(numbers)
    first = order if starting is None else [n for n in order if n in starting]
    if not first:
        return {}
    last = first[min(2 * -(-len(first) // 4), len(first)) - 1]
    ga = order[: order.index(last) + 1]
    accelerated = -(-rounds_total // 2)
    full = -(-accelerated // 2)
    points = tuple(system.win if k < full else system.win // 2 for k in range(accelerated))
    return {number: points for number in ga}


@dataclass(frozen=True, slots=True)
class ColourRecord:
    """What the colour allocation needs to know of a player: his colours game by game, his score, his rank.

    ``colours`` lists the player's played games in order, ``"w"`` for the side that moved first
    (Black in draughts, ``trf.WHITE``) and ``"b"`` for the other (``trf.BLACK``); unplayed rounds
    are left out. ``score`` is any comparable number (higher is better); ``rank`` his pairing
    number (lower is higher-ranked; its parity decides when nothing else does).
    """

    colours: tuple[str, ...]
    score: float
    rank: int  # the pairing number, from 1


def first_mover(one: ColourRecord, two: ColourRecord, *, initial: str = WHITE) -> bool:
    """Says whether ``one`` moves first (Black in draughts) against ``two`` in a one-game round.

    The FIDE Dutch system's colour allocation (C.04.3 section E, rules E1-E5): both colour
    preferences met if they can be, else the stronger preference, else the alternation of the two
    histories from the last game back, else the higher-ranked player's preference, else by his
    pairing number's parity and ``initial`` (the colour pairing number 1 had in round 1).
    A stable interface for every one-game round (Swiss, round robin, knockout).
    """
    players = []
    for index, record in enumerate((one, two)):
        rounds = tuple(TrfRound(0, c, "1") for c in record.colours)
        p = DutchPlayer(index, record.rank - 1, 0, rounds)
        _colour_data(p)
        players.append(p)
    a, b = players
    a.score, b.score = (1, 0) if one.score > two.score else (0, 1) if two.score > one.score else (0, 0)
    return choose_colour(a, b, initial) == WHITE


def sort_pairs(pairs: Sequence[DutchPair], rd_players: dict[int, DutchPlayer]) -> list[DutchPair]:
    """Orders boards as the reference does: higher scores first, the bye last.

    The scores are the real ones: an accelerated round's virtual points decide the pairing, not
    the boards' order (the reference's ``sortResults`` compares scores without acceleration).
    """

    def real(p: DutchPlayer) -> int:  # a paired player's rounds are the ones played before this round
        return p.score - p.virtual_before(len(p.rounds))

    def key(pair: DutchPair) -> tuple:
        if pair.black is None:
            return (1, 0, 0, 0)
        a, b = rd_players[pair.white], rd_players[pair.black]
        hi, lo = (a, b) if (real(a), -a.rank) >= (real(b), -b.rank) else (b, a)
        return (0, -real(hi), -real(lo), hi.rank)

    return sorted(pairs, key=key)


Explain = Callable[[DutchPair], str]


def _points(tenths: int) -> str:
    return f"{tenths / 10:g}"


def _colour_reason(rd: _Round, first: DutchPlayer, second: DutchPlayer) -> str:
    """Says, in words, why ``first`` moves first (section E)."""
    due = [p for p in (first, second) if p.preference is not None]
    if first.preference == WHITE and second.preference != WHITE:
        if second.preference == BLACK:
            return "each player gets the colour he is due (colours alternate from his earlier games)"
        return f"{{{first.number}}} is due to move first (colours alternate from his earlier games)"
    if second.preference == BLACK and first.preference is None:
        return f"{{{second.number}}} is due to move second (colours alternate from his earlier games)"
    if due and first.preference == second.preference:
        winner = first if first.preference == WHITE else second
        if winner.absolute_preference:
            return (
                f"both are due the same colour; {{{winner.number}}} must have it (he has had the other colour "
                "more often, or twice in a row)"
            )
        if winner.strong:
            return f"both are due the same colour; {{{winner.number}}} has the stronger claim (more games with the other)"
        return (
            f"both are due the same colour; {{{winner.number}}} gets it (their colour histories differ first "
            "there, or he ranks higher)"
        )
    return "neither has a colour due: by pairing number, alternating from the first board of round 1"


def explain_pair(rd: _Round, pair: DutchPair, *, two_games: bool = False) -> str:
    """Says, in words a player understands, which rules made the pair (score group, float, colour).

    Players are written ``{number}`` (their pairing numbers) for the caller to put names in.
    """
    by = rd.by_number
    a = by[pair.white]
    if pair.black is None:
        return (
            f"{{{a.number}}} gets the bye: an odd number of players, and he is the lowest-placed "
            f"({_points(a.score)} points) who has not had a bye or a win without playing, the others "
            "being paired by the rules."
        )
    b = by[pair.black]
    hi, lo = (a, b) if not _lower(a, b) else (b, a)
    if hi.score == lo.score:
        words = (
            f"Score group of {_points(hi.score)} points: {{{hi.number}}} and {{{lo.number}}} have the same score and "
            "meet as the rules pair that group (the upper half against the lower half, as near the "
            "order as the earlier opponents and colours allow)."
        )
    else:
        words = (
            f"{{{hi.number}}} ({_points(hi.score)}) floats down to meet {{{lo.number}}} "
            f"({_points(lo.score)}): nobody was left for him in his score group (an odd number, or "
            "players he has met); the rules float as few as possible, from the top down, and not the "
            "same players round after round."
        )
    if two_games:
        return words + " Colours: two games, each player moves first once; lots decide who starts."
    return words + f" Colours: {{{a.number}}} moves first: " + _colour_reason(rd, a, b) + "."


CRITERIA = (
    ("C1", "no rematch"),
    ("C3", "no two players with the same absolute colour preference"),
    ("C2", "the pairing-allocated bye goes to an eligible player"),
    ("C6", "fewest downfloaters, settled from the top score group down"),
    ("C7", "lowest scores of the downfloaters (and of the bye)"),
    ("C10", "fewest absolute colour imbalances left"),
    ("C11", "fewest absolute colour preferences violated"),
    ("C12", "most colour preferences satisfied"),
    ("C13", "most strong colour preferences satisfied"),
    ("C14", "fewest downfloaters who also floated down in the previous round"),
    ("C15", "fewest upfloaters who also floated up in the previous round"),
    ("C16", "fewest downfloaters who also floated down two rounds before"),
    ("C17", "fewest upfloaters who also floated up two rounds before"),
)


def criteria_profile(rd: _Round, pairs: Sequence[DutchPair]) -> dict[str, tuple]:
    """Returns, criterion by criterion (``CRITERIA``), what the pairing costs: lower is better."""
    by = rd.by_number
    groups = sorted({p.score for p in rd.players}, reverse=True)
    out: dict[str, tuple] = {k: (0,) for k, _ in CRITERIA}
    counts = dict.fromkeys(("C1", "C3", "C2", "C10", "C11", "C12", "C13", "C14", "C15", "C16", "C17"), 0)
    floaters = dict.fromkeys(groups, 0)
    for pair in pairs:
        a = by[pair.white]
        if pair.black is None:
            counts["C2"] += not a.bye_eligible
            floaters[a.score] += 1
            continue
        b = by[pair.black]
        hi, lo = (a, b) if not _lower(a, b) else (b, a)
        counts["C1"] += b.number in rd.forbidden.get(a.number, ())
        counts["C3"] += not rd.compatible(a, b) and b.number not in rd.forbidden.get(a.number, ())
        if hi.score > lo.score:
            floaters[hi.score] += 1
        same = a.preference is not None and a.preference == b.preference
        counts["C10"] += same and a.absolute_imbalance and b.absolute_imbalance
        counts["C11"] += same and a.absolute_preference and b.absolute_preference
        counts["C12"] += same
        counts["C13"] += same and (a.strong or a.absolute_preference) and (b.strong or b.absolute_preference)
        for back, down, up in ((1, "C14", "C15"), (2, "C16", "C17")):
            if rd.played_rounds >= back and hi.score > lo.score:
                counts[down] += rd.float_of(hi, back) == FLOAT_DOWN
                counts[up] += rd.float_of(lo, back) == FLOAT_UP
    for key, value in counts.items():
        out[key] = (value,)
    out["C6"] = tuple(floaters[g] for g in groups)
    out["C7"] = tuple(-g for g in groups if floaters[g])
    return out


def deciding_criterion(rd: _Round, ours: Sequence[DutchPair], theirs: Sequence[DutchPair]) -> str:
    """Names the first criterion on which ``theirs`` differs from ``ours`` (better or worse)."""
    if {frozenset((p.white, p.black)) for p in ours} == {frozenset((p.white, p.black)) for p in theirs}:
        return "E (colour allocation)"
    a, b = criteria_profile(rd, ours), criteria_profile(rd, theirs)
    for key, name in CRITERIA:
        if a[key] != b[key]:
            word = "worse" if b[key] > a[key] else "better"
            return f"{key} ({name}): {word} than the Dutch pairing"
    return "B (same criteria: transpositions and exchanges inside a bracket)"


def check_tournament(t: TrfTournament, *, rounds_total: int | None = None) -> list[str]:
    """Checks every round of ``t`` against the Dutch system; returns one line per round that differs."""
    total = rounds_total or t.rounds_total or t.rounds_played
    initial = t.initial_colour or infer_initial_colour(t)
    problems = []
    for k in range(1, t.rounds_played + 1):
        rd = round_of(t.cut(k - 1), rounds_total=total, initial_colour=initial)
        theirs = file_pairs(t, k)
        try:
            ours = pair_round(rd)
        except PairingError as exc:
            problems.append(f"round {k}: {exc}")
            continue
        if set(ours) != set(theirs):
            problems.append(f"round {k}: {deciding_criterion(rd, ours, theirs)}")
    return problems


def file_pairs(t: TrfTournament, k: int) -> list[DutchPair]:
    """Returns the pairs of round ``k`` as the file records them (the U bye included)."""
    out = []
    for p in t.players:
        if len(p.rounds) < k:
            continue
        r = p.rounds[k - 1]
        if r.opponent is not None and (r.colour == WHITE or (r.colour is None and p.number < r.opponent)):
            out.append(DutchPair(p.number, r.opponent))
        elif r.opponent is None and r.paired:
            out.append(DutchPair(p.number, None))
    return out


if __name__ == "__main__":  # pragma: no cover - the command line, tested through main()
    import sys

    from tournaments.pairing.dutch_cli import main

    sys.exit(main())
