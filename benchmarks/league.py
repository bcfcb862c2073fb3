"""Measures the league table and the fixture list of a 20-team division after a full season, through the API.

Usage (from the project root, PostgreSQL on 127.0.0.1:5432)::

    .venv/bin/python benchmarks/league.py [--teams 20] [--boards 6] [--repeat 30]

It creates a scratch database ``draughts_bench_league`` (dropped and made anew), migrates it, and
builds the season directly with ``bulk_create``: the real fixture generator
(``leagues.core.schedule.double_round_robin``: 38 rounds for 20 teams), 6 boards a match and 2 games
a board (each an ordinary finished ``games.Game`` linked by a ``BoardGame``), seeded random results,
each match's card and points as ``leagues.services`` would write them (``leagues.core.match``). Then it
times ``GET /api/v1/leagues/{slug}/table/`` and ``.../fixtures/`` in-process through Django's test
client (DEBUG off) and counts their queries; the same on a 6-team division shows that the query count
does not grow with the teams.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _scratch import scratch_django  # noqa: E402
from standings_api import measure  # noqa: E402

BENCH_DB = "draughts_bench_league"


def build_season(slug: str, teams: int, boards: int, seed: int) -> int:
    """Builds a finished season of ``teams`` in one division; returns the number of games."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.models import Game, Termination
    from leagues.core.match import game_points, home_colour, match_score
    from leagues.core.schedule import double_round_robin
    from leagues.models import BoardGame, Division, Fixture, League, RosterEntry, Season, SheetLine, Team
    from players.models import Player

    rng = random.Random(seed)
    secretary = get_user_model().objects.create(username=f"sec-{slug}")
    league = League.objects.create(name=f"Bench {slug}", slug=slug, secretary=secretary, board_count=boards,
                                   opening="three-move-ballot", promotion_places=2, relegation_places=2)
    division = Division.objects.create(league=league, name="Premier", rank=1)
    season = Season.objects.create(league=league, name="2026-27", status="finished")
    made = Team.objects.bulk_create(Team(season=season, division=division, club_name=f"Club {i}", name=f"Club {i} A")
                                    for i in range(teams))
    players = {t.pk: Player.objects.bulk_create(Player(name=f"{slug} {t.name} {b}", rating=2200 - 10 * b - i)
                                                for b in range(boards)) for i, t in enumerate(made)}
    RosterEntry.objects.bulk_create(RosterEntry(team_id=t, player=p, board=b + 1)
                                    for t, roster in players.items() for b, p in enumerate(roster))
    now = timezone.now()
    plans = double_round_robin([t.pk for t in made])
    fixtures = Fixture.objects.bulk_create(
        Fixture(season=season, division=division, round=plan.round, home_id=plan.home, away_id=plan.away,
                status="result") for round_ in plans for plan in round_)
    games, links, lines = [], [], []
    for fixture in fixtures:
        card = []
        for board in range(1, boards + 1):
            home, away = players[fixture.home_id][board - 1], players[fixture.away_id][board - 1]
            lines += [SheetLine(fixture=fixture, side="home", board=board, player=home),
                      SheetLine(fixture=fixture, side="away", board=board, player=away)]
            points = []
            for number in (1, 2):
                colour = home_colour(board, number)
                black, white = (home, away) if colour == "black" else (away, home)
                result = rng.choice(["1-0", "0-1", "1/2-1/2", "1/2-1/2"])
                games.append(Game(black=black, white=white, status="finished", result=result, finished_at=now,
                                  termination=Termination.DRAW_AGREEMENT if result == "1/2-1/2"
                                  else Termination.RESIGNATION, created_by=secretary))
                links.append(BoardGame(fixture=fixture, board=board, number=number, home_colour=colour))
                points.append(game_points(result, colour)[0])
            home_points = sum(points, Decimal(0))
            card.append({"board": board, "home": str(home_points), "away": str(2 - home_points)})
        score = match_score([(Decimal(c["home"]), Decimal(c["away"])) for c in card])
        fixture.card = card
        fixture.home_points, fixture.away_points = score.home_points, score.away_points
        fixture.home_match_points, fixture.away_match_points = score.home_match_points, score.away_match_points
    Fixture.objects.bulk_update(fixtures, ["card", "home_points", "away_points", "home_match_points",
                                           "away_match_points"])
    SheetLine.objects.bulk_create(lines)
    created = Game.objects.bulk_create(games, batch_size=2000)
    for link, game in zip(links, created, strict=True):
        link.game = game
    BoardGame.objects.bulk_create(links, batch_size=2000)
    return len(created)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--teams", type=int, default=20)
    parser.add_argument("--small", type=int, default=6, help="teams of the division that checks the query count")
    parser.add_argument("--boards", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--admin-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()

    scratch_django(BENCH_DB, admin_url=args.admin_url)
    start = time.perf_counter()
    big = build_season("bench-big", args.teams, args.boards, args.seed)
    small = build_season("bench-small", args.small, args.boards, args.seed)
    built = time.perf_counter() - start
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"PostgreSQL on 127.0.0.1; built both seasons ({big} and {small} games) in {built:.1f} s; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'endpoint':<40} {'teams':>6} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} {'queries':>8} {'bytes':>9}")
    for slug, count in (("bench-big", args.teams), ("bench-small", args.small)):
        for what in ("table", "fixtures"):
            times, queries, size = measure(f"/api/v1/leagues/{slug}/{what}/", args.repeat)
            times.sort()
            p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
            print(f"GET .../{what + '/':<33} {count:>6} {statistics.median(times):>10.1f} {p95:>8.1f} "
                  f"{times[-1]:>8.1f} {queries:>8} {size:>9}")


if __name__ == "__main__":
    main()
