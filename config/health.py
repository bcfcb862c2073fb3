"""Health checks of the parts the system runs on: database, broker, Celery workers."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection
from kombu import Connection

logger = logging.getLogger(__name__)


def database_ok() -> bool:
    """Tells whether the default database answers a trivial query."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return True
    except Exception:  # noqa: BLE001 - any failure means "down"
        logger.warning("health: the database does not answer")
        return False


def broker_ok(timeout: float = 1.0) -> bool:
    """Tells whether the Celery broker accepts a connection within ``timeout`` seconds."""
    try:
        with Connection(
            settings.CELERY_BROKER_URL,
            transport_options=getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}),
            connect_timeout=timeout,
        ) as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
        return True
    except Exception:  # noqa: BLE001 - any failure means "down"
        logger.warning("health: the broker does not answer")
        return False


def worker_count(timeout: float = 0.5) -> int:
    """Counts the Celery workers that answer a broadcast ping within ``timeout`` seconds."""
    from config.celery import app

    try:
        # A fresh connection: a pooled one is dead after the broker restarted.
        with app.connection_for_write() as conn:
            replies = app.control.ping(timeout=timeout, connection=conn) or []
    except Exception:  # noqa: BLE001 - no broker, no workers
        return 0
    return len(replies)


def health_report() -> tuple[dict[str, object], bool]:
    """Returns the health report and whether the system can serve (the database answers)."""
    db = database_ok()
    broker = broker_ok()
    workers = worker_count() if broker else 0
    report = {
        "database": "ok" if db else "down",
        "broker": "ok" if broker else "down",
        "workers": workers,
    }
    return report, db
