"""Round robin and double round robin by the FIDE Berger tables."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.types import Pairing, PairingError


def berger_table(n: int) -> list[list[tuple[int, int]]]:
    """Returns the Berger table for ``n`` numbers (``n`` even): per round, the (first, second) pairs.

    The first-named number of a pair is the one the FIDE table names first (White in chess);
    here he has Black, the first move, in the first game of the match. Round 1 is
    ``1-n, 2-(n-1), ...``; each next round adds ``n/2`` to every number except ``n``
    (modulo ``n-1``, in 1..n-1), and ``n`` is named second in odd rounds, first in even ones.
    The board with ``n`` comes first.
    """
    if n < 2 or n % 2:
        raise PairingError(f"a Berger table needs an even number of players, got {n}")
    k = n - 1
    half = n // 2
    current = [(b + 1, n - b) for b in range(half)]
    rounds = [current]
    for r in range(2, n):
        nxt: list[tuple[int, int]] = []
        for a, b in current:
            if n in (a, b):
                other = a if b == n else b
                moved = (other - 1 + half) % k + 1
                nxt.append((n, moved) if r % 2 == 0 else (moved, n))
            else:
                nxt.append(((a - 1 + half) % k + 1, (b - 1 + half) % k + 1))
        rounds.append(nxt)
        current = nxt
    return rounds


def round_robin(players: Sequence[int], *, double: bool = False) -> list[list[Pairing]]:
    """Returns every round of a (double) round robin of ``players`` in seeding order.

    ``players[0]`` takes Berger number 1, and so on. With an odd number of players a dummy
    takes the last number and whoever meets it has a bye (a ``Pairing`` with ``white=None``).
    A double round robin repeats the cycle with colours reversed.
    """
    ids = list(players)
    if len(set(ids)) != len(ids):
        raise PairingError("a player appears twice")
    if len(ids) < 2:
        raise PairingError("a round robin needs at least two players")
    odd = len(ids) % 2 == 1
    n = len(ids) + (1 if odd else 0)
    table = berger_table(n)
    cycles = [False, True] if double else [False]
    out: list[list[Pairing]] = []
    for reversed_colours in cycles:
        for r, pairs in enumerate(table, start=1):
            games: list[Pairing] = []
            byes: list[Pairing] = []
            cycle = "second cycle, colours reversed, " if reversed_colours else ""
            for a, b in pairs:
                if odd and n in (a, b):
                    other = a if b == n else b
                    byes.append(Pairing(0, ids[other - 1], None, f"bye: meets the dummy number {n} (Berger)"))
                    continue
                first, second = (b, a) if reversed_colours else (a, b)
                games.append(
                    Pairing(0, ids[first - 1], ids[second - 1], f"Berger table, {cycle}round {r}: {a}-{b}")
                )
            numbered = [Pairing(i, p.black, p.white, p.reason) for i, p in enumerate(games + byes, start=1)]
            out.append(numbered)
    return out
