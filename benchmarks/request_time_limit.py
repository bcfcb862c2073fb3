"""Measures the CPU a request spends in its time limits (``config.middleware.RequestTimeLimit``) under uWSGI.

Usage (from the project root)::

    .venv/bin/python benchmarks/request_time_limit.py [--against REV] [--calls 20000] [--rounds 9]

It starts uWSGI as the Procfile's ``web`` runs it (a master, here one worker, single-threaded
requests in the worker's main thread, with the real ``uwsgi`` module whose ``set_user_harakiri``
the middleware calls) with this file as its application, and asks it once: the worker then
calls each middleware ``--calls`` times in a row on a prebuilt move request (``POST
/api/v1/games/1/moves/``) whose view is a function returning a prebuilt response, and times
the calls by the worker's CPU time (user + system, ``time.process_time``; the system calls
count). The variants take turns, ``--rounds`` times, in a rotating order, so that the
machine's drift falls on all of them; it prints each one's median and lowest per call, and
its cost over the bare view call:

- the bare view (the floor: a function call);
- the middleware with the limits off (``REQUEST_TIME_LIMIT=0``, ``REQUEST_HARD_TIME_LIMIT=0``);
- the middleware of this working tree, with the limits of the settings (10 s, 15 s);
- with ``--against REV``, the middleware of that git revision (``config/middleware.py`` at
  REV; or of a file), with the same limits.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

try:
    import uwsgi  # type: ignore[import-not-found]  # noqa: F401  (only inside the uWSGI worker)
except ImportError:
    UNDER_UWSGI = False
else:
    UNDER_UWSGI = True


def measure(calls: int, rounds: int, against: str) -> dict[str, list[float]]:
    """Times the variants in the worker; returns each one's nanoseconds of CPU per call, a value per round."""
    import importlib.util
    import time

    import django

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.http import HttpResponse
    from django.test import RequestFactory

    from config import middleware

    request = RequestFactory().post("/api/v1/games/1/moves/", data=b'{"move": "11-15", "ply": 1}',
                                    content_type="application/json")
    response = HttpResponse(status=201)

    def view(request: object) -> HttpResponse:
        return response

    off = middleware.RequestTimeLimit(view)
    off.soft = off.hard = 0
    variants = {"bare view": view, "limits off": off, "this tree": middleware.RequestTimeLimit(view)}
    if against:
        spec = importlib.util.spec_from_file_location("middleware_against", against)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        variants["against"] = module.RequestTimeLimit(view)
    for name, call in variants.items():  # each answers as it should (and is warmed up)
        assert call(request) is response, name

    timings: dict[str, list[float]] = {name: [] for name in variants}
    names = list(variants)
    for turn in range(rounds):
        for name in names[turn % len(names):] + names[:turn % len(names)]:
            call = variants[name]
            started = time.process_time_ns()
            for _ in range(calls):
                call(request)
            timings[name].append((time.process_time_ns() - started) / calls)
    return timings


def application(environ: dict, start_response) -> list[bytes]:
    """The worker's application: measures on the query's parameters and answers the timings as JSON."""
    from urllib.parse import parse_qs

    query = {key: values[0] for key, values in parse_qs(environ.get("QUERY_STRING", "")).items()}
    timings = measure(int(query["calls"]), int(query["rounds"]), query.get("against", ""))
    start_response("200 OK", [("Content-Type", "application/json")])
    return [json.dumps(timings).encode()]


def main() -> int:
    import argparse
    import platform
    import signal
    import socket
    import statistics
    import subprocess
    import tempfile
    import time
    import urllib.parse
    import urllib.request

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", default="",
                        help="a git revision (or a file) whose config/middleware.py to measure too")
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="request_time_limit-"))
    against = ""
    if args.against and Path(args.against).is_file():
        against = str(Path(args.against).resolve())
    elif args.against:
        source = subprocess.run(["git", "show", f"{args.against}:config/middleware.py"], cwd=ROOT, check=True,
                                capture_output=True, text=True).stdout
        against = str(scratch / "middleware_against.py")
        Path(against).write_text(source)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_VAR_DIR": str(scratch),
           "DJANGO_SECRET_KEY": "benchmark-only-not-a-secret", "DJANGO_LOG_KEY": "benchmark-only-log-key",
           "DJANGO_DEBUG": "0", "REQUEST_TIME_LIMIT": "10", "REQUEST_HARD_TIME_LIMIT": "15"}
    # config/uwsgi.ini's process model: a master, workers serving a request at a time in their main thread
    command = [str(Path(sys.executable).with_name("uwsgi")), "--master", "--processes", "1",
               "--enable-threads", "--single-interpreter", "--die-on-term", "--need-app",
               "--http-socket", f"127.0.0.1:{port}", "--wsgi-file", str(Path(__file__).resolve()),
               "--harakiri", "60", "--disable-logging"]
    log_path = scratch / "uwsgi.log"
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    try:
        query = urllib.parse.urlencode({"calls": args.calls, "rounds": args.rounds, "against": against})
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/?{query}", timeout=600) as answer:
                    timings = json.loads(answer.read())
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    print(f"uWSGI did not answer; its log: {log_path}", file=sys.stderr)
                    return 2
                time.sleep(0.2)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)

    labels = {"bare view": "bare view (no middleware)", "limits off": "this tree, limits off",
              "this tree": "this tree, limits 10 s / 15 s", "against": f"{Path(args.against).name}, limits 10 s / 15 s"}
    print(f"machine: {os.cpu_count()} cores, Python {platform.python_version()}, uWSGI master + 1 worker; "
          f"{args.calls} calls x {args.rounds} rounds, CPU time of the worker")
    floor = statistics.median(timings["bare view"])
    for name, values in timings.items():
        median = statistics.median(values)
        print(f"  {labels[name]:<44} median {median / 1000:6.2f} us/call, lowest {min(values) / 1000:6.2f}, "
              f"over the bare view {(median - floor) / 1000:6.2f} us")
    return 0


if __name__ == "__main__" and not UNDER_UWSGI:
    sys.exit(main())
