"""Notification tasks: thin, idempotent. A planning task records an event's rows, a sending task one message.

Transient failures (the mail server away, a connection dropped, a 4xx answer) are retried with
exponential back-off (``SEND_RETRIES`` times, from ``NOTIFICATIONS_RETRY_SECONDS``, 30 s by default); a permanent one (a
5xx answer, an address refused) fails the row at once, with the error on it.
"""

from __future__ import annotations

import logging
import smtplib
from typing import Any

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from notifications import planners, selectors, services

logger = logging.getLogger(__name__)

SEND_RETRIES = 6


def is_transient(error: BaseException) -> bool:
    """Tells whether a failed send may succeed later."""
    if isinstance(error, smtplib.SMTPResponseException):
        return 400 <= error.smtp_code < 500
    if isinstance(error, smtplib.SMTPRecipientsRefused | smtplib.SMTPSenderRefused):
        return False
    return isinstance(error, smtplib.SMTPException | ConnectionError | TimeoutError | OSError)


def _record_and_send(plan: planners.Plan | None) -> int:
    """Records a plan's rows (none for no plan) and hands each pending one to ``notification_send``; returns how many."""
    if plan is None:
        return 0
    ids = services.plan_record(plan)
    for notification_id in ids:
        notification_send.delay(notification_id)
    return len(ids)


@shared_task(name="notifications.log_row", acks_late=True, autoretry_for=(ConnectionError,), max_retries=5,
             retry_backoff=True)
def log_row_notify(row_id: int) -> int:
    """Records the rows of the event a tournament log row is (if it is one) and sends them; returns how many."""
    return _record_and_send(planners.plan_of_log_row(row_id))


@shared_task(name="notifications.game_finished", acks_late=True, autoretry_for=(ConnectionError,), max_retries=5,
             retry_backoff=True)
def game_finished_notify(game_id: int) -> int:
    """Asks the players of a finished game to confirm its result; returns how many messages are to go."""
    return _record_and_send(planners.result_to_confirm(game_id))


@shared_task(bind=True, name="notifications.send", acks_late=True, max_retries=SEND_RETRIES)
def notification_send(self: Any, notification_id: int) -> str:
    """Sends one notification (nothing if it was sent already); retries a transient failure with back-off."""
    try:
        return services.notification_deliver(notification_id=notification_id)
    except Exception as error:
        transient = is_transient(error)
        final = not transient or self.request.retries >= self.max_retries
        status = services.notification_failed(notification_id=notification_id, error=error, final=final,
                                              max_attempts=SEND_RETRIES + 1)
        if status != services.Status.PENDING:
            if status == services.Status.FAILED:
                logger.warning("notification %s failed for good: %r", notification_id, error)
            return status
        raise self.retry(exc=error, countdown=settings.NOTIFICATIONS_RETRY_SECONDS * 2 ** self.request.retries) from error


@shared_task(name="notifications.league_log_row", acks_late=True, autoretry_for=(ConnectionError,), max_retries=5,
             retry_backoff=True)
def league_log_row_notify(row_id: int) -> int:
    """Records and sends the messages of a league log row (a postponement's step), if it is one; returns how many."""
    return _record_and_send(planners.plan_of_league_log_row(row_id))


@shared_task(name="notifications.fixture_reminder", acks_late=True, autoretry_for=(ConnectionError,), max_retries=5,
             retry_backoff=True)
def fixture_reminder_notify(fixture_id: int) -> int:
    """Reminds the players and captains of a near league match (once per match, date and person)."""
    return _record_and_send(planners.fixture_reminder(fixture_id))


@shared_task(name="notifications.fixture_reminders_sweep", acks_late=True)
def fixture_reminders_sweep() -> list[int]:
    """Hands every scheduled league match within ``LEAGUE_REMINDER_DAYS`` days to ``fixture_reminder_notify``
    (run periodically by ``CELERY_BEAT_SCHEDULE``; a sheet submitted later is picked up by the next run)."""
    due = planners.fixtures_due(timezone.localdate(), settings.LEAGUE_REMINDER_DAYS)
    for fixture_id in due:
        fixture_reminder_notify.delay(fixture_id)
    return due


@shared_task(name="notifications.pending_sweep", acks_late=True)
def pending_sweep() -> list[int]:
    """Hands every row whose sending task looks lost to ``notification_send`` again (run every few minutes by
    ``CELERY_BEAT_SCHEDULE``): a row never tried ``NOTIFICATIONS_SWEEP_MINUTES`` after it was recorded (the task
    was lost between the commit and the send: a worker killed, the broker restarted empty), or still pending
    after a whole chain of retries would have ended (a retry's task lost).

    Idempotent with the normal path: ``notification_deliver`` sends a row only while it is pending, under its
    lock, and marks it in the same transaction, so a row whose task was merely slow is not sent twice; the
    row's count of attempts bounds the attempts of all its tasks together (``SEND_RETRIES`` + 1).
    """
    chain = settings.NOTIFICATIONS_RETRY_SECONDS * (2 ** SEND_RETRIES - 1) / 60
    ids = selectors.pending_lost(unsent_minutes=settings.NOTIFICATIONS_SWEEP_MINUTES,
                                 retried_minutes=chain + settings.NOTIFICATIONS_SWEEP_MINUTES)
    for notification_id in ids:
        notification_send.delay(notification_id)
    return ids


def on_league_logged(sender: Any, *, row_id: int, kind: str, **_: Any) -> None:
    """Hands a league log row that may concern people to ``league_log_row_notify``."""
    if kind in planners.LEAGUE_LOG_KINDS:
        league_log_row_notify.delay(row_id)


def on_tournament_logged(sender: Any, *, row_id: int, kind: str, **_: Any) -> None:
    """Hands a tournament log row that may concern people to ``log_row_notify``."""
    if kind in planners.LOG_KINDS:
        log_row_notify.delay(row_id)


def on_game_finished(sender: Any, *, game_id: int, **_: Any) -> None:
    """Hands a finished game to ``game_finished_notify``."""
    game_finished_notify.delay(game_id)
