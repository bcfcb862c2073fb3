"""A webhook receiver for the tests: a real HTTP server on the loopback, in a thread of the test's process."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Receiver:
    """Records each POST (headers, body); answers with the next status of ``statuses`` (then 200).

    ``hang`` makes it hold each request until ``release()`` (or ``hang_seconds``) before answering.
    """

    def __init__(self, statuses: list[int] | None = None, hang_seconds: float = 0.0) -> None:
        self.statuses = list(statuses or [])
        self.hang_seconds = hang_seconds
        self.released = threading.Event()
        self.received: list[dict[str, Any]] = []
        self.cond = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.cond:
                    receiver.received.append({"headers": {k.lower(): v for k, v in self.headers.items()},
                                              "body": body, "at": time.monotonic()})
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                    receiver.cond.notify_all()
                if receiver.hang_seconds:
                    receiver.released.wait(receiver.hang_seconds)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "text/plain")
                    self.end_headers()
                    self.wfile.write(b"ok" if status < 300 else b"not now")
                except OSError:
                    pass

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()

    def wait_for(self, count: int, timeout: float = 60.0) -> list[dict[str, Any]]:
        """Waits until ``count`` requests came; returns them all."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while len(self.received) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.received)} requests came, not {count}")
                self.cond.wait(left)
            return list(self.received)


def verified(secret: str, request: dict[str, Any]) -> dict[str, Any]:
    """Checks a request's signature as a receiver would (docs/integrations.md); returns its JSON body."""
    headers, body = request["headers"], request["body"]
    timestamp = headers["x-draughts-timestamp"]
    expected = "sha256=" + hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(expected, headers["x-draughts-signature"]), "the signature does not verify"
    assert abs(time.time() - int(timestamp)) < 300
    return json.loads(body)
