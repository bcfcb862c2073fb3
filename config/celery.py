"""The Celery application: configured from Django settings, tasks found in the apps."""

from __future__ import annotations

import os
import socket
import time

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("draughts")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="system.ping", acks_late=True, soft_time_limit=5, time_limit=10)
def ping(payload: str = "pong") -> dict[str, str | float]:
    """Answers with the payload, the worker's host and pid, and its clock, to prove a worker is consuming."""
    return {"payload": payload, "host": socket.gethostname(), "pid": str(os.getpid()), "time": time.time()}


# The clock sweeper runs in every worker process (arbitration.sweeper connects to the signals).
from arbitration import sweeper as _clock_sweeper  # noqa: E402, F401

# Each worker writes a heartbeat that /healthz reads (config.heartbeat).
from config.heartbeat import Heartbeat  # noqa: E402

app.steps["consumer"].add(Heartbeat)
