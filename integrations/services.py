"""Webhooks' writes: registering one, turning off, deleting, sending a delivery again; who may.

A director registers webhooks for the tournaments he directs; an administrator (a superuser) for
any, or for every tournament at once (no tournament), and alone may allow a private or loopback
address. Every write asks ``authorise_webhook`` for THIS webhook's tournament.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.api import AppError, NotFoundError
from integrations.addresses import AddressRefused, url_check
from integrations.models import Webhook, WebhookDelivery
from tournaments.models import Tournament
from tournaments.services.access import is_director_of


class WebhookNotFound(NotFoundError):
    code = "webhook_not_found"
    default_message = "There is no such webhook."


class DeliveryNotFound(NotFoundError):
    code = "delivery_not_found"
    default_message = "There is no such delivery."


class WebhookForbidden(AppError):
    code = "permission_denied"
    status_code = 403
    default_message = "Only a director of this tournament or an administrator may do this."


class WebhookInvalid(AppError):
    code = "validation_error"

    @classmethod
    def field(cls, name: str, message: str) -> WebhookInvalid:
        return cls(f"Some fields are invalid: {name}.", details={"fields": {name: [message]}})


def may_manage(user: Any, tournament: Tournament | None) -> bool:
    """Tells whether the user may manage the webhooks of this tournament (None: of every tournament)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if tournament is None:
        return bool(user.is_superuser)
    return is_director_of(tournament, user)


def authorise_webhook(user: Any, tournament: Tournament | None) -> None:
    """Refuses (403) anyone who may not manage the webhooks of this tournament."""
    if not may_manage(user, tournament):
        raise WebhookForbidden()


def webhooks_visible(user: Any) -> Any:
    """Returns the webhooks the user may see: all for an administrator, his tournaments' for a director."""
    if not getattr(user, "is_authenticated", False):
        return Webhook.objects.none()
    if user.is_superuser:
        return Webhook.objects.all()
    return Webhook.objects.filter(tournament__directors=user)


def _events_clean(events: Any) -> list[str]:
    known = list(Webhook.Event.values)
    if not isinstance(events, list) or not events or not all(isinstance(e, str) for e in events):
        raise WebhookInvalid.field("events", f"A list of one or more of: {', '.join(known)}.")
    unknown = sorted(set(events) - set(known))
    if unknown:
        raise WebhookInvalid.field("events", f"Unknown events: {', '.join(unknown)}; known: {', '.join(known)}.")
    return [e for e in known if e in events]


@transaction.atomic
def webhook_create(*, acting_user: Any, tournament: Tournament | None, url: str, events: list[str],
                   allow_private: bool = False) -> Webhook:
    """Registers a webhook of the tournament (None: of every tournament) with a new secret.

    The URL must reach a public address, unless ``allow_private`` (administrators only).
    """
    authorise_webhook(acting_user, tournament)
    if allow_private and not acting_user.is_superuser:
        raise WebhookForbidden("Only an administrator may allow a private or loopback address.")
    events = _events_clean(events)
    try:
        url_check(url, allow_private=allow_private)
    except AddressRefused as error:
        raise WebhookInvalid.field("url", str(error)) from error
    return Webhook.objects.create(tournament=tournament, url=url, events=events, allow_private=allow_private,
                                  secret=secrets.token_hex(32), created_by=acting_user)


def _webhook_locked(webhook_id: int) -> Webhook:
    webhook = Webhook.objects.select_for_update(of=("self",)).select_related("tournament").filter(pk=webhook_id).first()
    if webhook is None:
        raise WebhookNotFound()
    return webhook


@transaction.atomic
def webhook_update(*, acting_user: Any, webhook_id: int, active: bool | None = None,
                   events: list[str] | None = None) -> Webhook:
    """Turns a webhook on or off, or changes its events."""
    webhook = _webhook_locked(webhook_id)
    authorise_webhook(acting_user, webhook.tournament)
    fields = []
    if active is not None:
        webhook.active = bool(active)
        fields.append("active")
    if events is not None:
        webhook.events = _events_clean(events)
        fields.append("events")
    if fields:
        webhook.save(update_fields=fields)
    return webhook


@transaction.atomic
def webhook_delete(*, acting_user: Any, webhook_id: int) -> None:
    """Deletes a webhook and its delivery log."""
    webhook = _webhook_locked(webhook_id)
    authorise_webhook(acting_user, webhook.tournament)
    webhook.delete()


@transaction.atomic
def delivery_resend(*, acting_user: Any, delivery_id: int) -> WebhookDelivery:
    """Puts a delivery back in its stream's queue, to be sent at once (its body and idempotency id unchanged).

    The caller hands the stream to the sender after the commit (``integrations.tasks``).
    """
    delivery = (WebhookDelivery.objects.select_for_update(of=("self",)).select_related("webhook__tournament")
                .filter(pk=delivery_id).first())
    if delivery is None:
        raise DeliveryNotFound()
    authorise_webhook(acting_user, delivery.webhook.tournament)
    now = timezone.now()
    delivery.status = WebhookDelivery.Status.PENDING
    delivery.next_attempt_at = now
    delivery.give_up_at = now + timedelta(seconds=settings.WEBHOOK_RETRY_FOR)
    delivery.save(update_fields=["status", "next_attempt_at", "give_up_at"])
    return delivery
