"""Tournaments, entries, rounds, matches, the tournament log and rating history."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from arbitration.models import AppendOnlyError
from players.models import Player


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

    class Opening(models.TextChoices):
        GO_AS_YOU_PLEASE = "go-as-you-please", "Go as you please"
        THREE_MOVE_BALLOT = "three-move-ballot", "3-move ballot"
        TWO_MOVE_BALLOT = "two-move-ballot", "2-move restriction"
        ELEVEN_MAN_BALLOT = "eleven-man-ballot", "11-man ballot"

    class ScoreBy(models.TextChoices):
        ROUND = "round", "Per round (the match result)"
        GAME = "game", "Per game (each game scores a win, a draw or a loss)"

    class PairingSystem(models.TextChoices):
        WEIGHTED = "weighted", "Weighted matching (this system's own Swiss)"
        DUTCH = "dutch", "FIDE Dutch system (C.04.3)"

    class Acceleration(models.TextChoices):
        NONE = "none", "None"
        BAKU = "baku", "Baku (FIDE C.04.5.1)"

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
    arbiters = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="arbitrated_tournaments",
        help_text="Who decides appeals on its games (Law 28): the arbiter or appeals committee its directors name.",
    )
    appeal_window_minutes = models.PositiveIntegerField(
        null=True, blank=True,
        help_text="Appeals on a game are filed within this many minutes of its end; empty: until the next round "
        "is published.",
    )
    players = models.ManyToManyField(Player, through="Entry", related_name="tournaments")
    created_at = models.DateTimeField(auto_now_add=True)
    round_count = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The number of rounds of a Swiss (the API calls it rounds).",
    )
    progress_rule = models.CharField(max_length=24, default="forty-move-notice",
                                     help_text="games.models.ProgressRule: how its games draw for lack of progress.")
    repetition_threshold = models.PositiveSmallIntegerField(null=True, blank=True, default=4)
    clock_control = models.JSONField(
        default=dict, blank=True,
        help_text="The games' time control (arbitration.timecontrol.ClockControl as JSON); empty: no clock.",
    )
    opening = models.CharField(max_length=24, choices=Opening.choices, default=Opening.THREE_MOVE_BALLOT)
    deck = models.CharField(
        max_length=24, blank=True,
        help_text="3-move ballot: the deck drawn from (tournaments.ballots.BASE_DECKS; empty: the ACF deck of 156).",
    )
    deck_name = models.CharField(max_length=80, blank=True, help_text="The organiser's name for his deck "
                                 "(\"Masters' deck\"); empty: the base deck's.")
    deck_barred = models.JSONField(default=list, blank=True, help_text="Opening numbers barred from the deck.")
    deck_added = models.JSONField(default=list, blank=True, help_text="Opening numbers (of the same list) added to it.")
    games_per_match = models.PositiveSmallIntegerField(
        default=2, help_text="Games a round: 1, 2 or 4 (2 or 4: each opening played twice, colours reversed).",
    )
    score_by = models.CharField(max_length=8, choices=ScoreBy.choices, default=ScoreBy.ROUND,
                                help_text="Per round (match points for the match) or per game (match points "
                                "for each game).")
    match_points_win = models.PositiveSmallIntegerField(default=2)
    match_points_draw = models.PositiveSmallIntegerField(default=1)
    match_points_loss = models.PositiveSmallIntegerField(default=0)
    game_points_win = models.DecimalField(max_digits=4, decimal_places=1, default=1)
    game_points_draw = models.DecimalField(max_digits=4, decimal_places=1, default="0.5")
    tiebreaks = models.JSONField(default=list, blank=True, help_text="Tiebreak names, in order.")
    rated = models.BooleanField(default=False)
    pairing_system = models.CharField(
        max_length=16, choices=PairingSystem.choices, default=PairingSystem.WEIGHTED,
        help_text="How a Swiss pairs its rounds: the FIDE Dutch system, or this system's weighted matching.",
    )
    acceleration = models.CharField(max_length=8, choices=Acceleration.choices, default=Acceleration.NONE,
                                    help_text="A Swiss paired by the Dutch system: Baku acceleration or none.")
    half_point_byes = models.PositiveSmallIntegerField(
        default=0, help_text="How many half-point byes a player of a Swiss may ask for (0: none).")
    byes_closed_rounds = models.PositiveSmallIntegerField(
        default=0, help_text="No half-point bye may be asked for in this many last rounds.")
    knockout_extra_blocks = models.PositiveSmallIntegerField(
        null=True, blank=True,
        help_text="Knockout: how many 2-game blocks a tied match may add; empty: until decided.",
    )
    log_seq = models.PositiveIntegerField(default=0, editable=False, help_text="The seq of the log's last row.")
    log_head = models.CharField(max_length=64, default="0" * 64, editable=False,
                                help_text="The hash of the log's last row (the chain head).")

    class Meta:
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end_date__isnull=True)
                | models.Q(start_date__isnull=True)
                | models.Q(end_date__gte=models.F("start_date")),
                name="tournament_ends_after_start",
            ),
            models.CheckConstraint(condition=models.Q(games_per_match__in=(1, 2, 4)),
                                   name="tournament_games_per_match_1_2_4"),
            models.CheckConstraint(
                condition=models.Q(match_points_win__gte=models.F("match_points_draw"))
                & models.Q(match_points_draw__gte=models.F("match_points_loss")),
                name="tournament_match_points_ordered",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Saves the row; the chain head is left out unless named in ``update_fields``.

        Only ``tournaments.log.log_append`` moves the head (with an UPDATE of its own, the row
        locked); an object read before a row was appended and saved whole afterwards (the
        admin, a service saving ``status``) must not put the old head back.
        """
        if kwargs.get("update_fields") is None and not self._state.adding and self.pk is not None:
            kwargs["update_fields"] = [field.name for field in self._meta.concrete_fields
                                       if not field.primary_key and field.name not in CHAIN_HEAD_FIELDS]
        super().save(*args, **kwargs)


