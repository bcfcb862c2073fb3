"""Clubs: a club record (name, short name, contact, secretary), its members and its record.

A player belongs to at most one club (``ClubMember``, one row a player). The link lives here,
above the players registry: ``players`` never imports ``clubs``. ``Player.club``, the text the
registry has always kept, stays as the club's name as shown (the services keep it equal to the
member's club's name); the record is the truth.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


def club_key(name: str) -> str:
    """Returns the key under which two club names are one club: case and spacing ignored."""
    return " ".join((name or "").lower().split())


class Club(models.Model):
    """A club: its players belong to it; its secretary keeps them."""

    name = models.CharField(max_length=120)
    key = models.CharField(max_length=120, unique=True, editable=False,
                           help_text="The name lowercased with its spaces collapsed: one club per key.")
    short_name = models.CharField(max_length=20, blank=True)
    contact = models.CharField(max_length=200, blank=True, help_text="How to reach the club, as it publishes it.")
    secretary = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="clubs_as_secretary",
                                  help_text="The user who keeps the club's players (and, later, its teams).")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.CheckConstraint(condition=~models.Q(key=""), name="club_key_not_empty")]

    def __str__(self) -> str:
        return self.name


class ClubMember(models.Model):
    """A player's club: one row a player (a transfer changes the row, on the club's record)."""

    player = models.OneToOneField("players.Player", on_delete=models.CASCADE, related_name="club_membership")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="members")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "player"]

    def __str__(self) -> str:
        return f"{self.player} of {self.club}"


class ClubLog(models.Model):
    """The club's record: who created or changed it, who joined or left it, which player its keepers changed.

    Rows are appended, never edited; ``changes`` maps a field to ``{"before", "after"}``.
    """

    class Kind(models.TextChoices):
        CREATED = "created", "Created"
        CHANGED = "changed", "Changed"
        JOINED = "joined", "Player joined"
        LEFT = "left", "Player left"
        PLAYER_CHANGED = "player_changed", "Player changed"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="log")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                              related_name="+")
    player = models.ForeignKey("players.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    changes = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "id"]

    def __str__(self) -> str:
        return f"{self.club}: {self.kind}"
