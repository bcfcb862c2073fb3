"""Webhook tasks: thin and idempotent; they collect deliveries from the logs and send them in order.

They keep no result (``ignore_result``): with a result backend, sending a task that keeps one also
subscribes to its result, a second round trip to Redis on the move path.
"""

from __future__ import annotations

import time
from typing import Any

from celery import shared_task
from django.conf import settings

from integrations import delivery
from integrations.models import Webhook

#: A sender hands its stream to a new task after this long, within the tasks' time limit.
SEND_SLICE_SECONDS = 20.0


@shared_task(name="integrations.game_collect", ignore_result=True, acks_late=True, autoretry_for=(ConnectionError,),
             max_retries=5, retry_backoff=True)
def game_collect(game_id: int) -> list[int]:
    """Writes the deliveries of the game's new entries and starts sending them; idempotent."""
    streams = delivery.game_collect(game_id)
    for stream_id in streams:
        stream_send.delay(stream_id)
    return streams


@shared_task(name="integrations.tournament_collect", ignore_result=True, acks_late=True, autoretry_for=(ConnectionError,),
             max_retries=5, retry_backoff=True)
def tournament_collect(tournament_id: int) -> list[int]:
    """Writes the deliveries of the tournament's new log rows and starts sending them; idempotent."""
    streams = delivery.tournament_collect(tournament_id)
    for stream_id in streams:
        stream_send.delay(stream_id)
    return streams


@shared_task(name="integrations.stream_send", ignore_result=True, acks_late=True)
def stream_send(stream_id: int) -> str:
    """Sends a stream's due deliveries in order; after a failure, comes back after the back-off."""
    started = time.monotonic()
    while True:
        outcome = delivery.stream_send_next(stream_id)
        if outcome.what == "sent" and time.monotonic() - started < SEND_SLICE_SECONDS:
            continue
        if outcome.what == "sent":
            stream_send.delay(stream_id)
        elif outcome.what == "retry" and not stream_send.app.conf.task_always_eager:
            stream_send.apply_async((stream_id,), countdown=outcome.delay)
        return outcome.what


@shared_task(name="integrations.deliveries_sweep", ignore_result=True)
def deliveries_sweep() -> list[int]:
    """Hands every stream with a delivery due (its retry's task lost, or never sent) to ``stream_send``.

    Run every minute by ``CELERY_BEAT_SCHEDULE``. Idempotent with the normal path: a sender sends a
    stream's oldest waiting delivery only while it holds the stream's row lock and only if the row is
    still pending and due, marking it in the same transaction; a second sender for the stream skips
    the lock and does nothing. Only deliveries overdue by ``WEBHOOK_SWEEP_GRACE_SECONDS`` are looked
    at, so that the sweep does not double the task of a delivery just written or a retry just due.
    """
    streams = delivery.streams_due(settings.WEBHOOK_SWEEP_GRACE_SECONDS)
    for stream_id in streams:
        stream_send.delay(stream_id)
    return streams


# The move path asks whether any webhook is on before it sends a task: the answer is kept this long.
_ANY_ACTIVE_TTL = 2.0
_any_active: list[Any] = [False, 0.0]


def any_webhook_active() -> bool:
    """Tells whether any webhook is on (read at most every ``_ANY_ACTIVE_TTL`` seconds per process)."""
    now = time.monotonic()
    if now >= _any_active[1]:
        _any_active[0] = Webhook.objects.filter(active=True).exists()
        _any_active[1] = now + _ANY_ACTIVE_TTL
    return bool(_any_active[0])


def forget_any_active(**_: Any) -> None:
    """Reads the webhooks again at the next event (one was added, changed or deleted in this process)."""
    _any_active[1] = 0.0


def on_entry_committed(sender: Any, *, game_id: int, **_: Any) -> None:
    """Hands a committed game log entry to ``game_collect`` when a webhook is on: no more on the move path."""
    if any_webhook_active():
        game_collect.delay(game_id)


def on_tournament_logged(sender: Any, *, tournament_id: int, **_: Any) -> None:
    """Hands a committed tournament log row to ``tournament_collect`` when a webhook is on."""
    if any_webhook_active():
        tournament_collect.delay(tournament_id)
