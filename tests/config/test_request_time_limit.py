"""On SQLite a slow or stuck request is ended, and the writes of the others queue behind it.

Real servers on a scratch SQLite database with the demo tournament: ``make run``'s web process
(Procfile.run: uvicorn, 2 processes, requests in threads) and production's (Procfile: uWSGI,
here with 3 workers). The hostile request is the test-only route ``/api/test-only/hold-write-lock``
(on only with ``DJANGO_TEST_ENDPOINTS=1``): it takes SQLite's one write lock and sleeps in its
transaction, the worst a slow request can do to the others.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support.net import free_port

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(Path(sys.executable))
SOFT, HARD = 2, 4  # REQUEST_TIME_LIMIT, REQUEST_HARD_TIME_LIMIT of the server under test

# serial: the time limits are checked to the half-second against real servers.
pytestmark = [pytest.mark.server, pytest.mark.serial]


def web_command(procfile: str) -> str:
    for line in (ROOT / procfile).read_text().splitlines():
        if line.startswith("web:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"{procfile} has no web process")


def call(base: str, method: str, path: str, token: str | None = None, body: dict | None = None,
         timeout: float = 30) -> tuple[int | None, dict | None, float]:
    """Sends one request; returns the status (None: no answer), the JSON body and the seconds it took."""
    request = urllib.request.Request(base + path, method=method,
                                     data=json.dumps(body).encode() if body is not None else b"")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null"), time.monotonic() - started
    except urllib.error.HTTPError as error:
        text = error.read()
        return error.code, json.loads(text) if text.startswith(b"{") else None, time.monotonic() - started
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None, None, time.monotonic() - started


def sqlite_env(var: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    env.update({
        "DJANGO_VAR_DIR": str(var), "DJANGO_SECRET_KEY": "tests-only-not-a-secret",
        "DJANGO_LOG_KEY": "tests-only-log-key", "DJANGO_DEBUG": "0",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    })
    return env


@pytest.fixture(scope="module")
def seeded_var(tmp_path_factory):
    """A var folder whose SQLite database is migrated and seeded with the demo, and a director's token: made
    once, each server gets its own copy (the two servers start from the same state, neither sees the other's)."""
    var = tmp_path_factory.mktemp("seeded")
    env = sqlite_env(var)
    for command in (["migrate", "--noinput", "-v0"], ["seed_demo"]):
        subprocess.run([PYTHON, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)
    token = subprocess.run([PYTHON, "manage.py", "issue_token", "director"], cwd=ROOT, env=env, check=True,
                           capture_output=True, text=True).stdout.split()[-1]
    return var, token


@pytest.fixture(scope="module", params=["Procfile.run", "Procfile"])
def sqlite_server(request, tmp_path_factory, seeded_var):
    """Starts a Procfile's web process on a scratch SQLite database seeded with the demo (a copy of ``seeded_var``)."""
    var = tmp_path_factory.mktemp("var")
    shutil.copytree(seeded_var[0], var, dirs_exist_ok=True)
    env = sqlite_env(var)
    token = seeded_var[1]
    port = free_port()
    server_env = {**env, "HOST": "127.0.0.1", "PORT": str(port), "WEB_CONCURRENCY": "3", "DJANGO_TEST_ENDPOINTS": "1",
                  "REQUEST_TIME_LIMIT": str(SOFT), "REQUEST_HARD_TIME_LIMIT": str(HARD)}
    log_path = var / "web.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(["bash", "-c", f"exec {web_command(request.param)}"], cwd=ROOT, env=server_env,
                                   stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while call(base, "GET", "/healthz", timeout=2)[0] is None:
        assert process.poll() is None and time.monotonic() < deadline, log_path.read_text()
        time.sleep(0.2)
    try:
        yield base, token, log_path, request.param
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def fresh_game(base: str, token: str) -> int:
    """Creates a standalone game between two demo players; returns its id."""
    status, players, _ = call(base, "GET", "/api/v1/players/?page_size=2")
    assert status == 200
    black, white = (row["id"] for row in players["results"])
    status, game, _ = call(base, "POST", "/api/v1/games/", token, {"black": black, "white": white})
    assert status == 201, game
    return game["id"]


def in_background(function, *args) -> tuple[threading.Thread, list]:
    result: list = []
    thread = threading.Thread(target=lambda: result.append(function(*args)), daemon=True)
    thread.start()
    return thread, result


def test_a_write_on_another_game_queues_behind_a_slow_request_which_is_stopped_at_the_time_limit(sqlite_server):
    base, token, log_path, procfile = sqlite_server
    game = fresh_game(base, token)
    hostile, hostile_result = in_background(call, base, "POST", "/api/test-only/hold-write-lock?seconds=60")
    time.sleep(0.5)  # the hostile request holds SQLite's write lock now

    status, state, waited = call(base, "POST", f"/api/v1/games/{game}/moves/", token, {"move": "11-15"})

    assert status == 201, state
    assert state["ply"] == 1 and state["last_move"]["move"] == "11-15"
    assert waited < SOFT + 2  # queued until the hostile request was stopped, not 60 s, not refused
    hostile.join(timeout=10)
    hostile_status, hostile_body, hostile_took = hostile_result[0]
    assert hostile_status == 503
    assert hostile_body["error"]["code"] == "timeout"
    assert SOFT - 0.5 < hostile_took < SOFT + 2
    log = log_path.read_text()
    assert "hold-write-lock: stopped after 2 s (REQUEST_TIME_LIMIT)" in log
    assert "database is locked" not in log and "Traceback" not in log


def test_a_request_stuck_where_python_cannot_stop_it_is_killed_and_the_others_go_on(sqlite_server):
    base, token, log_path, procfile = sqlite_server
    game = fresh_game(base, token)
    started = time.monotonic()
    stuck, stuck_result = in_background(call, base, "POST", "/api/test-only/hold-write-lock?seconds=60&stuck=1",
                                        None, None, 30)
    # at the hard limit the process ends, and its lock goes with it: uWSGI's master kills the
    # worker (it checks once a second); under uvicorn the watchdog dumps the threads and exits
    killed = "HARAKIRI (user) triggered" if procfile == "Procfile" else "Timeout (0:00:0"
    deadline = time.monotonic() + HARD + 10
    while killed not in log_path.read_text():
        assert time.monotonic() < deadline, log_path.read_text()[-3000:]
        time.sleep(0.2)
    killed_after = time.monotonic() - started
    assert HARD - 0.5 < killed_after < HARD + 3

    status, state, waited = call(base, "POST", f"/api/v1/games/{game}/moves/", token, {"move": "9-13"})
    assert status == 201, state
    assert waited < 1.5  # the lock was released when the worker died
    status, _, _ = call(base, "GET", f"/api/v1/games/{game}/")
    assert status == 200
    log = log_path.read_text()
    if procfile == "Procfile":
        assert "POST /api/test-only/hold-write-lock?seconds=60&stuck=1" in log  # the request killed is named
        respawned = "Respawned uWSGI worker"
    else:
        assert 'File "' + str(ROOT / "config" / "views.py") + '", line' in log  # where it was stuck
        respawned = "died"  # uvicorn's supervisor: "Child process [pid] died", then a new one
    deadline = time.monotonic() + 10
    while respawned not in log_path.read_text():
        assert time.monotonic() < deadline, log_path.read_text()[-3000:]
        time.sleep(0.2)
    stuck.join(timeout=1)
