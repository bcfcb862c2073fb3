"""Notification writes: recording an event's rows once, delivering one row, each person's choices.

Exactly once per event and person: ``plan_record`` creates at most one ``Notification`` row per
(event, player) (the unique constraint refuses a second); ``notification_deliver`` sends a row
only while it is pending, holding its row lock through the send and marking it sent in the same
transaction, so two workers never both send it. (If the process dies after the mail server took
the message and before the commit, the row is still pending and a retry sends it again: at most
one duplicate in that window, never a loss.)
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from notifications.models import Kind, Notification, Unsubscription
from notifications.planners import Plan

Status = Notification.Status
UNSUBSCRIBE_SALT = "notifications.unsubscribe"
ALL_KINDS = "all"


class BadUnsubscribeLink(ValueError):
    """An unsubscribe link that was not made by this site (or was altered)."""


# --- choices ----------------------------------------------------------------------------------

def unsubscribe_token(user_id: int, kind: str) -> str:
    """Returns the signed token of an unsubscribe link: the user and the kind (or ``all``), no expiry."""
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_read(token: str) -> tuple[Any, str]:
    """Returns the user and kind a token names; raises ``BadUnsubscribeLink`` for a forged or altered one."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature as error:
        raise BadUnsubscribeLink("This unsubscribe link is not valid (altered, or not from this site).") from error
    kind = data.get("k") if isinstance(data, dict) else None
    user = get_user_model().objects.filter(pk=data.get("u") if isinstance(data, dict) else None).first()
    if user is None or (kind != ALL_KINDS and kind not in Kind.values):
        raise BadUnsubscribeLink("This unsubscribe link names nobody known here.")
    return user, kind


def kinds_unsubscribed(user: Any) -> set[str]:
    """Returns the kinds the user does not want."""
    return set(Unsubscription.objects.filter(user=user).values_list("kind", flat=True))


@transaction.atomic
def unsubscribe(*, user: Any, kind: str) -> list[str]:
    """Stops one kind of message (``all``: every kind) to the user; returns the kinds now stopped. Idempotent."""
    kinds = list(Kind.values) if kind == ALL_KINDS else [kind]
    for each in kinds:
        Unsubscription.objects.get_or_create(user=user, kind=each)
    return sorted(kinds_unsubscribed(user))


@transaction.atomic
def preferences_set(*, acting_user: Any, wanted: set[str]) -> set[str]:
    """Sets which kinds the signed-in user receives (the others are stopped); returns the kinds stopped."""
    unwanted = set(Kind.values) - set(wanted)
    Unsubscription.objects.filter(user=acting_user).exclude(kind__in=unwanted).delete()
    for kind in unwanted:
        Unsubscription.objects.get_or_create(user=acting_user, kind=kind)
    return unwanted


# --- recording an event -------------------------------------------------------------------------

def _status_for(user: Any, kind: str, unsubscribed: dict[int, set[str]]) -> str:
    if user is None or not user.is_active or not (user.email or "").strip():
        return Status.NO_EMAIL
    if kind in unsubscribed.get(user.pk, set()):
        return Status.UNSUBSCRIBED
    return Status.PENDING


@transaction.atomic
def plan_record(plan: Plan) -> list[int]:
    """Writes the plan's rows (one per player; those already there are left as they are) and returns the
    ids of the event's rows still pending, for the caller to send after the commit.

    A player without a linked account with an email gets a row ``no_email``, one who stopped the
    kind a row ``unsubscribed``: the director's list shows who was not told, and why.
    """
    user_ids = {player.user_id for player, _context in plan.recipients if player.user_id}
    unsubscribed: dict[int, set[str]] = {}
    for user_id, kind in Unsubscription.objects.filter(user_id__in=user_ids).values_list("user_id", "kind"):
        unsubscribed.setdefault(user_id, set()).add(kind)
    for player, context in plan.recipients:
        user = player.user if player.user_id else None
        status = _status_for(user, plan.kind, unsubscribed)
        subject = render_to_string(f"notifications/email/{plan.kind}_subject.txt", context).strip()[:200]
        Notification.objects.get_or_create(event=plan.event, player=player, defaults={
            "kind": plan.kind, "tournament_id": plan.tournament_id, "user": user,
            "email": user.email if status != Status.NO_EMAIL else "", "subject": " ".join(subject.split()),
            "context": context, "status": status,
        })
    return list(Notification.objects.filter(event=plan.event, status=Status.PENDING).order_by("id")
                .values_list("pk", flat=True))


