"""Publishes what changed, after the commit, for the live servers to push to the browsers.

The apps call ``publish_on_commit(event)`` where they append to a log (a game's, a tournament's);
once the transaction commits the event goes out on Redis pub/sub (``LIVE_REDIS_URL``, one
channel per database: ``LIVE_CHANNEL``). Without Redis nothing is sent: the live servers read
the log tables themselves (``config/live.py``, the change feed). A publication that fails is
logged and dropped: the logs are the record, and the live servers' change feed and the
clients' resume by seq fill any gap. Below every app: it knows no model.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

_client: Any = None


def _redis() -> Any:
    global _client
    if _client is None:
        import redis

        _client = redis.Redis.from_url(settings.LIVE_REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5)
    return _client


def publish(event: dict[str, Any]) -> None:
    """Sends the event on the live channel now (nothing without Redis); never raises."""
    if not settings.LIVE_REDIS_URL:
        return
    try:
        _redis().publish(settings.LIVE_CHANNEL, json.dumps(event, separators=(",", ":"), default=str))
    except Exception as error:  # noqa: BLE001 - a lost publication is filled in from the log
        logger.warning("live: publication failed: %r", error)


def publish_on_commit(build: Any) -> None:
    """Publishes ``build()`` (a callable returning the event, or a list of them) once the transaction commits."""
    if not settings.LIVE_REDIS_URL:
        return

    def send() -> None:
        try:
            events = build()
        except Exception as error:  # noqa: BLE001 - never break the request after its commit
            logger.warning("live: event not built: %r", error)
            return
        for event in events if isinstance(events, list) else [events]:
            publish(event)

    transaction.on_commit(send)
