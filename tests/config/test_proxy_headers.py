"""X-Forwarded-For is trusted only behind the TLS proxy (``DJANGO_BEHIND_TLS_PROXY``), by the real uvicorn server
as by Django: a client that rotates it beats neither the sign-in lock-out nor the per-address stream cap."""

from __future__ import annotations

import http.client
import json
import re
import urllib.parse
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a-long-test-password"


def uvicorn_commands() -> list[str]:
    """Every uvicorn command line the project runs or tells to run: the Procfiles and docs/deployment.md."""
    lines = [*(ROOT / "Procfile").read_text().splitlines(), *(ROOT / "Procfile.run").read_text().splitlines(),
             *(ROOT / "docs" / "deployment.md").read_text().splitlines()]
    return [line for line in lines if re.search(r"\buvicorn config\.asgi", line)]


def test_every_uvicorn_command_line_leaves_the_client_address_alone():
    from tests.support.live import WebProcess

    commands = uvicorn_commands()
    assert len(commands) >= 3  # Procfile's live, Procfile.run's web (make run), the deployment guide's
    assert all("--no-proxy-headers" in command for command in commands), commands
    assert "--no-proxy-headers" in WebProcess().command()


@pytest.fixture
def uvicorn_server(tmp_path):
    from tests.conftest import worker_env
    from tests.support.live import WebProcess

    env = {**worker_env(), "LIVE_MAX_PER_ADDRESS": "2", "DJANGO_BEHIND_TLS_PROXY": "", "AXES_FAILURE_LIMIT": "5"}
    server = WebProcess(env=env, log_path=tmp_path / "web.log").start()
    yield server
    server.stop()


def sign_in(port: int, username: str, password: str, forwarded_for: str) -> int:
    """Signs in through the sign-in page (its CSRF cookie and token) with an X-Forwarded-For; returns the status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/accounts/login/", headers={"X-Forwarded-For": forwarded_for})
        page = connection.getresponse()
        html = page.read().decode()
        cookie = re.search(r"csrftoken=([^;]+)", page.getheader("Set-Cookie") or "").group(1)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        body = urllib.parse.urlencode({"username": username, "password": password, "csrfmiddlewaretoken": token})
        connection.request("POST", "/accounts/login/", body=body, headers={
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={cookie}",
            "X-Forwarded-For": forwarded_for})
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


@pytest.mark.server
def test_a_rotated_x_forwarded_for_does_not_beat_the_sign_in_lock_out(uvicorn_server, make_user):
    make_user("boss", "director")
    codes = [sign_in(uvicorn_server.port, "boss", "wrong-guess", f"198.51.100.{n}") for n in range(1, 6)]
    assert codes == [200, 200, 200, 200, 429]
    assert sign_in(uvicorn_server.port, "boss", PASSWORD, "198.51.100.77") == 429


@pytest.mark.server
def test_a_rotated_x_forwarded_for_does_not_beat_the_per_address_stream_cap(uvicorn_server, make_user):
    from arbitration.services import game_create
    from players.models import Player
    from tests.support.live import EventStream

    director = make_user("td", "director")
    black, white = (Player.objects.create(name=f"Player {n}") for n in range(2))
    game = game_create(acting_user=director, black=black, white=white)
    streams = [EventStream(uvicorn_server.port, f"/live/games/{game.pk}", headers={"X-Forwarded-For": f"10.0.0.{n}"})
               for n in range(1, 4)]
    try:
        assert [stream.status for stream in streams] == [200, 200, 503]
        assert json.loads(streams[2].response.read())["error"]["code"] == "live_full"
    finally:
        for stream in streams:
            stream.close()