# --- delivering one row -------------------------------------------------------------------------

def message_build(notification: Notification) -> EmailMultiAlternatives:
    """Builds the message of a row: plain text and HTML from the kind's templates, with its unsubscribe link."""
    token = unsubscribe_token(notification.user_id, notification.kind)
    unsubscribe_url = settings.SITE_URL + reverse("notifications:unsubscribe", args=[token])
    context = {**notification.context, "player": notification.player.name, "unsubscribe_url": unsubscribe_url,
               "preferences_url": settings.SITE_URL + reverse("notifications:preferences"),
               "kind_label": Kind(notification.kind).label}
    text = render_to_string(f"notifications/email/{notification.kind}.txt", context)
    html = render_to_string(f"notifications/email/{notification.kind}.html", context)
    message = EmailMultiAlternatives(
        subject=notification.subject, body=text, from_email=settings.DEFAULT_FROM_EMAIL, to=[notification.email],
        headers={"List-Unsubscribe": f"<{unsubscribe_url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                 "X-Notification-Event": notification.event},
    )
    message.attach_alternative(html, "text/html")
    return message


def notification_deliver(*, notification_id: int) -> str:
    """Sends a pending row's message and marks it sent; returns the row's status. Idempotent.

    The row stays locked from the check to the mark, through the send, and a failed send is counted
    on the row (its attempts, its last error) before the lock is let go: a second task for the same
    row, which waits on the lock, sees every attempt before it. A person who stopped the kind, or
    lost his address, since the event is not sent it (the row says why). A failure of the send then
    propagates (the caller retries, or gives up: ``notification_failed``); the row is still pending.
    """
    failure: BaseException | None = None
    with transaction.atomic():
        notification = (Notification.objects.select_for_update(of=("self",))
                        .select_related("user", "player").filter(pk=notification_id).first())
        if notification is None:
            return "missing"
        if notification.status != Status.PENDING:
            return notification.status
        user = notification.user
        status = _status_for(user, notification.kind, {user.pk: kinds_unsubscribed(user)} if user else {})
        if status == Status.PENDING and user.email != notification.email:
            notification.email = user.email  # he changed it since: the current address
        if status != Status.PENDING:
            notification.status = status
            notification.save(update_fields=["status"])
            return status
        notification.attempts += 1
        try:
            message_build(notification).send()
        except Exception as error:  # counted here, under the lock; the caller decides to retry or give up
            failure = error
            notification.last_error = _error_text(error)
            notification.save(update_fields=["attempts", "last_error", "email"])
        else:
            notification.status = Status.SENT
            notification.sent_at = timezone.now()
            notification.last_error = ""
            notification.save(update_fields=["status", "attempts", "sent_at", "last_error", "email"])
    if failure is not None:
        raise failure
    return notification.status


def _error_text(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:500]


@transaction.atomic
def notification_failed(*, notification_id: int, error: BaseException, final: bool,
                        max_attempts: int | None = None) -> str:
    """Records a failure of a delivery (and, when ``final`` or the row was tried ``max_attempts`` times, gives
    the row up as failed); returns the row's status (``pending``: to be tried again).

    A failed send was counted by ``notification_deliver`` already; this keeps the error on the row. The
    count on the row bounds the attempts of every task of the row together (a task queued again by the
    sweep starts its own retries).
    """
    notification = Notification.objects.select_for_update().filter(pk=notification_id).first()
    if notification is None:
        return "missing"
    if notification.status != Status.PENDING:
        return notification.status
    notification.last_error = _error_text(error)
    if final or (max_attempts is not None and notification.attempts >= max_attempts):
        notification.status = Status.FAILED
    notification.save(update_fields=["last_error", "status"])
    return notification.status
