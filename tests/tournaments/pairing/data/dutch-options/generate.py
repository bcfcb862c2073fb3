"""Writes random Swiss tournaments paired by this program's Dutch system, with the options the
reference's own generator leaves out: prohibited pairings (``260`` lines), the Baku acceleration
(``XXA``), other point systems (``BBW``...``BBU``), late entries, retirements, double forfeits and
Black's first colour (``XXC black1``). Each file is then checked by the reference (SOURCES.md).

    .venv/bin/python tests/tournaments/pairing/data/dutch-options/generate.py FIRST_SEED COUNT OUT_DIR

A tournament in which some round has no pairing that meets the absolute criteria (prohibitions
can leave none) is not written; the seed is printed instead.
"""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[5]))

from tournaments.pairing.dutch import baku_virtual_points, pair_next_round  # noqa: E402
from tournaments.pairing.trf import (  # noqa: E402
    BLACK,
    WHITE,
    PointSystem,
    TrfPlayer,
    TrfRound,
    TrfTournament,
    write_trf,
)
from tournaments.pairing.types import PairingError  # noqa: E402

# standard; draughts' match points (2-1-0); 3-1-0; a pairing-allocated bye worth a draw
SYSTEMS = (PointSystem(), PointSystem(20, 10, 0, 0, 0, 20), PointSystem(30, 10, 0, 0, 0, 30),
           PointSystem(10, 5, 0, 0, 0, 5))


def tournament(seed: int) -> TrfTournament | None:
    """Returns the tournament of ``seed``, every round paired by this program; None if one could not be."""
    rng = random.Random(seed)
    n = rng.choice([rng.randint(6, 16), rng.randint(10, 30)])
    total = min(rng.randint(4, 9), n - 1)
    system = rng.choice(SYSTEMS)
    ratings = sorted((rng.randint(1400, 2600) for _ in range(n)), reverse=True)
    players = tuple(TrfPlayer(i + 1, name=f"Player {i + 1}", rating=r) for i, r in enumerate(ratings))
    forbidden = []
    if rng.random() < 0.6:
        for _ in range(rng.randint(1, 4)):
            who = frozenset(rng.sample(range(1, n + 1), rng.randint(2, min(4, n))))
            first = rng.randint(1, total)
            forbidden.append((first, rng.randint(first, total), who))
    accelerations = ()
    if rng.random() < 0.4:
        accelerations = tuple(sorted(baku_virtual_points([p.number for p in players], total, system).items()))
    t = TrfTournament(players=players, rounds_total=total, initial_colour=rng.choice([WHITE, BLACK]),
                      points=system, forbidden=tuple(forbidden), accelerations=accelerations,
                      system="FIDE_DUTCH_2025")
    half, zero, retire = rng.choice([0, 0.04, 0.1]), rng.choice([0, 0.03, 0.08]), rng.choice([0, 0.02, 0.05])
    forfeit, draws = rng.choice([0, 0.04, 0.1]), rng.choice([0.1, 0.35, 0.6])
    late = set(rng.sample(range(1, n + 1), rng.randint(0, n // 5))) if rng.random() < 0.4 else set()
    retired: set[int] = set()
    for k in range(1, total + 1):
        absent = {}  # known before the round: a half-point bye asked for, an absence, a late entry, a retirement
        for p in t.players:
            roll = rng.random()
            if p.number in retired:
                absent[p.number] = "Z"
            elif p.number in late and k <= 2:
                absent[p.number] = rng.choice("ZH")
            elif roll < half:
                absent[p.number] = "H"
            elif roll < half + zero:
                absent[p.number] = "Z"
            elif k > 1 and rng.random() < retire:
                retired.add(p.number)
                absent[p.number] = "Z"
        t = _with_round(t, {number: TrfRound(None, None, code) for number, code in absent.items()})
        try:
            pairs = pair_next_round(t)
        except PairingError:
            return None
        by = {p.number: p for p in t.players}
        new = {}
        for pair in pairs:
            if pair.black is None:
                new[pair.white] = TrfRound(None, None, "U")
                continue
            roll = rng.random()
            if roll < forfeit:
                white, black = rng.choice([("+", "-"), ("-", "+"), ("-", "-")])
            elif roll < forfeit + draws:
                white, black = "=", "="
            elif rng.random() < 0.5 + (by[pair.white].rating - by[pair.black].rating) / 3000:
                white, black = "1", "0"
            else:
                white, black = "0", "1"
            new[pair.white] = TrfRound(pair.black, WHITE, white)
            new[pair.black] = TrfRound(pair.white, BLACK, black)
        t = _with_round(t, new)
    return t


def _with_round(t: TrfTournament, rounds: dict[int, TrfRound]) -> TrfTournament:
    players = tuple(p.with_rounds((*p.rounds, rounds[p.number]), t.points) if p.number in rounds else p
                    for p in t.players)
    return replace(t, players=players)


def text(t: TrfTournament, seed: int) -> str:
    """The file: ``012`` names the seed; the point system's ``BB`` lines when it is not the standard one."""
    lines = write_trf(replace(t, other_lines=(f"012 Options test {seed}",)))
    if t.points != PointSystem():
        p = t.points
        for code, tenths in (("BBW", p.win), ("BBD", p.draw), ("BBL", p.loss), ("BBZ", p.zero_bye),
                             ("BBF", p.forfeit_loss), ("BBU", p.bye)):
            lines += f"{code} {tenths // 10:>2}.{tenths % 10}\r"
    return lines


def main() -> None:
    first, count, out = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    for seed in range(first, first + count):
        t = tournament(seed)
        if t is None:
            print(f"seed {seed}: a round without a pairing that meets the absolute criteria; not written")
            continue
        (out / f"o{seed}.trf").write_bytes(text(t, seed).encode())


if __name__ == "__main__":
    main()
