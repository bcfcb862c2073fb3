"""The clock sweeper: a thread in every Celery worker process that enforces due clocks on time.

It sleeps until the nearest deadline of a game in progress (``clock_next_deadline``, read from
the database), then runs ``clock_sweep``, which calls time or adjudicates the loss by delay for
the games whose deadline has passed on the database's clock, under ``FOR UPDATE SKIP LOCKED``.
A deadline written nearer than the one it sleeps on wakes it at once:

- on PostgreSQL, a trigger on the clock row sends ``NOTIFY clock_deadline`` with the new
  deadline when one comes nearer and falls within ``NOTIFY_HORIZON`` (migration 0009); the
  sweeper holds a ``LISTEN`` connection of its own and waits on its socket;
- on SQLite (the embedded default) there is no notification: the sweeper reads the database's
  change counter (``PRAGMA data_version``, one cheap statement that changes when another
  connection commits) every ``CLOCK_SQLITE_POLL_INTERVAL`` seconds while it sleeps, and reads
  the deadlines again when it has changed.

It sleeps on the monotonic clock and works out each sleep from the database's deadline and the
database's ``now`` when it wakes, so a jump of the worker's wall clock changes nothing; it never
sleeps longer than ``CLOCK_SWEEP_MAX_SLEEP`` (2 s by default), so a lost notification or a jump
of the database's own clock costs at most that.

The deadlines live in the database, not in the broker, so a worker killed with SIGKILL or a
broker restarted empty loses nothing: every sweeper sleeps on the same nearest deadline, and
the first to lock the game acts; the others skip it, and the transition written moves the
deadline on, so nothing is done twice. No worker is special.

The thread starts in each pool process after the fork (``worker_process_init``), so no
database connection is shared across a fork; with a pool that does not fork (solo, threads)
it starts in the worker's own process when the worker is ready.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
import time
from datetime import datetime, timedelta
from typing import Any

from celery import signals
from django.conf import settings

logger = logging.getLogger("arbitration.clocks")

NOTIFY_CHANNEL = "clock_deadline"  # the channel of the trigger (migration 0009)
NOTIFY_HORIZON = 60.0  # seconds: a deadline written further ahead sends no notification (migration 0009)
# The longest sleep: under the horizon, with room for a transaction's commit, so that a deadline
# written without a notification (more than NOTIFY_HORIZON ahead) is read at a wake before it.
MAX_SLEEP_CAP = NOTIFY_HORIZON / 2
# When a due game is locked by another (a sweeper acting on it, a move), look again after this,
# doubling up to the longest sleep while it stays locked.
RETRY_FIRST = 0.005

_sweeper: ClockSweeper | None = None
_lock = threading.Lock()


class _Notifications:
    """PostgreSQL: a ``LISTEN`` connection of the sweeper's own; waits for a nearer deadline."""

    def __init__(self, connection: Any, stop_fd: int) -> None:
        self._conn = connection.Database.connect(**connection.get_connection_params())
        self._conn.autocommit = True
        self._conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
        self._stop_fd = stop_fd

    def wait(self, end: float, target: float) -> bool:
        """Sleeps until ``end`` (the monotonic clock) or until stopped; returns True at once if a
        deadline before ``target`` (epoch seconds, the database's clock) is written meanwhile."""
        pgconn = self._conn.pgconn
        while not self._nearer(pgconn, target):
            remaining = end - time.monotonic()
            if remaining <= 0:
                return False
            readable, _, _ = select.select([pgconn.socket, self._stop_fd], [], [], remaining)
            if self._stop_fd in readable:
                return False
            if readable:
                pgconn.consume_input()
                if pgconn.status != 0:  # CONNECTION_OK
                    raise ConnectionError("the LISTEN connection was lost")
        return True

    @staticmethod
    def _nearer(pgconn: Any, target: float) -> bool:
        nearer = False
        while (notification := pgconn.notifies()) is not None:
            try:
                nearer = nearer or float(notification.extra) < target
            except ValueError:
                nearer = True
        return nearer

    def close(self) -> None:
        self._conn.close()


class _ChangeCounter:
    """SQLite: reads ``PRAGMA data_version`` (changed by another connection's commit) while it sleeps."""

    def __init__(self, connection: Any, stop_event: threading.Event, interval: float) -> None:
        self._connection = connection
        self._stop_event = stop_event
        self._interval = interval
        self._seen = self._version()

    def _version(self) -> int:
        cursor = self._connection.cursor()
        try:
            cursor.execute("PRAGMA data_version")
            return cursor.fetchone()[0]
        finally:
            cursor.close()

    def wait(self, end: float, target: float) -> bool:  # noqa: ARG002 - no deadline comes with a change
        """Sleeps until ``end`` (the monotonic clock) or until stopped; returns True early if
        another connection has committed meanwhile (perhaps a nearer deadline)."""
        while (remaining := end - time.monotonic()) > 0:
            if self._stop_event.wait(min(self._interval, remaining)):
                return False
            version = self._version()
            if version != self._seen:
                self._seen = version
                return True
        return False

    def close(self) -> None:
        pass


