"""schemathesis against the real web server: no input gets a 500, and every answer is what the schema says.

The Procfile's uWSGI serves the test database, seeded with the demo tournament (its games, a
published round, logs); schemathesis (``st run``) reads the served schema and sends what it
generates from it, positive and negative, to every operation, as a director, a referee, a player
and anonymously, with a fixed seed. Any finding of the four checks fails the test, and so does a
traceback in the server's log, and so does a request that gets no answer: schemathesis would send
it again on a fresh connection, which ``tests/support/fuzz_hooks.py`` turns off. Beside that, every
write operation gets a form body sent chunked, part by part, as every role: each must be answered
(411), none may break the pipe. ``make fuzz`` runs the same with another seed and more examples
(``FUZZ_SEED``, ``FUZZ_EXAMPLES``).
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import worker_env
from tests.support.background import pass_on_priority
from tests.support.net import free_port

ROOT = Path(__file__).resolve().parents[2]
ST = str(Path(sys.executable).parent / "st")
CHECKS = "not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance"
SEED = int(os.environ.get("FUZZ_SEED", "20261123"))
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
FUZZ_CONCURRENCY = int(os.environ.get("FUZZ_CONCURRENCY", "2"))
ROLES = {"director": "director", "referee": "referee1", "player": "player1", "anonymous": None}

# background: minutes of full load (schemathesis and uWSGI's workers) that time nothing: make test runs it
# beside the other parts at a lower CPU priority (nice 10), where it takes the CPU they leave idle.
pytestmark = [pytest.mark.django_db(transaction=True, reset_sequences=True), pytest.mark.timeout(max(1800, 40 * EXAMPLES)),
              pytest.mark.server, pytest.mark.background]


def procfile_command(name: str) -> str:
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"the Procfile has no {name} process")


@pytest.fixture
def fuzzed_server(transactional_db, tmp_path):
    """Starts the Procfile's web process on the test database, throttles off; yields its base URL and log."""
    port = free_port()
    env = {
        **os.environ, **worker_env(), "PORT": str(port), "WEB_CONCURRENCY": str(4 * FUZZ_CONCURRENCY), "DJANGO_DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1", "API_THROTTLE_ANON": "off", "API_THROTTLE_USER": "off",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        # The server runs at make test's background priority beside the parallel part's full load: the
        # first schema it generated once took more than production's 10 s (a 503 the test failed on,
        # a time limit, not a fault it looks for). Under uWSGI's harakiri (60 s, config/uwsgi.ini).
        "REQUEST_TIME_LIMIT": "50",
    }
    log_path = tmp_path / "web.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(["bash", "-c", f"exec {procfile_command('web')}"], cwd=ROOT, env=env,
                                   stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    pass_on_priority(process.pid)  # make test's background part is niced: so is its server
    deadline = time.monotonic() + 300  # at nice 10 beside the busy parallel part, Django loads slowly
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            assert process.poll() is None and time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.2)
    try:
        yield f"http://127.0.0.1:{port}", log_path
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def with_examples(schema: dict, examples: dict[str, object]) -> dict:
    """Gives the path parameters examples that name real objects, so that the examples phase reads them."""
    for operations in schema["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path" and parameter["name"] in examples:
                    parameter["example"] = examples[parameter["name"]]
    return schema


def varied_states() -> None:
    """Adds games and log rows in the states the demo lacks, so that the answers read in them are checked.

    Through the API as the demo's director: a running per-move
    clock with a move, a moves-in-time game resigned, a standalone draw, a demo game forfeited by
    a false move and its result corrected on the tournament's record (a log row that supersedes
    another), and a clock paused.
    """
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    from games.models import Game
    from tournaments.demo import DEMO_SLUG
    from tournaments.models import Tournament

    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(username="director"))
    slug = Tournament.objects.get(slug=DEMO_SLUG).slug
    first = Game.objects.filter(round__tournament__slug=slug, status="in_progress").order_by("id").first().id

    def post(path: str, body: dict, expected: int = 201) -> dict:
        response = client.post(path, body, format="json")
        assert response.status_code == expected, (path, body, response.content[:2000])
        return response.json()

    players = [row["id"] for row in client.get("/api/v1/players/").json()["results"]]
    per_move = {"control": "per-move", "move_seconds": 300, "sole_capture_seconds": 60, "grace_seconds": 60}
    running = post("/api/v1/games/", {"black": players[0], "white": players[1], "clock": per_move})["id"]
    post(f"/api/v1/games/{running}/rulings/", {"kind": "clock_start"})
    post(f"/api/v1/games/{running}/moves/", {"move": "11-15"})
    in_time = {"control": "moves-in-time", "moves": 30, "seconds": 3600, "increment_seconds": 5}
    resigned = post("/api/v1/games/", {"black": players[2], "white": players[3], "clock": in_time})["id"]
    post(f"/api/v1/games/{resigned}/rulings/", {"kind": "clock_start"})
    for move in ("9-14", "22-18", "5-9"):
        post(f"/api/v1/games/{resigned}/moves/", {"move": move})
    post(f"/api/v1/games/{resigned}/rulings/", {"kind": "resign", "side": "white"})
    drawn = post("/api/v1/games/", {"black": players[4], "white": players[5]})["id"]
    post(f"/api/v1/games/{drawn}/rulings/", {"kind": "draw_agreed"})
    paused = post("/api/v1/games/", {"black": players[6], "white": players[7], "clock": per_move})["id"]
    post(f"/api/v1/games/{paused}/rulings/", {"kind": "clock_start"})
    post(f"/api/v1/games/{paused}/rulings/", {"kind": "clock_pause"})
    post(f"/api/v1/games/{first}/rulings/", {"kind": "false_move", "side": "black", "move": "11-16"})
    post(f"/api/v1/tournaments/{slug}/results/", {"game": first, "result": "1/2-1/2", "reason": "scoresheet checked"},
         expected=200)


