"""Notifications: one row per event and person (what was sent, to whom, how it went), and each person's choices."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Kind(models.TextChoices):
    """What a person may be told of; each is a template set under ``templates/notifications/email/``.

    A new kind: a value here, its three templates, its planner in ``notifications.planners``.
    """

    ROUND_PUBLISHED = "round_published", "A round's pairings are published (your board)"
    RESULT_TO_CONFIRM = "result_to_confirm", "A result of yours to confirm"
    APPEAL_DECIDED = "appeal_decided", "An appeal on your game is decided"
    TOURNAMENT_REOPENED = "tournament_reopened", "A tournament of yours is reopened"
    FIXTURE_REMINDER = "fixture_reminder", "A league match of yours is near (a reminder)"
    FIXTURE_POSTPONED = "fixture_postponed", "A postponement of your team's league match"
    CARD_CORRECTED = "card_corrected", "Your team's match card follows a corrected game"


class Notification(models.Model):
    """A message to one person about one event: exactly one row per (event, player), whatever the retries.

    ``event`` names the event (``round_published:round:12``): a second publication, a task run
    twice, two workers racing, all find the row there and send nothing more. ``context`` is what
    the message says (board, colour, opponent...), kept as it was when the event happened, so the
    director's list shows what was sent and a retry sends the same message.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to be sent"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"
        NO_EMAIL = "no_email", "Not sent: no email address"
        UNSUBSCRIBED = "unsubscribed", "Not sent: the person does not want these"

    event = models.CharField(max_length=120)
    kind = models.CharField(max_length=32, choices=Kind.choices)
    tournament = models.ForeignKey("tournaments.Tournament", null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="notifications")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="notifications")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+", help_text="The account linked to the player when the event happened.")
    email = models.CharField(max_length=254, blank=True, help_text="The address it was sent to.")
    subject = models.CharField(max_length=200, blank=True)
    context = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="notification_once_per_event_and_player"),
        ]
        indexes = [models.Index(fields=["tournament", "-id"], name="notification_tournament_idx")]

    def __str__(self) -> str:
        return f"{self.event} to {self.player_id}: {self.status}"


class Unsubscription(models.Model):
    """A person does not want one kind of message (absent: he receives it)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="unsubscriptions")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="unsubscription_unique_kind")]

    def __str__(self) -> str:
        return f"{self.user_id} unsubscribed from {self.kind}"