class ClockSweeper(threading.Thread):
    """Sleeps until the nearest deadline (or a nearer one is written) and enforces what is due, until stopped."""

    def __init__(self, *, max_sleep: float = 2.0, sqlite_poll: float = 0.025) -> None:
        super().__init__(name="clock-sweeper", daemon=True)
        self.max_sleep = max(0.01, min(max_sleep, MAX_SLEEP_CAP))
        self.sqlite_poll = max(0.001, sqlite_poll)
        self._stop_event = threading.Event()
        self._stop_read, self._stop_write = os.pipe()

    def _waker(self, connection: Any) -> _Notifications | _ChangeCounter:
        """Starts listening before the deadlines are read, so that no write in between is missed."""
        if connection.vendor == "postgresql":
            return _Notifications(connection, self._stop_read)
        return _ChangeCounter(connection, self._stop_event, self.sqlite_poll)

    def plan(self, *, acted: int | None, retry: float) -> tuple[float, float, bool, float]:
        """Reads the nearest deadline and decides what comes next.

        ``acted``: how many games the sweep just acted on (None: no sweep since the last wake).
        Returns when to wake (on the monotonic clock, measured from when the database gave its
        ``now``), the same instant on the database's clock (epoch seconds), whether to sweep then,
        and the next delay for a due game that another holds locked (a sweeper acting on it, a
        move), doubled while it stays locked.
        """
        from arbitration.clocks import db_now
        from arbitration.delay import clock_next_deadline

        now = db_now()
        start = time.monotonic()
        nearest = clock_next_deadline()
        if nearest is not None and nearest <= now:
            if acted is None or acted > 0:
                return start, now.timestamp(), True, RETRY_FIRST  # due, or more due than one sweep takes
            # Due but locked elsewhere: look again shortly, without keeping the next deadline waiting.
            seconds = min(retry, _until(clock_next_deadline(after=now), now, self.max_sleep))
            return start + seconds, now.timestamp() + seconds, True, min(self.max_sleep, retry * 2)
        seconds = _until(nearest, now, self.max_sleep)
        on_deadline = nearest is not None and seconds < self.max_sleep
        return start + seconds, now.timestamp() + seconds, on_deadline, RETRY_FIRST

    def run(self) -> None:
        from django.db import close_old_connections, connection

        from arbitration.delay import clock_sweep

        logger.info("clock sweeper started (sleeps until the next deadline, at most %.3f s)", self.max_sleep)
        waker = None
        retry = RETRY_FIRST
        sweep = True  # first of all: deadlines may have passed while no sweeper ran
        while not self._stop_event.is_set():
            try:
                if waker is None:
                    waker = self._waker(connection)
                acted = None
                if sweep:
                    acted = clock_sweep()
                    if acted:
                        logger.info("clock sweeper enforced %d game(s)", acted)
                wake, target, sweep, retry = self.plan(acted=acted, retry=retry)
                if waker.wait(wake, target):
                    sweep = False  # woken for a nearer deadline: read the deadlines again first
            except Exception:  # noqa: BLE001 - the sweeper must outlive a database hiccup
                logger.exception("clock sweep failed; retrying in 1 s")
                waker = _close(waker)
                close_old_connections()
                connection.close()
                sweep = True
                self._stop_event.wait(1.0)
        _close(waker)
        connection.close()
        for fd in (self._stop_read, self._stop_write):
            with contextlib.suppress(OSError):
                os.close(fd)

    def stop(self) -> None:
        self._stop_event.set()
        with contextlib.suppress(OSError):
            os.write(self._stop_write, b"x")


def _until(deadline: datetime | None, now: datetime, longest: float) -> float:
    """Returns the seconds from ``now`` to ``deadline`` (both on the database's clock), within [0, longest]."""
    if deadline is None:
        return longest
    return max(0.0, min(longest, (deadline - now) / timedelta(seconds=1)))


def _close(waker: _Notifications | _ChangeCounter | None) -> None:
    if waker is not None:
        try:
            waker.close()
        except Exception:  # noqa: BLE001 - closing a broken connection may fail too
            logger.debug("closing the sweeper's LISTEN connection failed", exc_info=True)


def start_sweeper() -> ClockSweeper | None:
    """Starts this process's sweeper once (if enabled in the settings); returns it."""
    global _sweeper
    if not getattr(settings, "CLOCK_SWEEPER_ENABLED", True):
        return None
    with _lock:
        if _sweeper is None or not _sweeper.is_alive():
            _sweeper = ClockSweeper(max_sleep=float(getattr(settings, "CLOCK_SWEEP_MAX_SLEEP", 2.0)),
                                    sqlite_poll=float(getattr(settings, "CLOCK_SQLITE_POLL_INTERVAL", 0.025)))
            _sweeper.start()
    return _sweeper


def stop_sweeper() -> None:
    """Stops this process's sweeper, if it runs."""
    global _sweeper
    with _lock:
        if _sweeper is not None:
            _sweeper.stop()
            _sweeper = None


@signals.worker_process_init.connect
def _start_in_pool_process(**_kwargs) -> None:  # noqa: ANN003
    start_sweeper()


@signals.worker_process_shutdown.connect
def _stop_in_pool_process(**_kwargs) -> None:  # noqa: ANN003
    stop_sweeper()


@signals.worker_ready.connect
def _start_without_fork(sender=None, **_kwargs) -> None:  # noqa: ANN001, ANN003
    from celery.concurrency.prefork import TaskPool

    pool = getattr(sender, "pool", None)
    if pool is not None and not isinstance(pool, TaskPool):
        start_sweeper()


@signals.worker_shutdown.connect
def _stop_without_fork(**_kwargs) -> None:  # noqa: ANN003
    stop_sweeper()
