"""A maximum-weight matching on a plain weight table: networkx's ``max_weight_matching``, adapted.

The Dutch pairing computes dozens of matchings a round; networkx's function spends most of its
time looking weights up through its graph views. This is the same algorithm (Edmonds' blossom,
primal-dual, O(n^3); Joris van Rantwijk's method, as networkx 3.6.1 writes it) reading the
weights from ``W[v][w]`` (a dict of dicts of integers, symmetric; a missing key: no edge), and
without the final optimality check. Only integer weights are used here, so the arithmetic is
exact. And it can start from the solution of the graph it solved last (``WarmState``): the
pairing's matchings differ from one another in a few vertices' edges, so each is solved in a few
stages from the one before instead of one stage per pair (``_warm_start``; what it adds to the
method: ``max_weight_matching``'s docstring).

Copied from networkx (networkx/algorithms/matching.py), under its licence:

    Copyright (c) 2004-2025, NetworkX Developers
    Aric Hagberg <hagberg@lanl.gov>, Dan Schult <dschult@colgate.edu>, Pieter Swart <swart@lanl.gov>
    All rights reserved. Redistribution and use in source and binary forms, with or without
    modification, are permitted provided that the following conditions are met:
    * Redistributions of source code must retain the above copyright notice, this list of
      conditions and the following disclaimer.
    * Redistributions in binary form must reproduce the above copyright notice, this list of
      conditions and the following disclaimer in the documentation and/or other materials
      provided with the distribution.
    * Neither the name of the NetworkX Developers nor the names of its contributors may be used
      to endorse or promote products derived from this software without specific prior written
      permission.
    THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND ANY EXPRESS
    OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF
    MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE
    COPYRIGHT OWNER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL,
    EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE
    GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND
    ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING
    NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED
    OF THE POSSIBILITY OF SUCH DAMAGE.
"""

# ruff: noqa

from __future__ import annotations

from collections import Counter
from heapq import heappop, heappush
from itertools import repeat


class NoNode:
    """Dummy value which is different from any node."""

class Blossom:
    """Representation of a non-trivial blossom or sub-blossom."""

    __slots__ = ["childs", "edges", "leafcache"]

    # b.childs is an ordered list of b's sub-blossoms, starting with
    # the base and going round the blossom.

    # b.edges is the list of b's connecting edges, such that
    # b.edges[i] = (v, w) where v is a vertex in b.childs[i]
    # and w is a vertex in b.childs[wrap(i+1)].

    # The blossom's leaf vertices, as a list (networkx's generator's order: the solve's path
    # depends on it), kept in b.leafcache (None: not known) until b's children or those of one
    # of its sub-blossoms are rotated (augmentBlossom, which rotates every blossom from the
    # top-level one down to each one it rotates); not to be changed by the caller. (A
    # sub-blossom's leaves come in its own order, so a known list of one is taken whole.)
    def leaves(self):
        out = self.leafcache
        if out is not None:
            return out
        out = []
        stack = [*self.childs]
        while stack:
            t = stack.pop()
            if t.__class__ is Blossom:
                known = t.leafcache
                if known is None:
                    stack.extend(t.childs)
                else:
                    out += known
            else:
                out.append(t)
        self.leafcache = out
        return out



class WarmState:
    """What a matching leaves for the next one on a graph that changed a little (see
    ``max_weight_matching``): the graph it solved, the matching, the dual solution and the blossoms.

    ``scale``: the dual variables are in units of 1 / ``scale`` (2 at first, as networkx's: the
    slack of an edge is ``dualvar[v] + dualvar[w] - scale * W[v][w]``; doubled whenever a dual
    would become a half-integer, halved again when they are all even).
    """

    __slots__ = ("graph", "scale", "mate", "dualvar", "blossomdual", "blossomparent", "blossombase", "inblossom",
                 "stale")

    def __init__(self) -> None:
        self.graph: dict | None = None
        self.scale = 2
        # vertices whose pairs the caller changed in ``mate`` without a solve (an exchange that a dual
        # solution proves; the blossoms around them no longer follow the matching): the next solve
        # unmatches them and takes apart every blossom that holds one, as it does for a changed vertex
        self.stale: set = set()


def _blossoms_of(state):
    """The blossoms of ``state`` (every non-trivial one, at any depth)."""
    return [b for b in state.blossomparent if b.__class__ is Blossom]