CHAIN_HEAD_FIELDS = ("log_seq", "log_head")


class Entry(models.Model):
    """A player's entry in a tournament; a withdrawal keeps the entry (its results stand)."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        WITHDRAWN = "withdrawn", "Withdrawn"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    first_round = models.PositiveSmallIntegerField(default=1, help_text="A late entry is paired from this round on.")
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    seed = models.PositiveIntegerField(null=True, blank=True, help_text="The starting rank (by rating) when it starts.")

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
    explanation = models.JSONField(default=list, blank=True, help_text="Why the pairing is as it is (Swiss).")
    created_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    scheduled_at = models.DateTimeField(
        null=True, blank=True,
        help_text="When the round is to start, as the director set it (the notices and the calendar feeds); "
        "empty: not set.",
    )

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class Match(models.Model):
    """A pairing of a round: 1, 2 or 4 games between two players (Law 26 asks an even number), or a bye.

    In a match of 2 or 4 games lots are cast once, at its start, for colour (Law 6):
    ``lots_seed`` and ``first_black`` (who has Black in game 1) record the draw; colours then
    alternate. A round of one game takes its colour from the format's rules (the Swiss colour
    allocation, the Berger table) and records no lots; a knockout's single game takes lots.
    With a ballot, ``ballots`` holds the openings drawn (each played twice, colours reversed,
    except in a one-game round) and ``ballot_seed`` the seed they were drawn with.
    """

    class Kind(models.TextChoices):
        PLAYED = "played", "Played"
        BYE = "bye", "Bye"
        FORFEIT = "forfeit", "Forfeit (unplayed)"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    board = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.PLAYED)
    player_one = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_two = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    forfeit_winner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                                       help_text="A forfeit: who is awarded the match (empty: both lose).")
    games_planned = models.PositiveSmallIntegerField(default=2)
    lots_seed = models.CharField(max_length=64, blank=True)
    first_black = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                                    help_text="The outcome of the lots: who has Black in game 1.")
    ballot_seed = models.CharField(max_length=64, blank=True, help_text="The seed of the first ballot draw.")
    ballots = models.JSONField(default=list, blank=True,
                               help_text="The openings drawn, in order: number, moves, fen, seed, index.")
    explanation = models.TextField(blank=True, help_text="Why this pairing was made (Swiss).")
    edited = models.BooleanField(default=False, help_text="The director edited this pairing of the preview.")

    class Meta:
        ordering = ["round", "board"]
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="match_unique_board"),
            models.CheckConstraint(condition=~models.Q(player_one=models.F("player_two")),
                                   name="match_distinct_players"),
            models.CheckConstraint(
                condition=models.Q(kind="bye", player_two__isnull=True)
                | (~models.Q(kind="bye") & models.Q(player_two__isnull=False)),
                name="match_bye_iff_no_opponent",
            ),
            models.CheckConstraint(condition=models.Q(games_planned__in=(1, 2, 4)), name="match_games_planned_1_2_4"),
        ]

    def __str__(self) -> str:
        return f"{self.player_one} v {self.player_two or 'bye'}"


class MatchGame(models.Model):
    """A game of a match: its number in the match and the ballot it was played from."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="match_games")
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="match_game")
    number = models.PositiveSmallIntegerField()
    ballot_number = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="match_game_unique_number"),
        ]


