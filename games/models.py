"""Games and their moves: who plays which colour, under which rules, and how it ended."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.rules import INITIAL_FEN
from games.rules import RuleSet as EngineRuleSet


class RuleSet(models.TextChoices):
    """The rule sets of RULES.md; values match games.rules.RuleSet."""

    STANDARD = "standard", "Standard Laws (compulsory capture)"
    STANDARD_HUFF = "standard-huff", "Standard Laws with the huff"
    CUSTOMARY = "customary", "Customary rules (jumping optional)"


class ProgressRule(models.TextChoices):
    """How a game without progress is drawn (Law 22, Pask), chosen per game."""

    FORTY_MOVE_NOTICE = "forty-move-notice", "40-move rule on notice (Law 22)"
    FORTY_MOVE_AUTOMATIC = "forty-move-automatic", "40-move rule, automatic count (WCDF)"
    FIFTY_MOVE = "fifty-move", "50-move rule (Pask)"
    NONE = "none", "None"


class Side(models.TextChoices):
    BLACK = "black", "Black"
    WHITE = "white", "White"


class Termination(models.TextChoices):
    """Why a game ended: a fixed list."""

    NO_LEGAL_MOVE = "no_legal_move", "No legal move (Law 23)"
    RESIGNATION = "resignation", "Resignation"
    FORFEIT_FALSE_MOVE = "forfeit_false_move", "Forfeit: false or improper move (Law 21)"
    FORFEIT_TOUCH_OFFENCE = "forfeit_touch_offence", "Forfeit: second touch offence (Law 18)"
    FORFEIT_TOUCHED_PIECE_NOT_PLAYED = "forfeit_touched_piece_not_played", "Forfeit: touched piece not played (Law 19)"
    FORFEIT_CONDUCT = "forfeit_conduct", "Forfeit: conduct (Law 29)"
    FORFEIT_ABSENCE = "forfeit_absence", "Forfeit: left the room (Law 30)"
    LOSS_BY_DELAY = "loss_by_delay", "Loss by improper delay (Laws 24-25)"
    DRAW_AGREEMENT = "draw_agreement", "Draw by agreement"
    DRAW_FORTY_MOVE = "draw_forty_move", "Draw: 40-move rule (Law 22)"
    DRAW_FIFTY_MOVE = "draw_fifty_move", "Draw: 50-move rule"
    DRAW_REPETITION = "draw_repetition", "Draw by repetition"
    ADJUDICATION = "adjudication", "Adjudication"
    SCORESHEET = "scoresheet", "Result from the scoresheet"
    APPEAL_DECISION = "appeal_decision", "Appeal decision (Law 28)"


class Game(models.Model):
    """A game between two players.

    ``fen`` and ``ply`` are the current position and the number of plies recorded: a cache of
    what the arbitration log says, written in the same transaction as the log entry that
    changes them. Every write goes through the services, under ``select_for_update``.
    """

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
    black = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="games_as_black")
    white = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="games_as_white")
    rule_set = models.CharField(max_length=16, choices=RuleSet.choices, default=RuleSet.STANDARD)
    progress_rule = models.CharField(
        max_length=24, choices=ProgressRule.choices, default=ProgressRule.FORTY_MOVE_NOTICE
    )
    repetition_threshold = models.PositiveSmallIntegerField(
        null=True, blank=True, default=4, choices=[(3, "3 (WCDF)"), (4, "4 (Pask)")],
        help_text="A repetition claim draws when the position would occur this many times; empty: off.",
    )
    start_fen = models.CharField(max_length=200, blank=True, help_text="Empty for the initial position.")
    fen = models.CharField(max_length=200, default=INITIAL_FEN, help_text="The current position.")
    ply = models.PositiveIntegerField(default=0, help_text="Plies recorded on the current line of play.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    result = models.CharField(max_length=8, choices=Result.choices, null=True, blank=True)
    termination = models.CharField(max_length=40, choices=Termination.choices, null=True, blank=True)
    referees = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="refereed_games")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="Who created the game: a standalone game (no round) is directed by him (arbitration.access).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    arbitration = models.JSONField(
        default=dict, blank=True,
        help_text="What the log says is pending (open choices, constraints, the 40-move count, "
        "offence counts): a cache written with the log entry that changes it (arbitration.services).",
    )
    has_clock = models.BooleanField(
        default=False, help_text="Whether the game has a clock row (arbitration.GameClock): moves skip the read when not."
    )
    log_seq = models.PositiveIntegerField(default=0, help_text="The seq of the last log entry.")
    log_head = models.CharField(max_length=64, default="0" * 64, help_text="The hash of the last log entry.")

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(black=models.F("white")), name="game_distinct_players"),
            models.CheckConstraint(
                condition=models.Q(status="finished", result__isnull=False, termination__isnull=False)
                | (~models.Q(status="finished") & models.Q(result__isnull=True, termination__isnull=True)),
                name="game_result_iff_finished",
            ),
            models.CheckConstraint(
                condition=models.Q(repetition_threshold__isnull=True) | models.Q(repetition_threshold__in=[3, 4]),
                name="game_repetition_threshold_3_or_4",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.black} v {self.white}"

    @property
    def initial_fen(self) -> str:
        """Returns the position the game started from."""
        return self.start_fen or INITIAL_FEN

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    def engine_rules(self) -> EngineRuleSet:
        """Returns the rules engine's rule set for the game."""
        return EngineRuleSet(self.rule_set)


class Move(models.Model):
    """A move on the record: the ply, the PDN, the path, the position after, who and when.

    Moves are never deleted. When play is put back (Law 15, a compelled capture, a correction),
    the later moves are marked superseded by the log entry that put play back; the current
    line of play is the moves not superseded.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    side = models.CharField(max_length=5, choices=Side.choices)
    pdn = models.CharField(max_length=80, help_text="Full path, e.g. 15x24x31.")
    entered = models.CharField(max_length=80, help_text="As the referee typed it, e.g. 15x31.")
    path = models.JSONField(help_text="Every landing square, the start first.")
    captures = models.JSONField(default=list)
    crowns = models.BooleanField(default=False)
    moved_man = models.BooleanField(default=False, help_text="A man moved (not a king): progress for Law 22 and Pask.")
    fen_after = models.CharField(max_length=200)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField()
    log_entry = models.OneToOneField(
        "arbitration.LogEntry", on_delete=models.PROTECT, related_name="move", null=True, blank=True
    )
    superseded_by = models.ForeignKey(
        "arbitration.LogEntry", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_moves",
        db_index=False,  # almost always empty: indexed only where set (move_superseded_by)
    )

    class Meta:
        ordering = ["game", "ply", "id"]
        indexes = [
            models.Index(fields=["superseded_by"], name="move_superseded_by",
                         condition=models.Q(superseded_by__isnull=False)),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "ply"], condition=models.Q(superseded_by__isnull=True), name="move_unique_live_ply"
            ),
            models.CheckConstraint(condition=models.Q(ply__gte=1), name="move_ply_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.ply}. {self.pdn}"