def _warm_start(W, state, changed=None, lowered=None):  # noqa: C901, N803
    """Makes ``state`` (a solution of ``state.graph``) the start of a solve of ``W``; returns True.

    ``changed``: the edges that changed between vertices of both graphs (None: found by
    comparing the graphs). The changed edges are covered by some of their ends (those that hold
    most of them); the edges of such a vertex (or of a new one) no longer say anything about the
    old solution: every blossom that holds it (or a vertex that left) is dissolved, its dual
    spread over its vertices (each edge inside it keeps its slack, an edge leaving it gains some,
    so the dual solution stays feasible; its base's matched edge, no longer tight, is undone),
    the vertex is unmatched and its dual set to the least that makes each of its edges feasible.
    The rest of the matching, the duals and the blossoms are kept: a valid start for the
    primal-dual method, which only needs a feasible dual solution, a matching of tight edges and
    blossoms whose edges are tight. When those vertices are more than a third of the graph, every
    blossom is dissolved instead, each changed edge ``(a, b)`` (``a < b``) made feasible by
    raising the dual of ``a``, and only the matched edges that are no longer tight undone. (Why
    ``a``: such a change, in the Dutch pairing, is the remainder's exchange weights, which add to
    each edge an amount that depends on its higher-placed end, the lower-numbered one: raising that
    end by it keeps the matched edges tight, where raising the other end undid most of them; the
    solves of rounds 3 and 4 of 1,000 players that took 2.5 to 2.9 s take 0.5 s. A third, not
    half: with 200 of 417 vertices to unmatch, each given the least dual that makes its edges
    feasible, the solve of the exchange weights in round 5 took 0.95 s, and 0.19 s so.)
    """
    old = state.dualvar  # the vertices of the last graph
    gone = {v for v in old if v not in W}
    dirty = [v for v in W if v not in old]
    new = set(dirty)
    if changed is None:
        before_rows = state.graph
        for v in gone:  # the rows of the old graph without them, to compare with the new ones
            for k in before_rows[v]:
                if k not in gone:
                    del before_rows[k][v]
        changed = []  # the edges that changed (or appeared, or went) between old vertices
        for v, row in W.items():
            before = before_rows.get(v)
            if before is None or row == before:
                continue
            for k, x in row.items():
                if k > v and k in old and before.get(k) != x:
                    changed.append((v, k))
            for k in before:
                if k > v and k not in row:
                    changed.append((v, k))
    dropped = []  # matched edges that only got lighter
    if lowered:
        # An edge that only got lighter (or went) leaves every slack feasible: it matters only if
        # it is matched or holds a blossom together (one of its edges, which must stay tight).
        held = {pair for b in _blossoms_of(state) for pair in b.edges}
        mate = state.mate
        dropped = [(a, b) for a, b in lowered if mate.get(a) == b]
        changed = [*changed, *((a, b) for a, b in lowered if mate.get(a) == b or (a, b) in held or (b, a) in held)]
    ends = Counter(v for edge in changed for v in edge)
    if changed:  # the vertices to unmatch: a cover of those edges, by the ends that hold most of them
        cover = set(dirty)
        for a, b in changed:
            if a not in cover and b not in cover:
                cover.add(a if ends[a] >= ends[b] else b)
        dirty = sorted(cover)
    if state.stale:
        dirty = sorted({*dirty, *(v for v in state.stale if v in W)})
        state.stale = set()
    many = 3 * (len(dirty) + len(gone)) > len(W)
    mate, dualvar = state.mate, state.dualvar
    blossomdual, blossomparent = state.blossomdual, state.blossomparent
    blossombase, inblossom = state.blossombase, state.inblossom

    def dissolve(b):
        z = blossomdual.pop(b)
        if z:
            for u in b.leaves():
                dualvar[u] += z
            base = blossombase[b]
            if base in mate:
                del mate[mate.pop(base)]
        for c in b.childs:
            blossomparent[c] = None
            if isinstance(c, Blossom):
                for u in c.leaves():
                    inblossom[u] = c
            else:
                inblossom[c] = c
        del blossomparent[b]
        del blossombase[b]

    scale = state.scale

    def single(v: int) -> None:  # a vertex of its own: its own blossom, dual 0 until set
        inblossom[v] = blossombase[v] = v
        blossomparent[v] = None
        dualvar[v] = 0

    def least_feasible_dual(v: int) -> int:  # the least dual that makes every edge of v feasible
        need = 0
        for w, x in W[v].items():
            if w != v and scale * x - dualvar[w] > need:
                need = scale * x - dualvar[w]
        return need

    if many:
        # Most of the graph changed: every blossom dissolved, the duals kept (each changed
        # edge made feasible by raising one end), the matched edges still tight kept.
        # (what ``dissolve`` does to each blossom, top-down, in one walk of each top-level one:
        # a vertex gains the duals of all the blossoms around it, and each base of a blossom
        # with a dual is unmatched, in whatever order)
        for top in [b for b, parent in blossomparent.items() if parent is None and isinstance(b, Blossom)]:
            stack = [(top, 0)]
            while stack:
                b, z = stack.pop()
                own = blossomdual.pop(b)
                if own:
                    base = blossombase[b]
                    if base in mate:
                        del mate[mate.pop(base)]
                z += own
                for c in b.childs:
                    if isinstance(c, Blossom):
                        stack.append((c, z))
                    else:
                        dualvar[c] += z
                        inblossom[c] = c
                        blossomparent[c] = None
                del blossomparent[b]
                del blossombase[b]
        for v in gone:
            if v in mate:
                del mate[mate.pop(v)]
            del dualvar[v], inblossom[v], blossomparent[v], blossombase[v]
        for v in W:
            if v not in inblossom:
                single(v)
        for a, b in changed:  # (a < b: the Dutch pairing's changes of this size add to the higher-placed end's edges)
            lack = scale * W[a].get(b, 0) - dualvar[a] - dualvar[b]
            if lack > 0:
                dualvar[a] += lack
        for v in dirty:
            if v in new:
                dualvar[v] = least_feasible_dual(v)
        # A matched edge that only got lighter stays matched if one end's dual can come down by
        # its slack, every edge of that end keeping a slack of at least 0 (a remainder's weights
        # put back lower every edge of each S1 player by the same amount).
        for a, b in dropped:
            if mate.get(a) != b or b not in W[a]:
                continue
            gap = dualvar[a] + dualvar[b] - scale * W[a][b]
            for end in (a, b) if gap > 0 else ():
                d = dualvar[end] - gap
                if d >= 0 and all(d + dualvar[u] >= scale * y for u, y in W[end].items() if u != end):
                    dualvar[end] = d
                    break
        for v in list(mate):
            w = mate.get(v)
            if w is not None and (w not in W[v] or dualvar[v] + dualvar[w] != scale * W[v][w]):
                del mate[v], mate[w]
    else:
        for v in (*gone, *dirty):
            if v not in inblossom:
                continue
            while inblossom[v] != v:
                dissolve(inblossom[v])
            if v in mate:
                del mate[mate.pop(v)]
        for v in gone:
            del dualvar[v], inblossom[v], blossomparent[v], blossombase[v]
        for v in dirty:
            if v not in inblossom:
                single(v)
        for v in dirty:
            dualvar[v] = least_feasible_dual(v)
    while scale > 2 and not any(d & 1 for d in dualvar.values()) and not any(z & 1 for z in blossomdual.values()):
        for v in dualvar:
            dualvar[v] >>= 1
        for b in blossomdual:
            blossomdual[b] >>= 1
        scale >>= 1
    state.scale = scale
    return True


