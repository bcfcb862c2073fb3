"""A real Celery worker in its own process, for tests that need one (and may kill it)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class WorkerProcess:
    """Runs ``celery -A config worker`` as a child process against the configured broker.

    The worker sees the same environment as the tests, with ``DATABASE_URL`` pointed at the test
    database when one is given, so it reads what a ``transactional_db`` test has committed
    (rows written inside a plain ``db`` test's transaction are invisible to it).
    """

    def __init__(self, *, env: dict[str, str] | None = None, concurrency: int = 1,
                 log_path: Path | None = None, prefix: list[str] | None = None, cwd: Path | None = None) -> None:
        self.hostname = f"test-{uuid.uuid4().hex[:8]}@%h"
        self.env = {**os.environ, **(env or {})}
        self.concurrency = concurrency
        self.log_path = log_path
        self.prefix = list(prefix or [])
        self.cwd = cwd or ROOT  # the checkout whose code the worker runs
        self.process: subprocess.Popen[bytes] | None = None
        self._log = None

    @property
    def node_name(self) -> str:
        """Returns the worker's node name as it answers a ping (``test-xxxx@host``)."""
        import socket

        return self.hostname.replace("%h", socket.gethostname())

    def start(self, timeout: float = 60.0) -> WorkerProcess:
        """Starts the worker and waits until it answers a ping."""
        cmd = [
            *self.prefix, sys.executable, "-m", "celery", "-A", "config", "worker",
            "--pool", "prefork", "--concurrency", str(self.concurrency),
            "--hostname", self.hostname, "--without-gossip", "--without-mingle",
            "--loglevel", "INFO",
        ]
        self._log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            cmd, cwd=self.cwd, env=self.env, stdout=self._log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout: float) -> None:
        """Waits until this worker answers a broadcast ping; fails if it died or timed out."""
        from config.celery import app

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"the Celery worker exited with status {self.process.returncode}")
            # A fresh connection each time: a pooled one may be dead after a broker restart. limit=1: back as
            # soon as this worker answers (without it a ping waits its whole timeout for other answers).
            with app.connection_for_write() as connection:
                replies = app.control.ping(destination=[self.node_name], timeout=0.5, limit=1,
                                           connection=connection) or []
            if replies:
                return
        raise TimeoutError(f"the Celery worker {self.node_name} did not answer within {timeout} s")

    def kill(self) -> None:
        """Kills the worker and its pool at once with SIGKILL, as a crash would."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self, timeout: float = 15.0) -> None:
        """Stops the worker gracefully (SIGTERM), killing it if it does not stop in time."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        if self._log not in (None, subprocess.DEVNULL):
            self._log.close()  # type: ignore[union-attr]

    @contextlib.contextmanager
    def alone(self) -> Iterator[WorkerProcess]:
        """Makes this worker the only one taking tasks from the default queue while the block runs.

        Another worker of the session (``celery_worker`` lives as long as the xdist process) would
        otherwise take some of the tasks, with its own settings (a test's mail backend, its own
        limits); the others stop consuming and start again after the block.
        """
        from config.celery import app

        queue = app.conf.task_default_queue
        with app.connection_for_write() as connection:
            replies = app.control.ping(timeout=0.5, connection=connection) or []
            others = [name for reply in replies for name in reply if name != self.node_name]
            if others:
                app.control.cancel_consumer(queue, destination=others, reply=True, connection=connection)
        try:
            yield self
        finally:
            if others:
                with app.connection_for_write() as connection:
                    app.control.add_consumer(queue, destination=others, reply=True, connection=connection)
