"""The clock sweeper: a thread in every Celery worker process that enforces due clocks.

Every ``CLOCK_SWEEP_INTERVAL`` seconds (50 ms by default) it runs ``clock_sweep``, which finds
the games whose deadline has passed on the database's clock and calls time or adjudicates the
loss by delay under ``FOR UPDATE SKIP LOCKED``. The deadlines live in the database, not in the
broker, so a worker killed with SIGKILL or a broker restarted empty loses nothing: any other
worker's sweeper, or this one when it comes back, finds the same rows. No worker is special.

The thread starts in each pool process after the fork (``worker_process_init``), so no
database connection is shared across a fork; with a pool that does not fork (solo, threads)
it starts in the worker's own process when the worker is ready.
"""

from __future__ import annotations

import logging
import threading

from celery import signals
from django.conf import settings

logger = logging.getLogger("arbitration.clocks")

_sweeper: ClockSweeper | None = None
_lock = threading.Lock()


class ClockSweeper(threading.Thread):
    """Polls the database for due clocks and enforces them until stopped."""

    def __init__(self, interval: float) -> None:
        super().__init__(name="clock-sweeper", daemon=True)
        self.interval = interval
        self._stop_event = threading.Event()

    def run(self) -> None:
        from django.db import close_old_connections, connection

        from arbitration.delay import clock_sweep

        logger.info("clock sweeper started (every %.3f s)", self.interval)
        busy = False
        while not self._stop_event.wait(0 if busy else self.interval):
            try:
                acted = clock_sweep()
                busy = acted > 0
                if acted:
                    logger.info("clock sweeper enforced %d game(s)", acted)
            except Exception:  # noqa: BLE001 - the sweeper must outlive a database hiccup
                logger.exception("clock sweep failed; retrying in 1 s")
                busy = False
                close_old_connections()
                connection.close()
                self._stop_event.wait(1.0)
        connection.close()

    def stop(self) -> None:
        self._stop_event.set()


def start_sweeper() -> ClockSweeper | None:
    """Starts this process's sweeper once (if enabled in the settings); returns it."""
    global _sweeper
    if not getattr(settings, "CLOCK_SWEEPER_ENABLED", True):
        return None
    with _lock:
        if _sweeper is None or not _sweeper.is_alive():
            _sweeper = ClockSweeper(float(getattr(settings, "CLOCK_SWEEP_INTERVAL", 0.05)))
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
