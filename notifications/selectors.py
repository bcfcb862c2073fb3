"""Reads of notifications: what a tournament sent."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet

from notifications.models import Notification


def tournament_notifications(tournament: Any) -> QuerySet[Notification]:
    """Returns the tournament's notifications, newest first, with their players (one query)."""
    return Notification.objects.filter(tournament=tournament).select_related("player").order_by("-id")


def tournament_counts(tournament: Any) -> dict[str, int]:
    """Returns how many of the tournament's notifications are in each status."""
    return dict(Notification.objects.filter(tournament=tournament).values_list("status")
                .annotate(n=Count("id")).values_list("status", "n"))
