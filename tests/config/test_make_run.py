"""`make run` starts the whole system with the embedded defaults and stops it on Ctrl-C."""

import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get_json(url: str):
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, None
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None, None


@pytest.mark.timeout(400)
def test_make_run_serves_health_with_a_worker_and_stops_on_ctrl_c(tmp_path):
    port = free_port()
    env = {
        key: value for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SECRET_KEY", "MAKEFLAGS", "MAKELEVEL", "MFLAGS"}
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
            if status == 200 and body["workers"] >= 1:
                break
            assert process.poll() is None, (tmp_path / "make-run.log").read_text()
            time.sleep(1)
        assert status == 200, (tmp_path / "make-run.log").read_text()
        assert body == {"database": "ok", "broker": "ok", "workers": 1}
        output = (tmp_path / "make-run.log").read_text()
        assert f"http://127.0.0.1:{port}/" in output
        for username in ["director", "referee1", "referee2", "player1", "player8"]:
            assert username in output
        assert (tmp_path / "var" / "secret_key").stat().st_size > 40
        assert (tmp_path / "var" / "db.sqlite3").exists()
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
