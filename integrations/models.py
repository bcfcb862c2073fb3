"""Webhooks: a receiver's URL and the events it wants, the streams it is fed in order, the deliveries."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Webhook(models.Model):
    """A program's URL that is sent the events it asked for, of one tournament (or of all: an administrator's)."""

    class Event(models.TextChoices):
        MOVE = "move", "A move"
        RULING = "ruling", "A ruling"
        GAME_FINISHED = "game_finished", "A game finished"
        ROUND_PUBLISHED = "round_published", "A round published"
        STANDINGS_CHANGED = "standings_changed", "Standings changed"

    tournament = models.ForeignKey("tournaments.Tournament", null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="webhooks", help_text="Empty: every tournament (administrators).")
    url = models.URLField(max_length=500)
    events = models.JSONField(default=list, help_text="The events sent, from Event.")
    secret = models.CharField(max_length=64, help_text="The key of the HMAC-SHA256 signature of each delivery.")
    active = models.BooleanField(default=True)
    allow_private = models.BooleanField(
        default=False, help_text="An administrator allowed a private or loopback address for this URL.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.url


class WebhookStream(models.Model):
    """What one webhook has been fed of one log: a game's (``g:<id>``) or a tournament's (``t:<id>``).

    Its row is the lock that keeps the stream's deliveries in order: the collector appends under
    it, the sender sends the oldest delivery waiting under it.
    """

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="streams")
    key = models.CharField(max_length=32)
    last_seq = models.PositiveIntegerField(default=0, help_text="The last log seq turned into deliveries.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["webhook", "key"], name="webhook_stream_unique_key")]


class WebhookDelivery(models.Model):
    """One event for one webhook: its body as sent, and how sending it went."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting"
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Given up"

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    stream = models.ForeignKey(WebhookStream, on_delete=models.CASCADE, related_name="deliveries")
    seq = models.PositiveIntegerField(help_text="The log seq of the event: the order within its stream.")
    event = models.CharField(max_length=24, choices=Webhook.Event.choices)
    event_id = models.UUIDField(default=uuid.uuid4, unique=True, help_text="The idempotency id sent with it.")
    body = models.TextField(help_text="The JSON body, exactly as signed and sent.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    give_up_at = models.DateTimeField()
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_answer = models.TextField(blank=True, help_text="The start of the last answer, or the error.")
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["stream", "status", "seq"], name="webhook_delivery_queue")]
