"""The command line of the reference checkers: ``python -m tournaments.pairing.dutch``.

``--dutch input.trf -p [output]`` pairs the next round of ``input.trf`` and writes it as the
reference does (the number of pairs, then one ``white black`` line a pair, ``N 0`` for the
pairing-allocated bye; to standard output without ``output``). ``--dutch input.trf -c`` checks
every round of ``input.trf`` against the Dutch system and names each round that differs with
the criterion that decided it; the exit status is 0 when every round agrees, 1 otherwise, and
2 for a file that cannot be read.
"""

from __future__ import annotations

import argparse
import sys

from tournaments.pairing.dutch import check_tournament, pair_next_round, round_of, sort_pairs
from tournaments.pairing.trf import TrfError, read_trf
from tournaments.pairing.types import PairingError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tournaments.pairing.dutch", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--dutch", metavar="INPUT", required=True, help="the TRF file")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("-p", nargs="?", const="-", metavar="OUTPUT", help="pair the next round")
    mode.add_argument("-c", action="store_true", help="check every round")
    args = parser.parse_args(argv)
    try:
        t = read_trf(args.dutch)
    except (OSError, TrfError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.c:
        problems = check_tournament(t)
        for line in problems:
            print(f"{args.dutch}: {line}")
        if not problems:
            print(f"{args.dutch}: every round ({t.rounds_played}) is the Dutch system's pairing")
        return 1 if problems else 0
    try:
        rd = round_of(t)
        pairs = sort_pairs(pair_next_round(t), rd.by_number)
    except PairingError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    text = f"{len(pairs)}\n" + "".join(f"{p.white} {p.black or 0}\n" for p in pairs)
    if args.p == "-":
        sys.stdout.write(text)
    else:
        with open(args.p, "w", encoding="utf-8") as f:
            f.write(text)
    return 0
