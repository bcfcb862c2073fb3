"""Measures how long a write waits for SQLite's write lock behind other requests, on `make run`'s server.

Usage (from the project root; no PostgreSQL or Redis needed)::

    .venv/bin/python benchmarks/sqlite_write_queue.py [--procfile Procfile.run] [--limit 10] [--runs 5]

It makes a scratch ``var/`` with the demo tournament on SQLite, starts the Procfile's web process
(``Procfile.run``: uvicorn, ``make run``; ``Procfile``: uWSGI) with ``REQUEST_TIME_LIMIT=--limit``
and the test-only route that holds the write lock (``DJANGO_TEST_ENDPOINTS=1``), and records a
move on a fresh game: alone; 0.5 s after another request took the lock for 2 s; and 0.5 s after a
hostile request took it for good (stopped at the limit). It prints each wait and answer.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable


def call(base: str, path: str, token: str | None = None, body: dict | None = None) -> tuple[int, float, dict]:
    request = urllib.request.Request(base + path, method="POST" if body is not None or "hold" in path else "GET",
                                     data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, time.monotonic() - started, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, time.monotonic() - started, {}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--procfile", default="Procfile.run")
    parser.add_argument("--limit", type=float, default=10)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    var = Path(tempfile.mkdtemp(prefix="bench-sqlite-"))
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    env.update({"DJANGO_VAR_DIR": str(var), "DJANGO_SECRET_KEY": "bench-only", "DJANGO_LOG_KEY": "bench-only",
                "PATH": f"{Path(PYTHON).parent}{os.pathsep}{os.environ['PATH']}"})
    for command in (["migrate", "--noinput", "-v0"], ["seed_demo"]):
        subprocess.run([PYTHON, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)
    token = subprocess.run([PYTHON, "manage.py", "issue_token", "director"], cwd=ROOT, env=env, check=True,
                           capture_output=True, text=True).stdout.split()[-1]
    web = next(line.split(":", 1)[1].strip() for line in (ROOT / args.procfile).read_text().splitlines()
               if line.startswith("web:"))
    port = "8197"
    server = subprocess.Popen(["bash", "-c", f"exec {web}"], cwd=ROOT, start_new_session=True,
                              env={**env, "HOST": "127.0.0.1", "PORT": port, "WEB_CONCURRENCY": "3",
                                   "DJANGO_TEST_ENDPOINTS": "1", "REQUEST_TIME_LIMIT": str(args.limit),
                                   "API_THROTTLE_USER": "off", "API_THROTTLE_ANON": "off"},
                              stdout=(var / "web.log").open("wb"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                call(base, "/healthz")
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.2)
        players = [row["id"] for row in call(base, "/api/v1/players/?page_size=2")[2]["results"]]

        def fresh_game() -> int:
            return call(base, "/api/v1/games/", token, {"black": players[0], "white": players[1]})[2]["id"]

        def move_on(game: int) -> tuple[int, float]:
            status, took, _ = call(base, f"/api/v1/games/{game}/moves/", token, {"move": "11-15"})
            return status, took

        def behind(seconds: float) -> tuple[tuple[int, float], tuple[int, float]]:
            game, holder = fresh_game(), []
            thread = threading.Thread(target=lambda: holder.append(
                call(base, f"/api/test-only/hold-write-lock?seconds={seconds}")[:2]))
            thread.start()
            time.sleep(0.5)
            result = move_on(game)
            thread.join()
            return result, holder[0]

        print(f"{args.procfile} ({web.split()[0]}), REQUEST_TIME_LIMIT={args.limit}, {platform.python_version()}, "
              f"{os.cpu_count()} cores")
        alone = [move_on(fresh_game()) for _ in range(args.runs)]
        print(f"a move alone: {[s for s, _ in alone]}, median {statistics.median(t for _, t in alone) * 1000:.0f} ms")
        for seconds, name in ((2, "behind a 2 s write"), (600, "behind a hostile request")):
            (status, took), (held_status, held) = behind(seconds)
            print(f"a move {name} (sent 0.5 s after it): {status} after {took:.2f} s; "
                  f"the holder answered {held_status} after {held:.2f} s")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
