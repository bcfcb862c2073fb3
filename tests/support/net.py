"""Network helpers for the tests that start real server processes."""

from __future__ import annotations

import socket


def free_port() -> int:
    """Returns a TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
