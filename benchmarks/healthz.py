"""Measures GET /healthz under parallel callers, through the real web server (uWSGI).

Usage (from the project root, PostgreSQL on 127.0.0.1:5432, Redis on 127.0.0.1:6379)::

    .venv/bin/python benchmarks/healthz.py [--parallel 12] [--batches 20] [--web-workers 6]

It makes the scratch database ``draughts_bench_healthz``, writes two workers' heartbeats (as
running workers would, ``config.heartbeat``), starts uWSGI as ``config/uwsgi.ini`` sets it, and
sends ``--batches`` bursts of ``--parallel`` simultaneous anonymous ``GET /healthz`` (one
connection each), then the same as a director (the detail). It prints the wall time of a burst
and the median and p99 of single calls. No Celery worker is needed: the check reads the rows.
"""

from __future__ import annotations

import argparse
import http.client
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _scratch import scratch_django  # noqa: E402

BENCH_DB = "draughts_bench_healthz"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(port: int, headers: dict[str, str]) -> tuple[int, float]:
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/healthz", headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - start
    finally:
        conn.close()


def burst_series(port: int, parallel: int, batches: int, headers: dict[str, str]) -> tuple[list[float], list[float]]:
    bursts, calls = [], []
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        for _ in range(batches):
            start = time.perf_counter()
            results = list(pool.map(lambda _n: get(port, headers), range(parallel)))
            bursts.append(time.perf_counter() - start)
            assert all(status == 200 for status, _ in results), results
            calls.extend(seconds for _, seconds in results)
    return bursts, sorted(calls)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parallel", type=int, default=12)
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--web-workers", type=int, default=6)
    args = parser.parse_args()

    env = scratch_django(BENCH_DB)
    from django.contrib.auth.models import Group, User

    from accounts.services import token_issue
    from config.heartbeat import beat

    director = User.objects.create_user("bench-director", password="bench-only-password-1")
    director.groups.add(Group.objects.get_or_create(name="director")[0])
    token = token_issue(user=director)
    for name in ("celery@bench-1", "celery@bench-2"):
        beat(name, 1)

    port = free_port()
    command = [str(Path(sys.executable).with_name("uwsgi")), "--ini", str(ROOT / "config" / "uwsgi.ini"),
               "--http", f"127.0.0.1:{port}", "--processes", str(args.web_workers)]
    handle, server_log = tempfile.mkstemp(prefix="healthz-server-", suffix=".log")
    with os.fdopen(handle, "wb") as log_file:
        server = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True,
                                  stdout=log_file, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if get(port, {})[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                print(f"the web server did not start; its log: {server_log}", file=sys.stderr)
                return 2
            time.sleep(0.2)
        for _ in range(3):  # warm every web process
            burst_series(port, args.parallel, 1, {})
        print(f"machine: {os.cpu_count()} cores, Python {platform.python_version()}; uWSGI "
              f"{args.web_workers} workers; {args.batches} bursts of {args.parallel} parallel GET /healthz")
        for label, headers in (("anonymous", {}), ("director (detail)", {"Authorization": f"Token {token}"})):
            bursts, calls = burst_series(port, args.parallel, args.batches, headers)
            p99 = calls[min(len(calls) - 1, int(round(0.99 * (len(calls) - 1))))]
            print(f"{label:18} burst median {statistics.median(bursts) * 1000:7.1f} ms, max "
                  f"{max(bursts) * 1000:7.1f} ms; call median {statistics.median(calls) * 1000:6.1f} ms, "
                  f"p99 {p99 * 1000:6.1f} ms")
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
