"""`make run` starts the whole system with the embedded defaults and stops it on Ctrl-C."""

import json
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support.net import free_port

ROOT = Path(__file__).resolve().parents[2]

# serial: the whole system (migrations, the demo, uvicorn and a worker) started and timed, a heavy load.
pytestmark = [pytest.mark.server, pytest.mark.serial]


def get_json(url: str, token: str | None = None, body: dict | None = None):
    request = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Accept", "application/json")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, None
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None, None


def director_token(env: dict[str, str], tmp_path: Path) -> str:
    """Returns an API token of the demo director, issued in the running system's database."""
    return subprocess.run(
        [str(ROOT / ".venv" / "bin" / "python"), "manage.py", "issue_token", "director"], cwd=ROOT,
        env={**env, "DJANGO_SECRET_KEY": (tmp_path / "var" / "secret_key").read_text().strip()},
        capture_output=True, text=True, check=True,
    ).stdout.split()[-1]


def assert_clocks_enforced(port: int, env: dict[str, str], tmp_path: Path) -> None:
    """On the embedded defaults too, the worker calls time and adjudicates the loss by delay."""
    token = director_token(env, tmp_path)
    base = f"http://127.0.0.1:{port}/api/v1"
    status, players = get_json(f"{base}/players/")
    assert status == 200
    ids = [row["id"] for row in players["results"]][:2]
    clock = {"control": "per-move", "move_seconds": 1, "sole_capture_seconds": 1, "grace_seconds": 1}
    status, game = get_json(f"{base}/games/", token, {"black": ids[0], "white": ids[1], "clock": clock})
    assert status == 201, game
    status, _ = get_json(f"{base}/games/{game['id']}/rulings/", token, {"kind": "clock_start"})
    assert status == 201
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        status, state = get_json(f"{base}/games/{game['id']}/")
        if state["status"] == "finished":
            break
        time.sleep(0.25)
    assert (state["status"], state["termination"], state["result"]) == ("finished", "loss_by_delay", "0-1")
    status, log = get_json(f"{base}/games/{game['id']}/log/")
    kinds = [entry["kind"] for entry in (log["results"] if isinstance(log, dict) else log)]
    assert kinds[-2:] == ["time_call", "game_end"]


@pytest.mark.timeout(400)
def test_make_run_serves_health_with_a_worker_and_stops_on_ctrl_c(tmp_path):
    port = free_port()
    env = {
        key: value for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SECRET_KEY", "DJANGO_LOG_KEY", "MAKEFLAGS", "MAKELEVEL", "MFLAGS"}
    }
    env.update({"PORT": str(port), "HOST": "127.0.0.1", "DJANGO_VAR_DIR": str(tmp_path / "var")})
    log = (tmp_path / "make-run.log").open("wb")
    process = subprocess.Popen(
        ["make", "run"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}/healthz"
    try:
        deadline = time.monotonic() + 240
        status, body = None, None
        while time.monotonic() < deadline:
            status, body = get_json(url)
            if status == 200:
                break
            assert process.poll() is None, (tmp_path / "make-run.log").read_text()
            time.sleep(1)
        assert (status, body) == (200, {"status": "up"}), (tmp_path / "make-run.log").read_text()
        token = director_token(env, tmp_path)
        while time.monotonic() < deadline:  # the worker's heartbeat (a row in SQLite) is counted
            status, body = get_json(url, token)
            if status == 200 and body["workers"] >= 1:
                break
            time.sleep(1)
        assert {key: body[key] for key in ("status", "database", "broker", "workers")} == {
            "status": "up", "database": "ok", "broker": "ok", "workers": 1}
        output = (tmp_path / "make-run.log").read_text()
        assert f"http://127.0.0.1:{port}/" in output
        for username in ["director", "referee1", "referee2", "player1", "player8"]:
            assert username in output
        assert (tmp_path / "var" / "secret_key").stat().st_size > 40
        assert (tmp_path / "var" / "log_key").stat().st_size > 40
        assert (tmp_path / "var" / "log_key").stat().st_mode & 0o077 == 0
        assert (tmp_path / "var" / "db.sqlite3").exists()
        # the worker embeds the beat (-B), which keeps its schedule under the var dir
        assert list((tmp_path / "var").glob("celerybeat-schedule*")), sorted((tmp_path / "var").iterdir())
        assert "beat: Starting..." in (tmp_path / "make-run.log").read_text()
        assert_clocks_enforced(port, env, tmp_path)
    finally:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            raise
        finally:
            log.close()
    assert get_json(url) == (None, None)  # nothing answers any more
    leftover = subprocess.run(["pgrep", "-g", str(process.pid)], capture_output=True, text=True)
    assert leftover.stdout.strip() == "", "processes of make run survived Ctrl-C"
    output = (tmp_path / "make-run.log").read_text()
    # Ctrl-C is an ordinary stop: no process reports it as an error (a prefork pool's child,
    # signalled with the rest of the group, was reported as one and started anew while stopping)
    assert "ERROR" not in output and "Traceback" not in output, output[-3000:]
