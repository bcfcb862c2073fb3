"""The Procfile's web process, as production runs it: uWSGI's HTTP router in front of preforked workers."""

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import worker_env
from tests.support.net import free_port

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.server


def procfile_command(name: str) -> str:
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"the Procfile has no {name} process")


@pytest.fixture
def web_server(transactional_db, tmp_path):
    """Starts the Procfile's ``web`` command (2 workers) on the test database; stops it with SIGTERM."""
    port = free_port()
    env = {
        **os.environ, **worker_env(), "PORT": str(port), "WEB_CONCURRENCY": "2", "DJANGO_DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1", "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    log_path = tmp_path / "web.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(["bash", "-c", f"exec {procfile_command('web')}"], cwd=ROOT, env=env,
                                   stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            assert process.poll() is None and time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.2)
    try:
        yield port, process, log_path
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_the_web_process_serves_the_api_on_kept_alive_connections_and_stops_on_sigterm(web_server):
    from accounts.roles import Role
    from accounts.services import token_issue, user_create_with_role
    from players.models import Player

    port, process, log_path = web_server
    Player.objects.create(name="Served Player")
    director = user_create_with_role(username="web-director", password="x-web-password-1", role=Role.DIRECTOR)
    token = token_issue(user=director)

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/api/v1/players/")
    first = connection.getresponse()
    body = json.loads(first.read())
    assert first.status == 200 and not first.will_close
    assert [row["name"] for row in body["results"]] == ["Served Player"]
    kept = connection.sock
    connection.request("POST", "/api/v1/players/", body=json.dumps({"name": "Posted Player"}),
                       headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    created = connection.getresponse()
    assert created.status == 201, created.read()
    assert json.loads(created.read())["name"] == "Posted Player"
    assert connection.sock is kept  # the same connection: kept alive by the router
    # refused before its body is read (a large one, past the in-memory buffer): the connection
    # still serves the next request
    connection.request("POST", "/api/v1/players/", body=json.dumps({"name": "Anonymous", "club": "x" * 300_000}),
                       headers={"Content-Type": "application/json"})
    refused = connection.getresponse()
    assert refused.status == 401
    assert json.loads(refused.read())["error"]["code"] == "not_authenticated"
    connection.request("GET", "/api/v1/players/", headers={"Host": "evil.example"})
    bad_host = connection.getresponse()
    bad_host.read()
    assert bad_host.status == 400
    connection.close()
    assert Player.objects.filter(name="Posted Player").exists()

    os.killpg(process.pid, signal.SIGTERM)
    assert process.wait(timeout=30) is not None
    leftover = subprocess.run(["pgrep", "-g", str(process.pid)], capture_output=True, text=True)
    assert leftover.stdout.strip() == "", "processes of the web server survived SIGTERM"
    log = log_path.read_text()
    assert '"POST /api/v1/players/ HTTP/1.1" 201' in log  # the access log line of each request
    assert token not in log  # nothing sensitive logged


def raw_exchange(port: int, head: bytes, body: bytes = b"", *, wait_for_continue: bool = False) -> list[bytes]:
    """Sends a request by hand; returns the status lines received (an interim 100 first, if any)."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(head)
        received = b""
        if wait_for_continue:
            while b"\r\n\r\n" not in received:
                chunk = sock.recv(65536)
                assert chunk, "the server closed the connection instead of answering 100 Continue"
                received += chunk
        sock.sendall(body)
        while received.count(b"\r\n\r\n") < (2 if wait_for_continue else 1) or not received.endswith(b"}"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
    return [line for line in received.split(b"\r\n") if line.startswith(b"HTTP/1.1 ")] + [received]


def test_bodies_announced_with_expect_chunked_or_stopping_short_get_clear_answers(web_server):
    from accounts.roles import Role
    from accounts.services import token_issue, user_create_with_role
    from players.models import Player

    port, _process, _log = web_server
    token = token_issue(user=user_create_with_role(username="web-director2", password="x-web-password-2",
                                                   role=Role.DIRECTOR))
    body = json.dumps({"name": "Expectant Player"}).encode()
    head = (f"POST /api/v1/players/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {token}\r\n"
            "Content-Type: application/json\r\n").encode()

    # a client that asks before sending its body (curl does for large ones) is told to go on
    interim, final, _ = raw_exchange(port, head + f"Content-Length: {len(body)}\r\nExpect: 100-continue\r\n\r\n"
                                     .encode(), body, wait_for_continue=True)
    assert interim.startswith(b"HTTP/1.1 100") and final.startswith(b"HTTP/1.1 201")
    assert Player.objects.filter(name="Expectant Player").exists()

    # a chunked body is refused as a whole, not read as empty
    chunked = f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n"
    status, answer = raw_exchange(port, head + b"Transfer-Encoding: chunked\r\n\r\n", chunked)
    assert status.startswith(b"HTTP/1.1 411")
    assert b'"code": "length_required"' in answer

    # a body that stops short is read before the application runs (post-buffering): after the
    # server's socket timeout the connection is closed, and nothing was run or written
    short = json.dumps({"name": "Never Whole"}).encode()
    answer = raw_exchange(port, head + f"Content-Length: {len(short) + 50}\r\n\r\n".encode(), short)
    assert answer == [b""]
    assert not Player.objects.filter(name="Never Whole").exists()


def chunked_exchange(port: int, head: bytes, parts: int, part: bytes) -> bytes:
    """Sends a chunked body of ``parts`` parts as a client does (each part as it comes); returns the whole answer.

    A broken pipe or a reset while sending or reading fails: the client must get the server's answer.
    """
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(head + b"Transfer-Encoding: chunked\r\n\r\n")
        for number in range(parts):
            sock.sendall(f"{len(part):x}\r\n".encode() + part + b"\r\n")
            if number < 3:
                time.sleep(0.5)  # a client streaming its form: the server must wait for the rest
        sock.sendall(b"0\r\n\r\n")
        received = b""
        while b"\r\n\r\n" not in received or not received.rstrip().endswith((b"}", b".")):
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
    return received


def test_a_chunked_body_is_read_to_its_end_before_the_411_so_the_client_gets_the_answer(web_server):
    from accounts.roles import Role
    from accounts.services import token_issue, user_create_with_role

    port, _process, log_path = web_server
    token = token_issue(user=user_create_with_role(username="web-director3", password="x-web-password-3",
                                                   role=Role.DIRECTOR))
    form = b"name=" + b"x" * 8000 + b"&"
    api = (f"POST /api/v1/players/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {token}\r\n"
           "Content-Type: application/x-www-form-urlencoded\r\n").encode()
    answer = chunked_exchange(port, api, 100, form)  # 800 kB, sent as a client streams a form
    assert answer.startswith(b"HTTP/1.1 411") and b'"code": "length_required"' in answer
    page = b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
    answer = chunked_exchange(port, page, 300, b"username=a&password=" + b"x" * 8000)  # 2.4 MB, under the limit
    assert answer.startswith(b"HTTP/1.1 411") and b"chunked transfer encoding is not accepted" in answer
    assert "Traceback" not in log_path.read_text()