def findings_of(output: str) -> list[str]:
    """Condenses schemathesis's report to one paragraph per finding: operation, checks, status, curl."""
    findings, current = [], None
    for line in output.splitlines():
        text = line.strip()
        if text.startswith("___") and text.endswith("___") and " /" in text:
            current = [text.strip("_ ")]
            findings.append(current)
        elif current is not None and (text.startswith(("- ST", "Received:", "Documented:", "curl ", "[", "Expected"))
                                      or text.startswith("- ") and "ST" not in text[:3]):
            current.append(text[:500])
    return ["\n    ".join(finding) for finding in findings]


def role_tokens() -> dict[str, str | None]:
    """Issues each role's token; decoy tokens first, so that the fuzzer's DELETE of /me/tokens/{small id}/
    does not revoke the token it runs with."""
    from django.contrib.auth import get_user_model

    from accounts.services import token_issue

    users = {role: get_user_model().objects.get(username=name) for role, name in ROLES.items() if name}
    for _ in range(20):
        for user in users.values():
            token_issue(user=user)
    return {role: token_issue(user=users[role]) if name else None for role, name in ROLES.items()}


def chunked_bodies_answered(base: str, schema: dict, tokens: dict[str, str | None], at_once: int) -> list[str]:
    """Sends a form body chunked, in parts with pauses, to every write operation as every role; returns the
    requests that got no answer (a broken pipe, a reset) or another answer than 411 (the body guard answers
    before any view, whoever asks). ``at_once`` requests are under way together (as many as the server has
    workers): each waits half a second in its pause, which one after the other added up to minutes."""
    port = int(base.rsplit(":", 1)[1])
    part = b"name=" + b"x" * 16000 + b"&"
    requests = []
    for path, operations in schema["paths"].items():
        url = path.replace("{slug}", "no-such-tournament")
        url = re.sub(r"\{[a-z_]+\}", "1", url)
        for method in operations:
            if method.upper() not in ("POST", "PUT", "PATCH", "DELETE"):
                continue
            for role, token in tokens.items():
                requests.append((method.upper(), url, role, token))

    def send(method: str, url: str, role: str, token: str | None) -> str | None:
        head = (f"{method} {url} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n"
                + (f"Authorization: Token {token}\r\n" if token else "") + "\r\n").encode()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                sock.sendall(head)
                for number in range(8):
                    sock.sendall(f"{len(part):x}\r\n".encode() + part + b"\r\n")
                    if number == 0:
                        time.sleep(0.5)  # as a client streaming its form: the server must wait for the rest
                sock.sendall(b"0\r\n\r\n")
                status = sock.recv(65536).split(b"\r\n", 1)[0]
        except OSError as error:
            return f"{method} {url} as {role}: {error!r}"
        if status.split(b" ")[1:2] != [b"411"]:
            return f"{method} {url} as {role}: {status!r}"
        return None

    with ThreadPoolExecutor(max_workers=at_once) as pool:
        return [failure for failure in pool.map(lambda request: send(*request), requests) if failure]


