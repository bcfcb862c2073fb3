"""Health from what the workers report: one database query, no broker or worker round trip.

``/healthz`` used to connect to the broker and broadcast a ping to the workers on every call
(half a second of waiting for replies each time). Now the workers write a heartbeat
(``config.heartbeat``: a row per worker in ``core.WorkerHeartbeat``, refreshed every
``HEALTH_HEARTBEAT_INTERVAL`` seconds while the worker is connected to the broker), and the
check reads those rows in one query, which is also the database check.

- ``status``: ``up`` while the database answers (the web process can serve: moves, rulings
  and time checked on arrival), else ``down`` (503).
- ``workers``: the workers whose last beat is at most ``HEALTH_HEARTBEAT_STALE`` seconds old
  (3 intervals by default), on the database's clock.
- ``broker``: ``ok`` when at least one such worker is counted (a worker beats only while its
  consumer is connected to the broker), else ``down``: no worker reports a live broker
  connection (the broker is down, or no worker runs).
- ``last_heartbeat_age``: seconds since the freshest beat of any worker, ``null`` if none.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db.models import DurationField, ExpressionWrapper, F
from django.db.models.functions import Now

from config.heartbeat import heartbeat_interval
from core.models import WorkerHeartbeat

logger = logging.getLogger(__name__)


def heartbeat_stale_after() -> float:
    """Returns the age in seconds after which a worker's beat no longer counts."""
    stale = getattr(settings, "HEALTH_HEARTBEAT_STALE", None)
    return float(stale) if stale else 3 * heartbeat_interval()


def heartbeat_ages() -> list[timedelta]:
    """Returns the age of each worker's last beat, on the database's clock (one query)."""
    age = ExpressionWrapper(Now() - F("beat_at"), output_field=DurationField())
    return list(WorkerHeartbeat.objects.annotate(age=age).values_list("age", flat=True))


def health_report(*, detail: bool = False) -> tuple[dict[str, object], bool]:
    """Returns the report and whether the system can serve (the database answers).

    Without ``detail`` the report is ``{"status": "up"|"down"}``; with it, also the database,
    the broker, the workers counted and the age of the last heartbeat.
    """
    try:
        ages = heartbeat_ages()
        db = True
    except Exception:  # noqa: BLE001 - any failure means "down"
        logger.warning("health: the database does not answer")
        ages, db = [], False
    report: dict[str, object] = {"status": "up" if db else "down"}
    if detail:
        stale = timedelta(seconds=heartbeat_stale_after())
        workers = sum(1 for age in ages if age <= stale)
        report.update({
            "database": "ok" if db else "down",
            "broker": "ok" if workers else "down",
            "workers": workers,
            "last_heartbeat_age": round(max(min(ages).total_seconds(), 0.0), 3) if ages else None,
        })
    return report, db
