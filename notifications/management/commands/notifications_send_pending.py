"""Hands every notification still pending after a while to the sending task again.

A row is recorded and committed before its sending task is queued; a worker that dies between the
two (or a broker that lost the task) leaves it pending. Run this now and then (cron, every few
minutes): sending is idempotent, so a row whose task is merely slow is not sent twice.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from notifications.models import Notification
from notifications.tasks import notification_send


class Command(BaseCommand):
    help = "Queues again the notifications still pending after --minutes (default 10)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--minutes", type=float, default=10.0)

    def handle(self, *args: Any, minutes: float, **options: Any) -> None:
        before = timezone.now() - timedelta(minutes=minutes)
        ids = list(Notification.objects.filter(status=Notification.Status.PENDING, created_at__lt=before)
                   .order_by("id").values_list("pk", flat=True))
        for notification_id in ids:
            notification_send.delay(notification_id)
        self.stdout.write(f"{len(ids)} pending notification(s) queued again.")