class TournamentLogQuerySet(models.QuerySet):
    def update(self, **kwargs):  # noqa: ANN003
        raise AppendOnlyError("the tournament log is append-only: add a correcting row instead")

    def delete(self):
        raise AppendOnlyError("the tournament log is append-only: add a correcting row instead")


class TournamentLog(models.Model):
    """The tournament's append-only log: status changes, pairings, edits, corrections, ratings.

    A correction is a new row that names the one it supersedes; rows are never edited. Rows are
    numbered per tournament (``seq`` from 1) and chained as a game's log is: ``hash`` is the
    HMAC-SHA256, under the record key named by ``key_id``, of the row's content with
    ``prev_hash`` (``tournaments.log``, ``core.chain``).
    """

    class Kind(models.TextChoices):
        CREATED = "created", "Created"
        STATUS_CHANGED = "status_changed", "Status changed"
        ENTRY_ADDED = "entry_added", "Entry added"
        ENTRY_WITHDRAWN = "entry_withdrawn", "Entry withdrawn"
        ROUND_PAIRED = "round_paired", "Round paired (preview)"
        PAIRING_EDITED = "pairing_edited", "Pairing edited"
        ROUND_PUBLISHED = "round_published", "Round published"
        REFEREES_ASSIGNED = "referees_assigned", "Referees assigned"
        RESULT_RECORDED = "result_recorded", "Result recorded"
        RESULT_CORRECTED = "result_corrected", "Result corrected"
        MATCH_EXTENDED = "match_extended", "Knockout match extended"
        RATINGS_UPDATED = "ratings_updated", "Ratings updated"
        SETTINGS_CHANGED = "settings_changed", "Settings changed"
        GAME_RULING = "game_ruling", "Result changed by a ruling on the game"
        APPEAL_FILED = "appeal_filed", "Appeal filed (Law 28)"
        APPEAL_DECIDED = "appeal_decided", "Appeal decided (Law 28)"
        REFEREE_REMOVED = "referee_removed", "Referee removed from games"
        ARBITERS_NAMED = "arbiters_named", "Arbiters named (Law 28)"
        SCORESHEETS_ENTERED = "scoresheets_entered", "Games entered from scoresheets"
        PRESENCE_MARKED = "presence_marked", "Presence marked (check-in)"
        BYE_REQUESTED = "bye_requested", "Bye requested"
        BYE_CANCELLED = "bye_cancelled", "Bye cancelled"
        PROHIBITION_SET = "prohibition_set", "Players kept apart"
        PROHIBITION_REMOVED = "prohibition_removed", "Players no longer kept apart"

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="log")
    kind = models.CharField(max_length=24, choices=Kind.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                              related_name="+")
    from_status = models.CharField(max_length=16, blank=True)
    to_status = models.CharField(max_length=16, blank=True)
    reason = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)
    supersedes = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT,
                                      related_name="superseded_by")
    created_at = models.DateTimeField(default=timezone.now)  # set before the hash, which covers it
    seq = models.PositiveIntegerField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    key_id = models.CharField(max_length=8, help_text="The id of the record key the hash is an HMAC under.")

    objects = TournamentLogQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seq"], name="tournamentlog_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.kind}"

    def save(self, *args, **kwargs):  # noqa: ANN002, ANN003
        """Inserts the row; refuses to update one that exists (the log is append-only)."""
        if self.pk is not None or not self._state.adding:
            raise AppendOnlyError("the tournament log is append-only: add a correcting row instead")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):  # noqa: ANN002, ANN003
        raise AppendOnlyError("the tournament log is append-only: add a correcting row instead")


