"""Reads of notifications: what a tournament sent, what is left pending."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from notifications.models import Notification


def tournament_notifications(tournament: Any) -> QuerySet[Notification]:
    """Returns the tournament's notifications, newest first, with their players (one query)."""
    return Notification.objects.filter(tournament=tournament).select_related("player").order_by("-id")


def tournament_counts(tournament: Any) -> dict[str, int]:
    """Returns how many of the tournament's notifications are in each status."""
    return dict(Notification.objects.filter(tournament=tournament).values_list("status")
                .annotate(n=Count("id")).values_list("status", "n"))


def pending_lost(*, unsent_minutes: float, retried_minutes: float) -> list[int]:
    """Returns the ids of the rows still pending whose sending task looks lost: never tried and recorded more
    than ``unsent_minutes`` ago, or tried and recorded longer ago than a whole chain of retries takes
    (``retried_minutes``)."""
    now = timezone.now()
    return list(Notification.objects.filter(
        Q(attempts=0, created_at__lt=now - timedelta(minutes=unsent_minutes))
        | Q(attempts__gt=0, created_at__lt=now - timedelta(minutes=retried_minutes)),
        status=Notification.Status.PENDING).order_by("id").values_list("pk", flat=True))