def test_schemathesis_finds_nothing_as_any_role(fuzzed_server, tmp_path):
    from games.models import Game
    from tournaments.demo import DEMO_SLUG, demo_seed
    from tournaments.models import Tournament

    base, log_path = fuzzed_server
    demo_seed()
    varied_states()
    tokens = role_tokens()
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    game = Game.objects.filter(round__tournament=tournament).order_by("id").first()
    with urllib.request.urlopen(f"{base}/api/v1/schema/?format=json", timeout=30) as response:
        schema = json.loads(response.read())
    schema_path = tmp_path / "schema.json"
    schema_path.write_text(json.dumps(with_examples(schema, {
        "slug": tournament.slug, "id": game.id, "number": 1, "player": tournament.entries.first().player_id,
    })))

    def fuzz(role: str, token: str | None) -> tuple[str, subprocess.CompletedProcess, float]:
        command = [ST, "--no-color", "run", str(schema_path), "--url", base, "--checks", CHECKS, "--seed", str(SEED),
                   "--max-examples", str(EXAMPLES), "--phases", "examples,coverage,fuzzing", "--workers", "1",
                   "--request-timeout", "30", "--suppress-health-check", "all",
                   "--report", "json", "--report-json-path", str(tmp_path / f"schemathesis-{role}.json")]
        if token:
            command += ["--header", f"Authorization: Token {token}"]
        started = time.monotonic()
        run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=max(1200, 10 * EXAMPLES),
                             env={**os.environ, "SCHEMATHESIS_HOOKS": str(ROOT / "tests" / "support" / "fuzz_hooks.py"),
                                  # straight to the server: no proxy, and requests then skips scanning the
                                  # environment for one at every request (a twentieth of schemathesis's time)
                                  "NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1"})
        return role, run, time.monotonic() - started

    # Two roles at a time: one schemathesis waits on the server while the other generates, so two keep both
    # cores busy where one kept about one (the server answers each role's requests in its own worker). The
    # chunked bodies go beside them, in workers of their own: they are mostly pauses (a minute of them).
    findings, tested = [], {}

    def chunked() -> tuple[list[str], float]:
        started = time.monotonic()
        return chunked_bodies_answered(base, schema, tokens, at_once=2 * FUZZ_CONCURRENCY), time.monotonic() - started

    with ThreadPoolExecutor(max_workers=1) as aside:
        chunked_run = aside.submit(chunked)
        with ThreadPoolExecutor(max_workers=FUZZ_CONCURRENCY) as pool:
            runs = list(pool.map(lambda item: fuzz(*item), tokens.items()))
        unanswered, seconds = chunked_run.result()
    print(f"== chunked bodies: {seconds:.1f} s, beside the roles")
    for role, run, seconds in runs:
        (tmp_path / f"schemathesis-{role}.txt").write_text(run.stdout + run.stderr)
        print(f"== {role}: exit {run.returncode} in {seconds:.0f} s\n" + "\n".join(run.stdout.splitlines()[-8:]))
        report = json.loads((tmp_path / f"schemathesis-{role}.json").read_text())
        operations = report["operations"]
        tested[role] = (operations["tested"], operations["total"], report["test_cases"]["generated"])
        if run.returncode != 0:
            findings.append(f"== as {role} (whole report: {tmp_path}/schemathesis-{role}.txt) ==\n"
                            + "\n".join(findings_of(run.stdout) or [run.stdout[-5000:] + run.stderr[-2000:]]))
    # every operation of the schema was reached, as every role
    assert all(done == total == len([op for ops in schema["paths"].values() for op in ops]) and cases > total
               for done, total, cases in tested.values()), tested
    assert not findings, "\n".join(findings)
    assert unanswered == []
    log = log_path.read_text()
    assert "Traceback" not in log, log[log.index("Traceback") - 2000:][:8000]
