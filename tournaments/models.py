"""Players, tournaments, entries and rounds."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Player(models.Model):
    """A person who plays; may be linked to a user account to see their own games."""

    name = models.CharField(max_length=120)
    club = models.CharField(max_length=120, blank=True)
    federation = models.CharField(max_length=60, blank=True, help_text="Country or federation.")
    federation_id = models.CharField(max_length=40, blank=True)
    rating = models.IntegerField(null=True, blank=True)
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


class Tournament(models.Model):
    """A tournament: its format, the rules its games are played under, and its staff."""

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "Round robin"
        DOUBLE_ROUND_ROBIN = "double_round_robin", "Double round robin"
        SWISS = "swiss", "Swiss"
        KNOCKOUT = "knockout", "Knockout"

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        REGISTRATION = "registration", "Registration"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    format = models.CharField(max_length=24, choices=Format.choices, default=Format.ROUND_ROBIN)
    rule_set = models.CharField(max_length=16, default="standard")
    venue = models.CharField(max_length=200, blank=True)
    start_date = models.DateField(null=True, blank=True)
    end_date = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="directed_tournaments")
    referees = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="refereed_tournaments")
    players = models.ManyToManyField(Player, through="Entry", related_name="tournaments")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end_date__isnull=True)
                | models.Q(start_date__isnull=True)
                | models.Q(end_date__gte=models.F("start_date")),
                name="tournament_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player's entry in a tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class Round(models.Model):
    """A round of a tournament."""

    class Status(models.TextChoices):
        PREVIEW = "preview", "Preview"
        PUBLISHED = "published", "Published"
        IN_PROGRESS = "in_progress", "In progress"
        FINISHED = "finished", "Finished"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PREVIEW)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"
