"""The workers' heartbeat: what /healthz reads instead of pinging the workers.

Every Celery worker runs :class:`Heartbeat`, a step of its consumer (the part that holds the
broker connection and takes tasks): while the consumer is connected it starts a thread that
writes the worker's row in ``core.WorkerHeartbeat`` every ``HEALTH_HEARTBEAT_INTERVAL`` seconds
(5 by default), stamped with the **database's** clock. When the broker connection is lost the
consumer stops its steps, so the beats stop until it is connected again; a clean shutdown
deletes the row. A fresh row therefore says: this worker is alive, reaches the database and is
connected to the broker. The table works the same on PostgreSQL + Redis and on the embedded
SQLite + file-system broker of ``make run``.

The thread opens a database connection for each beat and closes it after, so that no
connection of the worker's main process is inherited by a pool process forked later.
"""

from __future__ import annotations

import logging
import os
import threading
from datetime import timedelta

from celery import bootsteps
from django.conf import settings

logger = logging.getLogger("config.heartbeat")

#: Rows older than this are deleted when a worker starts (workers killed without a goodbye).
FORGET_AFTER = timedelta(hours=1)


def heartbeat_interval() -> float:
    """Returns the seconds between two beats of a worker."""
    return float(getattr(settings, "HEALTH_HEARTBEAT_INTERVAL", 5.0))


def beat(name: str, pid: int) -> None:
    """Writes (or refreshes) the worker's row with the database's time."""
    from django.db import IntegrityError
    from django.db.models.functions import Now

    from core.models import WorkerHeartbeat

    if WorkerHeartbeat.objects.filter(name=name).update(beat_at=Now(), pid=pid):
        return
    try:
        WorkerHeartbeat.objects.create(name=name, pid=pid, beat_at=Now())
    except IntegrityError:  # another process of the same name wrote it first
        WorkerHeartbeat.objects.filter(name=name).update(beat_at=Now(), pid=pid)


def forget(name: str) -> None:
    """Deletes the worker's row (a clean shutdown) and rows nobody refreshed for an hour."""
    from django.db.models import Q
    from django.db.models.functions import Now

    from core.models import WorkerHeartbeat

    WorkerHeartbeat.objects.filter(Q(name=name) | Q(beat_at__lt=Now() - FORGET_AFTER)).delete()


class HeartbeatThread(threading.Thread):
    """Beats every ``interval`` seconds until stopped; a failed beat is logged and retried."""

    def __init__(self, name: str, interval: float) -> None:
        super().__init__(name="health-heartbeat", daemon=True)
        self.worker_name = name
        self.interval = interval
        self._stop_event = threading.Event()

    def run(self) -> None:
        from django.db import connection

        pid = os.getpid()
        while True:
            try:
                beat(self.worker_name, pid)
            except Exception:  # noqa: BLE001 - the heartbeat must outlive a database hiccup
                logger.warning("heartbeat of %s not written", self.worker_name, exc_info=True)
            finally:
                connection.close()
            if self._stop_event.wait(self.interval):
                return

    def stop(self, timeout: float = 5.0) -> None:
        self._stop_event.set()
        if self.is_alive() and threading.current_thread() is not self:
            self.join(timeout)


class Heartbeat(bootsteps.StartStopStep):
    """A consumer step: beats while the worker is connected to the broker and consuming."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def __init__(self, parent, **kwargs) -> None:  # noqa: ANN001, ANN003
        super().__init__(parent, **kwargs)
        self.thread: HeartbeatThread | None = None

    def start(self, parent) -> None:  # noqa: ANN001
        if self.thread is None or not self.thread.is_alive():
            self.thread = HeartbeatThread(parent.hostname, heartbeat_interval())
            self.thread.start()

    def stop(self, parent) -> None:  # noqa: ANN001
        if self.thread is not None:
            self.thread.stop()
            self.thread = None

    def shutdown(self, parent) -> None:  # noqa: ANN001
        from django.db import connection

        self.stop(parent)
        try:
            forget(parent.hostname)
        except Exception:  # noqa: BLE001 - a worker must stop even without its database
            logger.warning("heartbeat of %s not deleted", parent.hostname, exc_info=True)
        finally:
            connection.close()
