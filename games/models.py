"""Games: who plays which colour, under which rule set, and how it ended."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class RuleSet(models.TextChoices):
    """The rule sets of RULES.md; values match games.rules.RuleSet."""

    STANDARD = "standard", "Standard Laws (compulsory capture)"
    STANDARD_HUFF = "standard-huff", "Standard Laws with the huff"
    CUSTOMARY = "customary", "Customary rules (jumping optional)"


class Game(models.Model):
    """A game between two players; its moves and rulings are recorded by the arbitration app."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        IN_PROGRESS = "in_progress", "In progress"
        FINISHED = "finished", "Finished"

    class Result(models.TextChoices):
        BLACK_WINS = "1-0", "Black won"  # as in English-draughts PDN: 1-0 is the first mover's win
        WHITE_WINS = "0-1", "White won"
        DRAW = "1/2-1/2", "Drawn"

    round = models.ForeignKey(
        "tournaments.Round", null=True, blank=True, on_delete=models.CASCADE, related_name="games"
    )
    black = models.ForeignKey("tournaments.Player", on_delete=models.PROTECT, related_name="games_as_black")
    white = models.ForeignKey("tournaments.Player", on_delete=models.PROTECT, related_name="games_as_white")
    rule_set = models.CharField(max_length=16, choices=RuleSet.choices, default=RuleSet.STANDARD)
    start_fen = models.CharField(max_length=120, blank=True, help_text="Empty for the initial position.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED)
    result = models.CharField(max_length=8, choices=Result.choices, null=True, blank=True)
    referees = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="refereed_games")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(black=models.F("white")), name="game_distinct_players"),
            models.CheckConstraint(
                condition=models.Q(status="finished", result__isnull=False)
                | (~models.Q(status="finished") & models.Q(result__isnull=True)),
                name="game_result_iff_finished",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.black} v {self.white}"
