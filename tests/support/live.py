"""The ASGI web server (uvicorn, pages + API + live streams) in its own process, and an SSE client."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.support.net import free_port

ROOT = Path(__file__).resolve().parents[2]

# Set by tests/conftest.py around each test: whether the test may start a web server (it carries one of the
# marks that keep it out of ``make test-fast``). None outside a test (a benchmark, a script): no check.
SERVER_ALLOWED: bool | None = None
SERVER_MARKS = ("server", "e2e", "celery", "serial", "background")


class WebProcess:
    """Runs ``uvicorn config.asgi:application`` on a free port of 127.0.0.1 against the test database."""

    def __init__(self, *, env: dict[str, str] | None = None, log_path: Path | None = None, processes: int = 1) -> None:
        self.port = free_port()
        self.processes = processes  # uvicorn --workers: that many processes serving the one port
        self.env = {**os.environ, "ALLOWED_HOSTS": "127.0.0.1,localhost", **(env or {})}
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        """The command line, as the Procfiles': uvicorn rewrites no client address from proxy headers
        (the application reads them behind the TLS proxy only, ``DJANGO_BEHIND_TLS_PROXY``)."""
        return [sys.executable, "-m", "uvicorn", "config.asgi:application", "--no-proxy-headers", "--host",
                "127.0.0.1", "--port", str(self.port), "--no-access-log", "--workers", str(self.processes)]

    def start(self, timeout: float = 30.0) -> WebProcess:
        if SERVER_ALLOWED is False:
            raise RuntimeError(f"a test that starts a web server is marked one of {SERVER_MARKS} (server: "
                               "`make test-fast` has no server)")
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            self.command(),
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"uvicorn exited with status {self.process.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.1)
        raise TimeoutError("uvicorn did not listen in time")

    def connections_by_process(self) -> dict[int, int]:
        """The established connections to the port that each process of this server holds now (by pid)."""
        sockets = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with open(table) as rows:
                for row in list(rows)[1:]:
                    fields = row.split()
                    if int(fields[1].rsplit(":", 1)[1], 16) == self.port and fields[3] == "01":
                        sockets.add(f"socket:[{fields[9]}]")
        held = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                if int(stat[stat.rindex(")") + 2:].split()[2]) != self.process.pid:  # not of its process group
                    continue
                fds = [os.readlink(fd) for fd in (entry / "fd").iterdir()]
            except OSError:
                continue
            held[int(entry.name)] = sum(1 for fd in fds if fd in sockets)
        return held

    def kill(self) -> None:
        """Kills the server at once (SIGKILL), as a crash: its connections drop now.

        ``stop`` asks uvicorn to shut down gracefully, and uvicorn then waits for the responses under way,
        which a live stream's never ends: its clients keep their connection until ``stop`` kills it, 10 s on.
        """
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


class EventStream:
    """Reads a server-sent event stream in a thread; ``events`` collects the parsed data with their ids."""

    def __init__(self, port: int, path: str, headers: dict[str, str] | None = None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream", **(headers or {})})
        self.sock = self.connection.sock  # kept: the connection lets go of it when the answer says it closes
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.events: list[tuple[str | None, dict]] = []
        self.cond = threading.Condition()
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event_id, data = None, []
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n").rstrip("\r")
                if not line:
                    if data:
                        with self.cond:
                            self.events.append((event_id, json.loads("\n".join(data))))
                            self.cond.notify_all()
                    event_id, data = None, []
                elif line.startswith("id: "):
                    event_id = line[4:]
                elif line.startswith("data: "):
                    data.append(line[6:])
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            return

    def wait_for(self, predicate, timeout: float = 5.0) -> dict:  # noqa: ANN001
        """Returns the first event whose data satisfies ``predicate``, waiting up to ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for _id, event in self.events:
                    if predicate(event):
                        return event
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no such event; got {[e for _, e in self.events]}")
                self.cond.wait(left)

    def entries(self, game_id: int | None = None) -> list[dict]:
        with self.cond:
            return [e for _, e in self.events if e.get("type") == "entry" and (game_id is None or e["game"] == game_id)]

    def close(self) -> None:
        """Ends the stream at once, as a client that goes away: the server sees the connection close now.

        The socket is shut down first: the reader thread is blocked reading the response, and closing
        the response alone waits for that read to return (the response's buffer lock), which on a quiet
        stream is the next keep-alive or the 30 s read timeout; meanwhile the server still holds the stream.
        """
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.connection.close()
