"""Swiss pairing by a maximum-weight matching (networkx), explainable pairing by pairing.

Pairs are edges of a graph of the active players (there is no edge between players who have
met), and ``networkx.max_weight_matching`` picks them; a low score group never ends up
unpairable because of choices made above it (see the end of this docstring). Edge weights give
the criteria in this order:

1. never a rematch (such edges do not exist), and everybody paired (maximum cardinality);
2. the smallest score differences (the sum of squared differences, so two floats of one
   step beat one float of two steps);
3. rating order: inside a score group the top half meets the bottom half (1st v (m/2+1)th,
   ...); a floater is the lowest of his group and meets the highest of the group below;
4. colours: a player who had Black first in his last match gets White first, and the other way
   round (a match gives both players both colours anyway, so this comes last: 1 and 2 are
   strictly lexicographic, while a colour clash weighs half a place of rating order).

The bye (odd number of active players) goes to the player without a bye who has the lowest
score, then the lowest rating, then the highest id, provided the others can still be paired;
otherwise to the next such player.

Up to ``dense_up_to`` (100) active players the matching is over every permitted pair, so its
result is the optimum of the weights (0.13 s of CPU for 100 players, 1 s for 200). Beyond, for
speed, each player is joined only to the few players nearest his ideal opponent (below), which
may miss the optimum when it needs a long float. Up to ``exact_up_to`` (400) active players one
matching covers them all. Beyond, for speed,
the matching is solved bracket by bracket, top down, each window being the players
still unpaired (downfloaters and the current score group) plus the next score group (as
opponents for downfloaters); and each window's graph is sparse: each player is joined to the
few players nearest his ideal opponent in his group and to the top of the next group. When a
window cannot pair its players the graph is widened to all permitted pairs; if the last window
still cannot pair everybody, one global matching over all players decides, widening up to all
permitted pairs. So neither shortcut ever makes a pairable round unpairable; they can give a
pairing that is not the global optimum of the weights (the windows go top down, and a choice
made in a higher group is revisited only when a lower group is left unpairable).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tournaments.pairing.types import Pairing, PairingError

BLACK = "B"
WHITE = "W"


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """A player as the Swiss pairing sees him before a round.

    ``colours`` lists, match by match in order, the colour he had in the first game ("B" for
    Black, who moves first, or "W"); ``opponents`` the ids he has met; byes are not opponents.
    A late entry is simply a player with score 0 and no history.
    """

    id: int
    score: float = 0.0
    rating: int = 0
    colours: tuple[str, ...] = ()
    opponents: frozenset[int] = field(default_factory=frozenset)
    had_bye: bool = False
    withdrawn: bool = False


def _fmt(score: float) -> str:
    return f"{score:.1f}"


def _colour_preference(p: SwissPlayer) -> tuple[str | None, int]:
    """Returns the colour the player should have first, and how strongly (0 none, 1, 2)."""
    if not p.colours:
        return None, 0
    last = p.colours[-1]
    wanted = WHITE if last == BLACK else BLACK
    strength = 2 if len(p.colours) >= 2 and p.colours[-2] == last else 1
    return wanted, strength


def _candidate_edges(
    order: list[SwissPlayer],
    groups: list[list[int]],
    where: dict[int, tuple[int, int]],
    width: int,
    span: int,
) -> set[tuple[int, int]]:
    """Returns index pairs (i < j into ``order``) worth offering to the matching."""
    edges: set[tuple[int, int]] = set()
    for i, p in enumerate(order):
        g, pos = where[i]
        members = groups[g]
        m = len(members)
        half = m // 2
        ideal = pos + half if pos < half else pos - half
        found = 0
        for step in range(m):
            if found >= width:
                break
            for cand in (ideal + step, ideal - step) if step else (ideal,):
                if 0 <= cand < m and cand != pos:
                    j = members[cand]
                    if order[j].id not in p.opponents:
                        edges.add((min(i, j), max(i, j)))
                        found += 1
        for lower in range(g + 1, min(len(groups), g + 1 + span)):
            found = 0
            for j in groups[lower]:
                if found >= width:
                    break
                if order[j].id not in p.opponents:
                    edges.add((i, j))
                    found += 1
    return edges


def _all_edges(order: list[SwissPlayer]) -> set[tuple[int, int]]:
    return {
        (i, j)
        for i in range(len(order))
        for j in range(i + 1, len(order))
        if order[j].id not in order[i].opponents
    }


def _solve(order: list[SwissPlayer], width: int, *, first: int | None = None,
           dense: bool = False) -> list[tuple[int, int]]:
    """Returns a maximum-weight matching of ``order`` (sorted by score, rating) as index pairs.

    Without ``first`` the matching must be complete: the graph is widened up to all permitted
    pairs, and ``PairingError`` is raised if even that has no complete matching. With ``first``,
    covering the players ``order[:first]`` comes before everything else (a window of the
    bracket-by-bracket pass), the sparse graph is tried, then all pairs, and the result may leave
    players unmatched.
    """
    n = len(order)
    if n == 0:
        return []
    groups: list[list[int]] = []
    where: dict[int, tuple[int, int]] = {}
    for i, p in enumerate(order):
        if not groups or order[groups[-1][0]].score != p.score:
            groups.append([])
        where[i] = (len(groups) - 1, len(groups[-1]))
        groups[-1].append(i)
    steps = max(1, round((order[0].score - order[-1].score) * 2))
    unit_score = n * n + 1  # beats any sum of rating-order and colour penalties
    base = unit_score * (steps * steps + 1) + 4 * n
    cover = 2 * base  # per window player covered: pairing them comes before anything else
    prefs = [_colour_preference(p) for p in order]

    def weight(i: int, j: int) -> int:
        gi, pi = where[i]
        gj, pj = where[j]
        diff = round(abs(order[i].score - order[j].score) * 2)
        if gi == gj:
            rank = abs(abs(pj - pi) - len(groups[gi]) // 2)
        else:
            (gu, pu), (gl, pl) = sorted([(gi, pi), (gj, pj)])
            rank = (len(groups[gu]) - 1 - pu) + pl
        clash = 1 if prefs[i][0] is not None and prefs[i][0] == prefs[j][0] else 0
        bonus = 0 if first is None else cover * ((i < first) + (j < first))
        return base + bonus - unit_score * diff * diff - 2 * rank - clash

    if dense:
        attempts: list[tuple[int, int] | None] = [None]
    else:
        attempts = [(width, 1), (4 * width, 3), None] if first is None else [(width, 2), None]
    import networkx as nx  # here, not at the top: importing it takes a tenth of a second, and every process
    # of the project (web, workers, commands) imports this module, most never to pair a round

    best: list[tuple[int, int]] = []
    for attempt in attempts:
        if attempt is None:
            edges = _all_edges(order)
        else:
            edges = _candidate_edges(order, groups, where, attempt[0], attempt[1])
        graph = nx.Graph()
        graph.add_nodes_from(range(n))
        graph.add_weighted_edges_from((i, j, weight(i, j)) for i, j in edges)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        best = sorted((min(a, b), max(a, b)) for a, b in matching)
        if first is None and 2 * len(best) == n:
            return best
        if first is not None and sum(1 for pair in best for k in pair if k < first) == first:
            return best
    if first is None:
        raise PairingError(f"no complete pairing of {n} players without a rematch exists")
    return best


def _match(order: list[SwissPlayer], width: int, exact_up_to: int, dense_up_to: int = 100) -> list[tuple[int, int]]:
    """Returns a complete matching of ``order`` (sorted by score, rating) as index pairs.

    Up to ``exact_up_to`` players, one matching over all of them. Beyond, bracket by bracket,
    top down: each window is the unpaired players so far (downfloaters and the current score
    group) plus the top of the next score group (all of it if that is not enough), whose
    players serve only as opponents for downfloaters; pairs inside the next group are dropped
    and redone in the next window. If the last window cannot pair everybody, one global
    matching decides (it also proves infeasibility).
    """
    if len(order) <= exact_up_to:
        return _solve(order, width, dense=len(order) <= dense_up_to)
    groups: list[list[int]] = []
    for i, p in enumerate(order):
        if not groups or order[groups[-1][0]].score != p.score:
            groups.append([])
        groups[-1].append(i)
    pairs: list[tuple[int, int]] = []
    carry: list[int] = []
    for g, group in enumerate(groups):
        current = carry + group
        following = groups[g + 1] if g + 1 < len(groups) else []
        # The top of the next group is enough opponents for the downfloaters, as a rule.
        window = current + following[: 2 * width + 2]
        local = _solve([order[i] for i in window], width, first=len(current))
        covered = sum((a < len(current)) + (b < len(current)) for a, b in local)
        if len(following) > 2 * width + 2 and covered < len(current):
            window = current + following
            local = _solve([order[i] for i in window], width, first=len(current))
        taken: set[int] = set()
        for a, b in local:
            if a < len(current):  # a < b, so a pair touching the window's own players
                pairs.append((window[a], window[b]))
                taken.update((window[a], window[b]))
        carry = [i for i in current if i not in taken]
        if following:
            groups[g + 1] = [i for i in following if i not in taken]
    if carry:
        return _solve(order, width)
    return sorted(pairs)


def _colours(a: SwissPlayer, b: SwissPlayer, board: int) -> tuple[SwissPlayer, SwissPlayer, str]:
    """Returns (black, white, note): who has Black first, ``a`` being the higher ranked."""
    (wa, sa), (wb, sb) = _colour_preference(a), _colour_preference(b)
    if wa is not None and wa != wb:
        black = a if wa == BLACK else b
        note = "colours by history"
    elif wb is not None and wa is None:
        black = b if wb == BLACK else a
        note = "colours by history"
    elif wa is not None:  # both want the same colour
        winner = a if sa >= sb else b
        black = winner if wa == BLACK else (b if winner is a else a)
        note = "colours: both due the same colour, the stronger claim (then the higher ranked) has it"
    else:
        black = a if board % 2 == 1 else b
        note = "colours alternate by board (no history)"
    return black, (b if black is a else a), note


def pair_swiss(players: Sequence[SwissPlayer], *, width: int = 4, exact_up_to: int = 400,
               dense_up_to: int = 100) -> list[Pairing]:
    """Returns the pairings of the next Swiss round, the bye (if any) last.

    Withdrawn players are left out. Raises ``PairingError`` when no complete pairing without a
    rematch exists, or when the number of active players is odd and every one has had a bye.
    ``width`` tunes the sparse graph, ``dense_up_to`` is the largest field paired over every
    permitted pair (the optimum of the weights) and ``exact_up_to`` the largest field paired by
    one matching over all players rather than score group by score group (see the module
    docstring); none of them changes whether a round can be paired.
    """
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise PairingError("a player appears twice")
    active = sorted((p for p in players if not p.withdrawn), key=lambda p: (-p.score, -p.rating, p.id))
    bye: SwissPlayer | None = None
    bye_reason = ""
    if len(active) % 2 == 1:
        eligible = sorted((p for p in active if not p.had_bye), key=lambda p: (p.score, p.rating, -p.id))
        if not eligible:
            raise PairingError("odd number of players and every one of them has had a bye")
        last_error: PairingError | None = None
        for k, cand in enumerate(eligible):
            rest = [p for p in active if p.id != cand.id]
            try:
                matched = _match(rest, width, exact_up_to, dense_up_to)
            except PairingError as exc:
                last_error = exc
                continue
            bye = cand
            bye_reason = (
                f"bye: lowest score without a bye ({_fmt(cand.score)}, rating {cand.rating})"
                if k == 0
                else f"bye: lowest score without a bye ({_fmt(cand.score)}, rating {cand.rating}) "
                f"whose bye leaves the others pairable ({k} lower skipped)"
            )
            active = rest
            break
        else:
            raise PairingError(f"no bye leaves the other players pairable: {last_error}")
    else:
        matched = _match(active, width, exact_up_to, dense_up_to)

    group_size: dict[float, int] = {}
    for p in active:
        group_size[p.score] = group_size.get(p.score, 0) + 1
    floaters: dict[float, int] = {}
    for i, j in matched:
        if active[i].score != active[j].score:
            floaters[active[i].score] = floaters.get(active[i].score, 0) + 1

    out: list[Pairing] = []
    for board, (i, j) in enumerate(sorted(matched), start=1):
        a, b = active[i], active[j]
        black, white, note = _colours(a, b, board)
        if a.score == b.score:
            reason = f"same score group {_fmt(a.score)}"
        else:
            odd = group_size[a.score] % 2 == 1 and floaters[a.score] == 1
            why = "odd group" if odd else "group not pairable within itself (rematches)"
            reason = f"{a.id} floated down from {_fmt(a.score)} group to {_fmt(b.score)} group: {why}"
        out.append(Pairing(board, black.id, white.id, f"{reason}; {note}"))
    if bye is not None:
        out.append(Pairing(len(out) + 1, bye.id, None, bye_reason))
    return out
