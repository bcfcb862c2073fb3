"""The players registry: a person who plays, with club, federation id and current rating."""

from __future__ import annotations

from django.conf import settings
from django.db import models

#: The range of a rating, as the registry and the CSV import accept it (Glicko-2's scale: a new
#: player starts at 1500; no player is anywhere near either end).
RATING_MIN = 0
RATING_MAX = 4000


def player_name_key(name: str, club: str) -> tuple[str, str]:
    """Returns the key under which two players without a federation id are the same person:
    name and club, case and spacing ignored (the CSV import and ``POST /players/`` both refuse a
    second player with the key of a registered one)."""
    return (" ".join(name.lower().split()), " ".join(club.lower().split()))


class Player(models.Model):
    """A person who plays; may be linked to a user account to see their own games."""

    name = models.CharField(max_length=120)
    club = models.CharField(max_length=120, blank=True)
    federation = models.CharField(max_length=60, blank=True, help_text="Country or federation.")
    federation_id = models.CharField(max_length=40, blank=True)
    rating = models.IntegerField(null=True, blank=True)
    rating_deviation = models.FloatField(null=True, blank=True,
                                         help_text="Glicko-2 rating deviation (RD); empty: not rated by us yet.")
    rating_volatility = models.FloatField(null=True, blank=True, help_text="Glicko-2 volatility; empty: 0.06.")
    federation_rating = models.IntegerField(null=True, blank=True,
                                            help_text="The rating on the federation's list (imported; not ours).")
    federation_games = models.IntegerField(null=True, blank=True,
                                           help_text="The games the federation's list counts for the player.")
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="player",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "federation_id"],
                condition=~models.Q(federation_id=""),
                name="player_unique_federation_id",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PlayerLog(models.Model):
    """The registry's record: who registered or changed a player, each field before and after.

    Rows are appended, never edited. ``changes`` maps a field to ``{"before", "after"}``; the
    linked account is recorded by username, and ``account`` is the account a claim, link or
    unlink concerns (by id: it stays right if the username changes).
    """

    class Kind(models.TextChoices):
        CREATED = "created", "Registered"
        CHANGED = "changed", "Changed"
        CLAIMED = "claimed", "Claimed by an account"
        CLAIM_REFUSED = "claim_refused", "Claim refused"
        CLAIM_WITHDRAWN = "claim_withdrawn", "Claim withdrawn"
        LINKED = "linked", "Account linked"
        UNLINKED = "unlinked", "Account unlinked"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="log")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                              related_name="+")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                related_name="+", help_text="The account a claim, link or unlink concerns.")
    as_administrator = models.BooleanField(default=False, help_text="The actor acted as a federation administrator.")
    changes = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player", "id"]

    def __str__(self) -> str:
        return f"{self.player}: {self.kind}"


class PlayerClaim(models.Model):
    """A user's claim that a registered player is he: the link is made only when a keeper of the
    player (an administrator, or the director who registered him while no other director's
    tournament holds him) approves it (``tournaments.services.players``).

    Each step is also on the registry's record (``PlayerLog``: claimed, linked, claim refused or
    withdrawn); this row holds what is still pending.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        APPROVED = "approved", "Approved"
        REFUSED = "refused", "Refused"
        WITHDRAWN = "withdrawn", "Withdrawn"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    statement = models.TextField(blank=True, help_text="What the claimant says to show that he is the player.")
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True, help_text="Why it was refused, as the keeper said.")

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["user"], condition=models.Q(status="pending"),
                                    name="player_claim_one_pending_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} claims {self.player} ({self.status})"