class Presence(models.Model):
    """Check-in: whether an entered player is present for a round, marked before it is paired.

    Marked by a director of the tournament or by the player himself (his linked account); each
    mark is on the tournament's log (``presence_marked``). When the round is paired, an absent
    player's match is a forfeit, or (a Swiss, if the director so chooses) he is left out of the
    pairing: ``left_out`` records that choice, so that the round's field leaves him out too.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="presences")
    round_number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    present = models.BooleanField()
    left_out = models.BooleanField(default=False, help_text="Left out of the round's pairing (a Swiss), being absent.")
    marked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    marked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round_number", "player"], name="presence_unique_round_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {'present' if self.present else 'absent'} for round {self.round_number}"


class RoundBye(models.Model):
    """A round a player of a Swiss is not paired in, known before it is paired, with the points it gives.

    A half-point bye he asked for, an absence he announced (a zero-point bye), or the rounds a
    late entry missed (the points the director gave). Added on the tournament's log; counted in
    the standings once the round is published (a voluntarily unplayed round for the tiebreaks).
    """

    class Kind(models.TextChoices):
        HALF = "half", "Half-point bye"
        ZERO = "zero", "Zero-point bye (absent)"
        FULL = "full", "Full-point bye"

    class Reason(models.TextChoices):
        REQUESTED = "requested", "Asked for"
        LATE_ENTRY = "late_entry", "Missed by a late entry"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_byes")
    round_number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    reason = models.CharField(max_length=12, choices=Reason.choices, default=Reason.REQUESTED)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tournament", "round_number", "player"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round_number", "player"], name="roundbye_unique_round_player"),
            models.CheckConstraint(condition=models.Q(round_number__gte=1), name="roundbye_round_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.get_kind_display().lower()} in round {self.round_number}"


class PairingProhibition(models.Model):
    """Players a Swiss keeps apart (one club, one family): never paired together up to ``until_round``
    (empty: always). The Dutch system's absolute criterion C1; set by a director."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prohibitions")
    players = models.ManyToManyField(Player, related_name="+")
    label = models.CharField(max_length=120, blank=True, help_text="Why: a club, a family.")
    until_round = models.PositiveSmallIntegerField(null=True, blank=True,
                                                   help_text="Kept apart up to this round; empty: always.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tournament", "id"]

    def __str__(self) -> str:
        return f"{self.label or 'kept apart'} in {self.tournament}"


class RatingHistory(models.Model):
    """A player's rating (Glicko-2: rating, deviation, volatility) before and after a rated tournament."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rating_history")
    rating_before = models.IntegerField(null=True, blank=True)
    rating_after = models.IntegerField()
    deviation_before = models.FloatField(null=True, blank=True, help_text="Glicko-2 RD before (empty: none kept).")
    deviation_after = models.FloatField(null=True, blank=True)
    volatility_after = models.FloatField(null=True, blank=True)
    games = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "tournament"], name="rating_history_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating_before} -> {self.rating_after}"
