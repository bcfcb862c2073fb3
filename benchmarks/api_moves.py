"""Measures moves recorded per second through the real API server, with 16 referees at once.

Usage (from the project root, PostgreSQL on 127.0.0.1:5432)::

    .venv/bin/python benchmarks/api_moves.py [--pdn ../shared/data/pdn/OCA_2.0.pdn]
        [--clients 16] [--games-per-client 4] [--web-workers 3] [--web-threads 4]

It creates a scratch database ``draughts_bench`` (dropped and made anew), migrates it, starts
gunicorn with the production settings (DEBUG off, PostgreSQL, gthread workers, keep-alive),
creates one game per client and round through ``POST /api/v1/games/``, and has each client
thread referee its own games: every move of a real game from the PDN archive is posted to
``POST /api/v1/games/{id}/moves/`` with its ply, one after the other, on a kept-alive
connection. It prints the moves per second sustained over the whole run, the latency
percentiles of the move requests, and the number of database queries one move request makes
(measured in this process through Django's test client on the same database).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _scratch import scratch_django  # noqa: E402

DEFAULT_PDN = ROOT / ".." / "shared" / "data" / "pdn" / "OCA_2.0.pdn"
BENCH_DB = "draughts_bench"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]



def real_games(path: Path, count: int, min_plies: int) -> list[list[str]]:
    """Returns the full-path moves of the first ``count`` valid games with enough plies."""
    from games.rules.pdn import PDNGame, _decode, replay, scan_games

    games: list[list[str]] = []
    for record in scan_games(_decode(path.read_bytes())):
        if not isinstance(record, PDNGame) or record.start_fen:
            continue
        outcome = replay(record)
        if outcome.ok and outcome.state.ply >= min_plies:
            games.append([move.pdn() for move in outcome.state.moves])
            if len(games) == count:
                break
    return games


def percentile(sorted_values: list[float], fraction: float) -> float:
    index = min(len(sorted_values) - 1, max(0, round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


class Client:
    """A referee's kept-alive HTTP connection to the server."""

    def __init__(self, port: int, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def post(self, path: str, body: dict) -> tuple[int, dict]:
        self.conn.request("POST", path, body=json.dumps(body), headers=self.headers)
        response = self.conn.getresponse()
        payload = response.read()
        return response.status, (json.loads(payload) if payload else {})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pdn", type=Path, default=DEFAULT_PDN)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--games-per-client", type=int, default=4)
    parser.add_argument("--min-plies", type=int, default=40)
    parser.add_argument("--web-workers", type=int, default=3)
    parser.add_argument("--web-threads", type=int, default=4)
    parser.add_argument("--admin-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()

    env = scratch_django(BENCH_DB, admin_url=args.admin_url)
    from accounts.roles import Role
    from accounts.services import token_issue, user_create_with_role
    from tournaments.models import Player

    director = user_create_with_role(username="bench-director", password="x-bench-password-1", role=Role.DIRECTOR)
    referee = user_create_with_role(username="bench-referee", password="x-bench-password-2", role=Role.REFEREE)
    director_token, referee_token = token_issue(user=director), token_issue(user=referee)
    players = [Player.objects.create(name=f"Bench player {i}") for i in range(2 * args.clients)]

    total_games = args.clients * args.games_per_client
    games = real_games(args.pdn, total_games, args.min_plies)
    if len(games) < total_games:
        print(f"{args.pdn}: only {len(games)} usable games", file=sys.stderr)
        return 2

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", str(args.web_workers), "--worker-class", "gthread", "--threads", str(args.web_threads),
         "--keep-alive", "10", "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

        setup = Client(port, director_token)
        game_ids: list[int] = []
        for index in range(total_games):
            black, white = players[(2 * index) % len(players)], players[(2 * index + 1) % len(players)]
            status, body = setup.post("/api/v1/games/", {
                "black": black.id, "white": white.id, "rule_set": "standard", "referees": ["bench-referee"],
                "progress_rule": "forty-move-notice", "repetition_threshold": 4,
            })
            if status != 201:
                print(f"creating a game failed: {status} {body}", file=sys.stderr)
                return 1
            game_ids.append(body["id"])

        latencies: list[list[float]] = [[] for _ in range(args.clients)]
        errors: list[str] = []
        barrier = threading.Barrier(args.clients + 1)

        def referee_thread(number: int) -> None:
            client = Client(port, referee_token)
            barrier.wait()
            for round_number in range(args.games_per_client):
                slot = round_number * args.clients + number
                game_id, moves = game_ids[slot], games[slot]
                for ply, move in enumerate(moves, start=1):
                    started = time.perf_counter()
                    status, body = client.post(f"/api/v1/games/{game_id}/moves/", {"move": move, "ply": ply})
                    latencies[number].append(time.perf_counter() - started)
                    if status != 201:
                        errors.append(f"game {game_id} ply {ply} {move}: {status} {body}")
                        return

        threads = [threading.Thread(target=referee_thread, args=(n,)) for n in range(args.clients)]
        for thread in threads:
            thread.start()
        barrier.wait()
        started = time.perf_counter()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)

    all_latencies = sorted(value for per_client in latencies for value in per_client)
    moves = len(all_latencies)
    queries = queries_per_move(games[0], players[0].id, players[1].id)

    print(f"machine: {os.cpu_count()} cores, Python {platform.python_version()}, PostgreSQL, "
          f"gunicorn {args.web_workers} workers x {args.web_threads} threads (gthread)")
    print(f"clients: {args.clients}, games: {total_games} real games from {args.pdn.name}, moves: {moves}")
    if errors:
        print(f"ERRORS: {len(errors)}; first: {errors[0]}")
    print(f"elapsed: {elapsed:.2f} s, sustained: {moves / elapsed:.0f} moves/s")
    print(f"latency: p50 {1000 * percentile(all_latencies, 0.50):.1f} ms, "
          f"p95 {1000 * percentile(all_latencies, 0.95):.1f} ms, p99 {1000 * percentile(all_latencies, 0.99):.1f} ms, "
          f"max {1000 * all_latencies[-1]:.1f} ms, mean {1000 * statistics.fmean(all_latencies):.1f} ms")
    print(f"queries per move request: mean {statistics.fmean(queries):.1f}, max {max(queries)} "
          f"(over the {len(queries)} moves of one game)")
    return 1 if errors else 0


def queries_per_move(moves: list[str], black_id: int, white_id: int) -> list[int]:
    """Counts the database queries of each move request of one game, through the test client."""
    from django.db import connection
    from django.test import Client as DjangoClient
    from django.test.utils import CaptureQueriesContext
    from rest_framework.authtoken.models import Token

    director = Token.objects.get(user__username="bench-director").key
    referee = Token.objects.get(user__username="bench-referee").key
    client = DjangoClient()
    created = client.post(
        "/api/v1/games/",
        {"black": black_id, "white": white_id, "rule_set": "standard", "referees": ["bench-referee"]},
        content_type="application/json", HTTP_AUTHORIZATION=f"Token {director}",
    )
    game_id = created.json()["id"]
    counts: list[int] = []
    for ply, move in enumerate(moves, start=1):
        with CaptureQueriesContext(connection) as captured:
            response = client.post(
                f"/api/v1/games/{game_id}/moves/", {"move": move, "ply": ply},
                content_type="application/json", HTTP_AUTHORIZATION=f"Token {referee}",
            )
        assert response.status_code == 201, response.content
        counts.append(len(captured))
    return counts


if __name__ == "__main__":
    sys.exit(main())