def max_weight_matching(  # noqa: C901
    W: dict[int, dict[int, int]],  # noqa: N803
    changed: list[tuple[int, int]] | None = None,
    *,
    state: WarmState | None = None,
    lowered: list[tuple[int, int]] | None = None,
) -> dict[int, int]:
    """Returns the maximum-weight matching of ``W`` as a dict vertex -> mate.

    With ``state``, the solve starts from the solution ``state`` holds (of the graph it was last
    given) and leaves its own there: when only a few vertices' edges changed since, only those
    few are unmatched and the rest of the solution is kept (``_warm_start``), and the method
    needs a few stages instead of one per pair. ``W`` then belongs to ``state``: the next call
    compares its graph with it (and takes the vertices that left out of it). Unless it is told
    what changed: ``changed``, the edges between vertices of both graphs whose weight changed
    (or that appeared or went) since the last call; then ``W`` may be the last graph itself,
    updated in place. ``lowered``: more such edges, that only got lighter or went; each
    slack only grows, so only those that are matched or hold a blossom together are taken as
    changed (the rest of the pairing's rewrites of a remainder, some 14,000 edges a bracket of
    1,000 players, as changed they unmatched most of the graph).

    Because a kept solution has single vertices whose duals differ (networkx's method keeps them
    all equal), three steps are added to it: only singles whose dual is positive grow trees (a
    single with dual 0 is already where an optimum may leave it); a tight edge from a tree to
    such a single is an augmenting path; and when the dual of a tree's vertex reaches 0 before
    the root's (delta1), the path from the root to it is flipped, leaving that vertex single.
    And the duals are doubled (with the weights' factor) when one would become a half-integer.
    Started from nothing, each vertex's dual is the heaviest of its edges, lowered by half its
    least slack, then lowered until one of its edges is tight, and matched along it if the other
    end is still single (a greedy start: fewer stages than networkx's, where every dual starts
    equal and every vertex single).
    """
    #
    # The algorithm is taken from "Efficient Algorithms for Finding Maximum
    # Matching in Graphs" by Zvi Galil, ACM Computing Surveys, 1986.
    # It is based on the "blossom" method for finding augmenting paths and
    # the "primal-dual" method for finding a matching of maximum weight, both
    # methods invented by Jack Edmonds.
    #
    # A C program for maximum weight matching by Ed Rothberg was used
    # extensively to validate this new code.
    #
    # Many terms used in the code comments are explained in the paper
    # by Galil. You will probably need the paper to make sense of this code.
    #

    # Get a list of vertices.
    gnodes = list(W)
    if not gnodes:
        if state is not None:
            state.graph = None
        return {}  # don't bother with empty graphs

    # label.get(b): None if b is unlabeled (free), 1 if b is an S-blossom, 2 if a T-blossom.
    # If v is a vertex inside a T-blossom, label[v] is 2 iff v is reachable
    # from an S-vertex outside the blossom.
    label = {}

    # labeledge[b] = (v, w) is the edge through which b obtained its label
    # such that w is a vertex in b, or None if b's base vertex is single.
    labeledge = {}

    # bestedge[w] = (v, w): the least-slack edge from an S-vertex to the free vertex w.
    bestedge = {}

    # The edges between S-vertices of different blossoms, for delta3 (networkx keeps the
    # least-slack one of each S-blossom, and computes a new blossom's from its sub-blossoms'
    # lists or its vertices' edges): a heap of (slack + spent, v, w), the least-slack such edge
    # that the scan of the S-vertex v met (an edge to a vertex that becomes S later is met by
    # that one's scan). Both ends stay S for the rest of the stage, so every dual update takes
    # twice its delta off every such slack, which ``spent`` counts instead: the least key is the
    # least slack, once each entry whose edge a blossom has taken inside since is replaced by
    # its vertex's least-slack edge to another S-blossom then.
    sedges = []

    # If (v, w) in allowedge or (w, v) in allowedg, then the edge
    # (v, w) is known to have zero slack in the optimization problem;
    # otherwise the edge may or may not have zero slack.
    allowedge = {}  # (kept as a set of the other ends for each vertex)

    def allow(v, w):
        allowed = allowedge.get(v)
        if allowed is None:
            allowedge[v] = {w}
        else:
            allowed.add(w)
        allowed = allowedge.get(w)
        if allowed is None:
            allowedge[w] = {v}
        else:
            allowed.add(v)

    # bestslack[k] = (bestedge[k], its slack), written when it is set and valid while the duals
    # do not change (cleared when they do): saves computing the slack of the best edge again
    # at each comparison.
    bestslack = {}

    warm = state is not None and state.graph is not None and _warm_start(W, state, changed, lowered)
    if state is not None and not warm:
        state.stale = set()
    if warm:
        scale = state.scale
        mate, dualvar = state.mate, state.dualvar
        blossomdual, blossomparent = state.blossomdual, state.blossomparent
        blossombase, inblossom = state.blossombase, state.inblossom
    else:
        scale = 2

        # mate[v]: the partner of the matched vertex v (single vertices are not keys).
        mate = {}

        # inblossom[v]: the top-level blossom to which the vertex v belongs (v itself if none).
        inblossom = dict(zip(gnodes, gnodes))

        # blossomparent[b]: the immediate parent (sub-)blossom of b, None for a top-level one.
        blossomparent = dict(zip(gnodes, repeat(None)))

        # blossombase[b]: the base VERTEX of the (sub-)blossom b.
        blossombase = dict(zip(gnodes, gnodes))

        # dualvar[v] = scale * u(v) where u(v) is the v's variable in the dual
        # optimization problem (integers throughout). Initially, u(v) is half the heaviest of v's
        # edges (networkx's: half the heaviest of all).
        # (a row without a self-loop, as the pairing's are: its heaviest by max() over the values, in C)
        dualvar = {
            v: max(row.values(), default=0) if v not in row else max((x for w, x in row.items() if w != v), default=0)
            for v, row in W.items()
        }
        # Then each lowered by half its least slack (all computed first): an edge keeps a slack
        # of at least 0 (each end is lowered by at most half of it), and the edges that are the
        # least-slack one of both their ends become tight, for the greedy pass below to match
        # along. Where many edges weigh the same (a score group's pairs), this makes them all
        # tight at once; lowering one vertex at a time made its edges tight to the others and
        # left those single (the first matching of round 2 of 1,000 players: 374 singles of
        # 676, 1.6 s; now 26, 0.5 s).
        least = {}
        for v, row in W.items():
            dv = need = dualvar[v]
            for w, x in row.items():
                if w != v:
                    kslack = dv + dualvar[w] - scale * x
                    if kslack < need:
                        need = kslack
            least[v] = need
        for v, need in least.items():
            dualvar[v] -= need >> 1

        # blossomdual[b] = scale * z(b) / 2, z(b) being b's variable in the dual problem.
        blossomdual = {}

    # A greedy start: each single vertex's dual lowered until one of its edges is tight, and
    # matched along it when the other end is single.
    for v in gnodes:
        dv = dualvar[v]
        if not dv or v in mate or inblossom[v] != v:
            continue
        # (one pass: the least slack, and the first single end in the row of an edge that has it)
        least = dv
        pick = None
        for w, x in W[v].items():
            if w != v:
                kslack = dv + dualvar[w] - scale * x
                if kslack < least:
                    least = kslack
                    pick = None if w in mate else w
                elif kslack == least and pick is None and w not in mate:
                    pick = w
        dualvar[v] = dv - least
        if pick is not None:
            mate[v] = pick
            mate[pick] = v

    # Queue of newly discovered S-vertices.
    queue = []

    # Return 2 * slack of edge (v, w) (does not work inside blossoms), times scale / 2.
    def slack(v, w):
        return dualvar[v] + dualvar[w] - scale * W[v][w]

    # Assign label t to the top-level blossom containing vertex w,
    # coming through an edge from vertex v.
    def assignLabel(w, t, v):
        b = inblossom[w]
        assert label.get(w) is None and label.get(b) is None
        label[w] = label[b] = t
        if v is not None:
            labeledge[w] = labeledge[b] = (v, w)
        else:
            labeledge[w] = labeledge[b] = None
        bestedge[w] = bestedge[b] = None
        if t == 1:
            # b became an S-vertex/blossom; add it(s vertices) to the queue.
            if isinstance(b, Blossom):
                queue.extend(b.leaves())
            else:
                queue.append(b)
        elif t == 2:
            # b became a T-vertex/blossom; assign label S to its mate.
            # (If b is a non-trivial blossom, its base is the only vertex
            # with an external mate.)
            base = blossombase[b]
            assignLabel(mate[base], 1, base)

    # Trace back from vertices v and w to discover either a new blossom
    # or an augmenting path. Return the base vertex of the new blossom,
    # or NoNode if an augmenting path was found.
    def scanBlossom(v, w):
        # Trace back from v and w, placing breadcrumbs as we go.
        path = []
        base = NoNode
        while v is not NoNode:
            # Look for a breadcrumb in v's blossom or put a new breadcrumb.
            b = inblossom[v]
            if label[b] & 4:
                base = blossombase[b]
                break
            assert label[b] == 1
            path.append(b)
            label[b] = 5
            # Trace one step back.
            if labeledge[b] is None:
                # The base of blossom b is single; stop tracing this path.
                assert blossombase[b] not in mate
                v = NoNode
            else:
                assert labeledge[b][0] == mate[blossombase[b]]
                v = labeledge[b][0]
                b = inblossom[v]
                assert label[b] == 2
                # b is a T-blossom; trace one more step back.
                v = labeledge[b][0]
            # Swap v and w so that we alternate between both paths.
            if w is not NoNode:
                v, w = w, v
        # Remove breadcrumbs.
        for b in path:
            label[b] = 1
        # Return base vertex, if we found one.
        return base

    # Construct a new blossom with given base, through S-vertices v and w.
    # Label the new blossom as S; set its dual variable to zero;
    # relabel its T-vertices to S and add them to the queue.
    def addBlossom(base, v, w):
        bb = inblossom[base]
        bv = inblossom[v]
        bw = inblossom[w]
        # Create blossom.
        b = Blossom()
        b.leafcache = None
        blossombase[b] = base
        blossomparent[b] = None
        blossomparent[bb] = b
        # Make list of sub-blossoms and their interconnecting edge endpoints.
        b.childs = path = []
        b.edges = edgs = [(v, w)]
        # Trace back from v to base.
        while bv != bb:
            # Add bv to the new blossom.
            blossomparent[bv] = b
            path.append(bv)
            edgs.append(labeledge[bv])
            assert label[bv] == 2 or (label[bv] == 1 and labeledge[bv][0] == mate[blossombase[bv]])
            # Trace one step back.
            v = labeledge[bv][0]
            bv = inblossom[v]
        # Add base sub-blossom; reverse lists.
        path.append(bb)
        path.reverse()
        edgs.reverse()
        # Trace back from w to base.
        while bw != bb:
            # Add bw to the new blossom.
            blossomparent[bw] = b
            path.append(bw)
            edgs.append((labeledge[bw][1], labeledge[bw][0]))
            assert label[bw] == 2 or (label[bw] == 1 and labeledge[bw][0] == mate[blossombase[bw]])
            # Trace one step back.
            w = labeledge[bw][0]
            bw = inblossom[w]
        # Set label to S.
        assert label[bb] == 1
        label[b] = 1
        labeledge[b] = labeledge[bb]
        # Set dual variable to zero.
        blossomdual[b] = 0
        # Relabel vertices.
        for v in b.leaves():
            if label[inblossom[v]] == 2:
                # This T-vertex now turns into an S-vertex because it becomes
                # part of an S-blossom; add it to the queue.
                queue.append(v)
            inblossom[v] = b
        # (its edges to the other S-blossoms are in ``sedges`` already: no best edges to compute)
        for bv in path:
            bestedge[bv] = None

    # Expand the given top-level blossom.
    def expandBlossom(b, endstage):
        # This is an obnoxiously complicated recursive function for the sake of
        # a stack-transformation.  So, we hack around the complexity by using
        # a trampoline pattern.  By yielding the arguments to each recursive
        # call, we keep the actual callstack flat.

        def _recurse(b, endstage):
            # Convert sub-blossoms into top-level blossoms.
            for s in b.childs:
                blossomparent[s] = None
                if isinstance(s, Blossom):
                    if endstage and blossomdual[s] == 0:
                        # Recursively expand this sub-blossom.
                        yield s
                    else:
                        for v in s.leaves():
                            inblossom[v] = s
                else:
                    inblossom[s] = s
            # If we expand a T-blossom during a stage, its sub-blossoms must be
            # relabeled.
            if (not endstage) and label.get(b) == 2:
                # Start at the sub-blossom through which the expanding
                # blossom obtained its label, and relabel sub-blossoms untili
                # we reach the base.
                # Figure out through which sub-blossom the expanding blossom
                # obtained its label initially.
                entrychild = inblossom[labeledge[b][1]]
                # Decide in which direction we will go round the blossom.
                j = b.childs.index(entrychild)
                if j & 1:
                    # Start index is odd; go forward and wrap.
                    j -= len(b.childs)
                    jstep = 1
                else:
                    # Start index is even; go backward.
                    jstep = -1
                # Move along the blossom until we get to the base.
                v, w = labeledge[b]
                while j != 0:
                    # Relabel the T-sub-blossom.
                    if jstep == 1:
                        p, q = b.edges[j]
                    else:
                        q, p = b.edges[j - 1]
                    label[w] = None
                    label[q] = None
                    assignLabel(w, 2, v)
                    # Step to the next S-sub-blossom and note its forward edge.
                    allow(p, q)
                    j += jstep
                    if jstep == 1:
                        v, w = b.edges[j]
                    else:
                        w, v = b.edges[j - 1]
                    # Step to the next T-sub-blossom.
                    allow(v, w)
                    j += jstep
                # Relabel the base T-sub-blossom WITHOUT stepping through to
                # its mate (so don't call assignLabel).
                bw = b.childs[j]
                label[w] = label[bw] = 2
                labeledge[w] = labeledge[bw] = (v, w)
                bestedge[bw] = None
                # Continue along the blossom until we get back to entrychild.
                j += jstep
                while b.childs[j] != entrychild:
                    # Examine the vertices of the sub-blossom to see whether
                    # it is reachable from a neighboring S-vertex outside the
                    # expanding blossom.
                    bv = b.childs[j]
                    if label.get(bv) == 1:
                        # This sub-blossom just got label S through one of its
                        # neighbors; leave it be.
                        j += jstep
                        continue
                    if isinstance(bv, Blossom):
                        for v in bv.leaves():
                            if label.get(v):
                                break
                    else:
                        v = bv
                    # If the sub-blossom contains a reachable vertex, assign
                    # label T to the sub-blossom.
                    if label.get(v):
                        assert label[v] == 2
                        assert inblossom[v] == bv
                        label[v] = None
                        label[mate[blossombase[bv]]] = None
                        assignLabel(v, 2, labeledge[v][0])
                    j += jstep
            # Remove the expanded blossom entirely.
            label.pop(b, None)
            labeledge.pop(b, None)
            bestedge.pop(b, None)
            del blossomparent[b]
            del blossombase[b]
            del blossomdual[b]

        # Now, we apply the trampoline pattern.  We simulate a recursive
        # callstack by maintaining a stack of generators, each yielding a
        # sequence of function arguments.  We grow the stack by appending a call
        # to _recurse on each argument tuple, and shrink the stack whenever a
        # generator is exhausted.
        stack = [_recurse(b, endstage)]
        while stack:
            top = stack[-1]
            for s in top:
                stack.append(_recurse(s, endstage))
                break
            else:
                stack.pop()

    # Swap matched/unmatched edges over an alternating path through blossom b
    # between vertex v and the base vertex. Keep blossom bookkeeping
    # consistent.
    def augmentBlossom(b, v):
        # This is an obnoxiously complicated recursive function for the sake of
        # a stack-transformation.  So, we hack around the complexity by using
        # a trampoline pattern.  By yielding the arguments to each recursive
        # call, we keep the actual callstack flat.

        def _recurse(b, v):
            # Bubble up through the blossom tree from vertex v to an immediate
            # sub-blossom of b.
            t = v
            while blossomparent[t] != b:
                t = blossomparent[t]
            # Recursively deal with the first sub-blossom.
            if isinstance(t, Blossom):
                yield (t, v)
            # Decide in which direction we will go round the blossom.
            i = j = b.childs.index(t)
            if i & 1:
                # Start index is odd; go forward and wrap.
                j -= len(b.childs)
                jstep = 1
            else:
                # Start index is even; go backward.
                jstep = -1
            # Move along the blossom until we get to the base.
            while j != 0:
                # Step to the next sub-blossom and augment it recursively.
                j += jstep
                t = b.childs[j]
                if jstep == 1:
                    w, x = b.edges[j]
                else:
                    x, w = b.edges[j - 1]
                if isinstance(t, Blossom):
                    yield (t, w)
                # Step to the next sub-blossom and augment it recursively.
                j += jstep
                t = b.childs[j]
                if isinstance(t, Blossom):
                    yield (t, x)
                # Match the edge connecting those sub-blossoms.
                mate[w] = x
                mate[x] = w
            # Rotate the list of sub-blossoms to put the new base at the front.
            b.childs = b.childs[i:] + b.childs[:i]
            b.leafcache = None
            b.edges = b.edges[i:] + b.edges[:i]
            blossombase[b] = blossombase[b.childs[0]]
            assert blossombase[b] == v

        # Now, we apply the trampoline pattern.  We simulate a recursive
        # callstack by maintaining a stack of generators, each yielding a
        # sequence of function arguments.  We grow the stack by appending a call
        # to _recurse on each argument tuple, and shrink the stack whenever a
        # generator is exhausted.
        stack = [_recurse(b, v)]
        while stack:
            top = stack[-1]
            for args in top:
                stack.append(_recurse(*args))
                break
            else:
                stack.pop()

    # Swap matched/unmatched edges over an alternating path between two
    # single vertices. The augmenting path runs through S-vertices v and w.
    def augmentMatching(v, w):
        for s, j in ((v, w), (w, v)):
            if label.get(inblossom[s]) is None:
                # s: a single vertex of dual 0 (or a blossom whose base is one), not a root.
                if isinstance(inblossom[s], Blossom):
                    augmentBlossom(inblossom[s], s)
                mate[s] = j
                continue
            # Match vertex s to vertex j. Then trace back from s
            # until we find a single vertex, swapping matched and unmatched
            # edges as we go.
            while 1:
                bs = inblossom[s]
                assert label[bs] == 1
                assert (labeledge[bs] is None and blossombase[bs] not in mate) or (
                    labeledge[bs][0] == mate[blossombase[bs]]
                )
                # Augment through the S-blossom from s to base.
                if isinstance(bs, Blossom):
                    augmentBlossom(bs, s)
                # Update mate[s]
                mate[s] = j
                # Trace one step back.
                if labeledge[bs] is None:
                    # Reached single vertex; stop.
                    break
                t = labeledge[bs][0]
                bt = inblossom[t]
                assert label[bt] == 2
                # Trace one more step back.
                s, j = labeledge[bt]
                # Augment through the T-blossom from j to base.
                assert blossombase[bt] == t
                if isinstance(bt, Blossom):
                    augmentBlossom(bt, j)
                # Update mate[j]
                mate[j] = s

    # Return the top-level blossom at the root of the tree of the S-vertex s.
    def rootOf(s):
        while 1:
            bs = inblossom[s]
            if labeledge[bs] is None:
                return bs
            s = labeledge[inblossom[labeledge[bs][0]]][0]

    # Swap matched/unmatched edges over the alternating path from the S-vertex x
    # to its tree's root: the root is matched, x is left single.
    def flipToRoot(x):
        s, j = x, None
        while 1:
            bs = inblossom[s]
            if isinstance(bs, Blossom):
                augmentBlossom(bs, s)
            if j is None:
                mate.pop(s, None)
            else:
                mate[s] = j
            if labeledge[bs] is None:
                break
            t = labeledge[bs][0]
            bt = inblossom[t]
            s, j = labeledge[bt]
            if isinstance(bt, Blossom):
                augmentBlossom(bt, j)
            mate[j] = s

    # After an augmentation along tight edges the stage goes on with the trees the path did not
    # touch (their labels, and the tight edges known, stay valid: no dual changed), until no tree
    # can grow without a dual change; then the stage ends as networkx's ends after its one
    # augmentation (every label taken off, the S-blossoms of dual 0 expanded). The trees of the
    # path's two roots are taken apart at once, as that end would (``drop_trees``). networkx
    # ends the stage at the first augmentation, so a solve from many singles (the first matching
    # of a bracket: 50-800 singles after the greedy start) took one stage, each labelling and
    # scanning every tree again, for each augmenting path.
    def root_of(b, roots):
        """The top-level blossom (or vertex) at the root of the tree of the labelled top-level ``b``."""
        path = []
        while True:
            found = roots.get(b)
            if found is not None:
                break
            edge = labeledge.get(b)
            if edge is None:
                found = b
                break
            path.append(b)
            assert len(path) <= len(label), "the tree's edges go round in a cycle"
            b = inblossom[edge[0]]
        for c in path:
            roots[c] = found
        return found

    def drop_trees(doomed, roots):
        """Takes the labels off every tree whose root is in ``doomed``, its S-blossoms of dual 0
        expanded (what the end of a stage does)."""
        tops = [
            k for k in label if (blossomparent.get(k) is None and k in blossomdual if k.__class__ is Blossom else inblossom[k] == k)
        ]
        for b in [b for b in tops if root_of(b, roots) in doomed]:  # (all found before any is taken apart)
            leaves = b.leaves() if b.__class__ is Blossom else (b,)
            if b.__class__ is Blossom and label.get(b) == 1 and blossomdual[b] == 0:
                expandBlossom(b, True)
            label.pop(b, None)
            labeledge.pop(b, None)
            for u in leaves:
                label.pop(u, None)
                labeledge.pop(u, None)
                c = blossomparent[u]
                while c is not None:  # (a sub-blossom keeps the label it had before it was taken in)
                    label.pop(c, None)
                    labeledge.pop(c, None)
                    c = blossomparent[c]

    # Main loop: continue until every single vertex has dual 0.
    while 1:
        # Each iteration of this loop is a "stage".
        # A stage finds an augmenting path and uses that to improve
        # the matching.

        # Remove labels from top-level blossoms/vertices.
        label.clear()
        labeledge.clear()

        # Forget all about least-slack edges.
        bestedge.clear()
        bestslack.clear()
        sedges.clear()
        spent = 0  # twice the deltas of the stage: what has been taken off the slacks in sedges

        # Loss of labeling means that we can not be sure that currently
        # allowable edges remain allowable throughout this stage.
        allowedge.clear()

        # Make queue empty.
        queue[:] = []

        # Label single blossoms/vertices whose dual is positive with S and put them in the queue.
        for v in gnodes:
            if (v not in mate) and dualvar[v] > 0 and label.get(inblossom[v]) is None:
                assignLabel(v, 1, None)
        if not queue:
            break

        # Loop until we succeed in augmenting the matching.
        augmented = 0
        while 1:
            # Each iteration of this loop is a "substage".
            # A substage tries to find an augmenting path;
            # if found, the path is used to improve the matching and
            # the stage ends. If there is no augmenting path, the
            # primal-dual method is used to pump some slack out of
            # the dual variables.

            # Continue labeling until all vertices which are reachable
            # through an alternating path have got a label.
            while queue:
                # Take an S vertex from the queue (none of a tree an augmentation took apart).
                v = queue.pop()
                if label.get(inblossom[v]) != 1:
                    continue

                # Scan its neighbors (v's dual and blossom do not change meanwhile, but for a
                # new blossom: bv is read again after addBlossom):
                dv = dualvar[v]
                bv = inblossom[v]
                allowed_v = allowedge.get(v, ())  # (v's set, if any, is only added to in this loop)
                sbest = sbest_w = None  # v's least-slack non-allowable edge to another S-blossom
                for w, x in W[v].items():
                    # w is a neighbor to v
                    bw = inblossom[w]
                    if bv is bw:
                        # this edge is internal to a blossom (or a self-loop); ignore it
                        # (``is``: inblossom holds one object for each top-level blossom or
                        # single vertex, and comparing a blossom with a vertex by ``==`` is slow)
                        continue
                    if w in allowed_v:
                        allowed = True
                    else:
                        kslack = dv + dualvar[w] - scale * x
                        allowed = kslack <= 0
                        if allowed:
                            # edge k has zero slack => it is allowable (``allow``, inlined)
                            if allowed_v:
                                allowed_v.add(w)
                            else:
                                allowed_v = allowedge[v] = {w}
                            allowed_w = allowedge.get(w)
                            if allowed_w is None:
                                allowedge[w] = {v}
                            else:
                                allowed_w.add(v)
                    lbw = label.get(bw)
                    if allowed:
                        if lbw is None:
                            if blossombase[bw] not in mate:
                                # w's blossom has a single base of dual 0: augment.
                                roots = {}
                                doomed = {root_of(bv, roots)}
                                augmentMatching(v, w)
                                drop_trees(doomed, roots)
                                augmented = 1
                                break
                            # (C1) w is a free vertex;
                            # label w with T and label its mate with S (R12).
                            assignLabel(w, 2, v)
                        elif lbw == 1:
                            # (C2) w is an S-vertex (not in the same blossom);
                            # follow back-links to discover either an
                            # augmenting path or a new blossom.
                            base = scanBlossom(v, w)
                            if base is not NoNode:
                                # Found a new blossom; add it to the blossom
                                # bookkeeping and turn it into an S-blossom.
                                addBlossom(base, v, w)
                                bv = inblossom[v]
                            else:
                                # Found an augmenting path; augment the
                                # matching and take the two trees apart.
                                roots = {}
                                doomed = {root_of(bv, roots), root_of(bw, roots)}
                                augmentMatching(v, w)
                                drop_trees(doomed, roots)
                                augmented = 1
                                break
                        elif label.get(w) is None:
                            # w is inside a T-blossom, but w itself has not
                            # yet been reached from outside the blossom;
                            # mark it as reached (we need this to relabel
                            # during T-blossom expansion).
                            assert label[bw] == 2
                            label[w] = 2
                            labeledge[w] = (v, w)
                    elif lbw == 1:
                        # a non-allowable edge to a different S-blossom: for delta3.
                        if sbest_w is None or kslack < sbest:
                            sbest, sbest_w = kslack, w
                    elif label.get(w) is None:
                        # w is a free vertex (or an unreached vertex inside
                        # a T-blossom) but we can not reach it yet;
                        # keep track of the least-slack edge that reaches w.
                        best = bestedge.get(w)
                        if best is None or kslack < (
                            known[1] if (known := bestslack.get(w)) is not None and known[0] is best else slack(*best)
                        ):
                            bestedge[w] = best = (v, w)
                            bestslack[w] = (best, kslack)
                else:
                    if sbest_w is not None:
                        heappush(sedges, (sbest + spent, v, sbest_w))

            if augmented:
                break

            # There is no augmenting path under these constraints;
            # compute delta and reduce slack in the optimization problem.
            # (Note that our vertex dual variables, edge slacks and delta's
            # are pre-multiplied by two.)
            deltatype = -1
            delta = deltaedge = deltablossom = None

            # The S-, T- and free vertices, in the graph's order (their labels hold until the
            # duals are updated).
            svs, tvs, fvs = [], [], []
            for v in gnodes:
                lb = label.get(inblossom[v])
                if lb == 1:
                    svs.append(v)
                elif lb == 2:
                    tvs.append(v)
                else:
                    fvs.append(v)

            # Compute delta1: the minimum dual of an S-vertex.
            deltatype = 1
            delta = min(map(dualvar.__getitem__, svs))

            # Compute delta2: the minimum slack on any edge between
            # an S-vertex and a free vertex.
            for v in fvs:
                if bestedge.get(v) is not None:
                    d = slack(*bestedge[v])
                    if d < delta:
                        delta = d
                        deltatype = 2
                        deltaedge = bestedge[v]

            # Compute delta3: half the minimum slack on any edge between
            # a pair of S-blossoms (the edges a blossom has taken inside dropped first).
            while sedges:
                key, v, w = sedges[0]
                bv = inblossom[v]
                if bv is not inblossom[w]:
                    break
                heappop(sedges)
                dv, sbest_w = dualvar[v], None
                for w, x in W[v].items():
                    bw = inblossom[w]
                    if bw is not bv and label.get(bw) == 1:
                        kslack = dv + dualvar[w] - scale * x
                        if sbest_w is None or kslack < sbest:
                            sbest, sbest_w = kslack, w
                if sbest_w is not None:
                    heappush(sedges, (sbest + spent, v, sbest_w))
            kslack = 0
            if sedges:
                key, v, w = sedges[0]
                kslack = key - spent
                d = kslack // 2
                if not kslack & 1 and d < delta:
                    delta = d
                    deltatype = 3
                    deltaedge = (v, w)
            if kslack & 1:
                # Roots of unequal parity (a warm start): double the duals and the weights.
                scale *= 2
                spent *= 2
                sedges[:] = [(key * 2, v, w) for key, v, w in sedges]  # (still a heap)
                bestslack.clear()
                for v in dualvar:
                    dualvar[v] *= 2
                for b in blossomdual:
                    blossomdual[b] *= 2
                continue

            # Compute delta4: minimum z variable of any T-blossom.
            for b in blossomdual:
                if (
                    blossomparent[b] is None
                    and label.get(b) == 2
                    and blossomdual[b] < delta
                ):
                    delta = blossomdual[b]
                    deltatype = 4
                    deltablossom = b

            # Update dual variables according to delta.
            bestslack.clear()
            spent += 2 * delta
            for v in svs:
                # S-vertex: 2*u = 2*u - 2*delta
                dualvar[v] -= delta
            for v in tvs:
                # T-vertex: 2*u = 2*u + 2*delta
                dualvar[v] += delta
            for b in blossomdual:
                if blossomparent[b] is None:
                    if label.get(b) == 1:
                        # top-level S-blossom: z = z + 2*delta
                        blossomdual[b] += delta
                    elif label.get(b) == 2:
                        # top-level T-blossom: z = z - 2*delta
                        blossomdual[b] -= delta

            # Take action at the point where minimum delta occurred.
            if deltatype == 1:
                # Some S-vertices' duals reached 0. A root among them may stay single; in
                # another tree one of them is left single instead of its root.
                done = set()
                for v in gnodes:
                    if dualvar[v] == 0 and label.get(inblossom[v]) == 1:
                        root = rootOf(v)
                        if root not in done:
                            done.add(root)
                            if dualvar[blossombase[root]]:
                                flipToRoot(v)
                augmented = 1
                break
            elif deltatype == 2:
                # Use the least-slack edge to continue the search.
                (v, w) = deltaedge
                assert label[inblossom[v]] == 1
                allow(v, w)
                queue.append(v)
            elif deltatype == 3:
                # Use the least-slack edge to continue the search.
                (v, w) = deltaedge
                allow(v, w)
                assert label[inblossom[v]] == 1
                queue.append(v)
            elif deltatype == 4:
                # Expand the least-z blossom.
                expandBlossom(deltablossom, False)

            # End of a this substage.

        # Paranoia check that the matching is symmetric.
        for v in mate:
            assert mate[mate[v]] == v

        # End of a stage; expand all S-blossoms which have zero dual.
        for b in list(blossomdual.keys()):
            if b not in blossomdual:
                continue  # already expanded
            if blossomparent[b] is None and label.get(b) == 1 and blossomdual[b] == 0:
                expandBlossom(b, True)

    if state is None:
        return mate
    state.graph, state.scale, state.mate, state.dualvar = W, scale, mate, dualvar
    state.blossomdual, state.blossomparent = blossomdual, blossomparent
    state.blossombase, state.inblossom = blossombase, inblossom
    return dict(mate)
