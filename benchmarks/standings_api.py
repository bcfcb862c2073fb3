"""Measures the standings and the crosstable of a 500-player, 9-round Swiss through the API.

Usage (from the project root, PostgreSQL on 127.0.0.1:5432)::

    .venv/bin/python benchmarks/standings_api.py [--players 500] [--rounds 9] [--repeat 20]

It creates a scratch database ``draughts_bench_standings`` (dropped and made anew), migrates it,
and builds the tournament directly with ``bulk_create``: each round is paired by the real Swiss
pairing (``tournaments.pairing.swiss``) on the standings so far, and its matches get two finished
games with random results (seeded, so runs are comparable). Then it times ``GET
/api/v1/tournaments/{slug}/standings/`` and ``.../crosstable/`` in-process through Django's test
client (DEBUG off), and counts their queries; it does the same on a 50-player copy to show that
the query count does not grow with the number of players.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _scratch import scratch_django  # noqa: E402

BENCH_DB = "draughts_bench_standings"



def build_swiss(slug: str, players: int, rounds: int, seed: int) -> None:
    """Builds a finished Swiss of ``players`` x ``rounds`` with bulk_create, round by round."""
    from django.utils import timezone

    from games.models import Game, Termination
    from players.models import Player
    from tournaments import selectors
    from tournaments.models import Entry, Match, MatchGame, Round, Tournament
    from tournaments.pairing.swiss import SwissPlayer, pair_swiss

    rng = random.Random(seed)
    tournament = Tournament.objects.create(name=f"Bench Swiss {players}", slug=slug, format="swiss",
                                           round_count=rounds, status="running", opening="go-as-you-please",
                                           tiebreaks=["buchholz", "median_buchholz", "sonneborn_berger", "wins",
                                                      "game_points"])
    roster = Player.objects.bulk_create(
        Player(name=f"Bench {slug} {i:04d}", rating=2400 - i) for i in range(players))
    Entry.objects.bulk_create(Entry(tournament=tournament, player=p, seed=i + 1) for i, p in enumerate(roster))
    rating = {p.pk: p.rating for p in roster}
    now = timezone.now()
    opponents: dict[int, set[int]] = {p.pk: set() for p in roster}
    byes: set[int] = set()
    for number in range(1, rounds + 1):
        points = {row.player: row.points for row in selectors.standings_rows(tournament)}
        field = [SwissPlayer(id=p.pk, score=points.get(p.pk, 0.0), rating=p.rating,
                             opponents=frozenset(opponents[p.pk]), had_bye=p.pk in byes) for p in roster]
        pairings = pair_swiss(field)
        round_ = Round.objects.create(tournament=tournament, number=number, status="published",
                                      created_at=now, published_at=now)
        matches = Match.objects.bulk_create(
            Match(round=round_, board=p.board, kind="bye" if p.white is None else "played", player_one_id=p.black,
                  player_two_id=p.white, lots_seed=str(rng.getrandbits(63)) if p.white else "",
                  first_black_id=p.black if p.white else None, explanation=p.reason)
            for p in pairings)
        games, links = [], []
        for match in matches:
            if match.player_two_id is None:
                byes.add(match.player_one_id)
                continue
            a, b = match.player_one_id, match.player_two_id
            opponents[a].add(b)
            opponents[b].add(a)
            for k in (1, 2):
                black, white = (a, b) if k == 1 else (b, a)
                stronger = black if rating[black] >= rating[white] else white
                roll = rng.random()
                if roll < 0.35:
                    result = "1/2-1/2"
                elif roll < 0.8:
                    result = "1-0" if stronger == black else "0-1"
                else:
                    result = "0-1" if stronger == black else "1-0"
                games.append(Game(round=round_, black_id=black, white_id=white, status="finished", result=result,
                                  termination=Termination.DRAW_AGREEMENT if result == "1/2-1/2"
                                  else Termination.RESIGNATION, finished_at=now))
                links.append((match, k))
        created = Game.objects.bulk_create(games)
        MatchGame.objects.bulk_create(MatchGame(match=m, game=g, number=k) for (m, k), g in zip(links, created,
                                                                                              strict=True))


def measure(path: str, repeat: int) -> tuple[list[float], int, int]:
    """Returns the request times (ms), the number of queries of one request, and the response size."""
    from django.db import connection
    from django.test import Client

    client = Client()
    response = client.get(path)
    assert response.status_code == 200, response.content[:200]
    queries = []

    def count(execute, sql, params, many, context):  # noqa: ANN001, ANN202
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        client.get(path)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - start) * 1000)
    return times, len(queries), len(response.content)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--small", type=int, default=50, help="players of the copy that checks the query count")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--admin-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()

    scratch_django(BENCH_DB, admin_url=args.admin_url)

    start = time.perf_counter()
    build_swiss("bench-big", args.players, args.rounds, args.seed)
    build_swiss("bench-small", args.small, args.rounds, args.seed)
    built = time.perf_counter() - start

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"PostgreSQL on 127.0.0.1; built both tournaments in {built:.1f} s")
    print(f"{'endpoint':<40} {'players':>7} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} {'queries':>8} {'bytes':>9}")
    for slug, count in (("bench-big", args.players), ("bench-small", args.small)):
        for what in ("standings", "crosstable"):
            times, queries, size = measure(f"/api/v1/tournaments/{slug}/{what}/", args.repeat)
            times.sort()
            p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
            print(f"GET .../{what + '/':<33} {count:>7} {statistics.median(times):>10.1f} {p95:>8.1f} "
                  f"{times[-1]:>8.1f} {queries:>8} {size:>9}")


if __name__ == "__main__":
    main()
