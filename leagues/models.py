"""Leagues, divisions, seasons, teams and rosters, fixtures (team matches), result cards, the league log."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from arbitration.models import AppendOnlyError
from players.models import Player


class League(models.Model):
    """A league: its secretary, its rules for team matches, eligibility and the table, and its chained log."""

    class Opening(models.TextChoices):
        GO_AS_YOU_PLEASE = "go-as-you-please", "Go as you please (one game a board)"
        THREE_MOVE_BALLOT = "three-move-ballot", "3-move ballot (two games a board, colours reversed)"

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    secretary = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="leagues")
    board_count = models.PositiveSmallIntegerField(default=4)
    opening = models.CharField(max_length=24, choices=Opening.choices, default=Opening.GO_AS_YOU_PLEASE)
    rule_set = models.CharField(max_length=16, default="standard")
    match_points_win = models.PositiveSmallIntegerField(default=2)
    match_points_draw = models.PositiveSmallIntegerField(default=1)
    match_points_loss = models.PositiveSmallIntegerField(default=0)
    board_order_by_rating = models.BooleanField(
        default=False, help_text="Sheets list players by rating (else in the roster's nominated order).")
    higher_team_limit = models.PositiveSmallIntegerField(
        default=3, help_text="A player who played this many matches for a higher team of his club may not drop.")
    clubs_enter_teams = models.BooleanField(
        default=False, help_text="A club's secretary may enter a team of his club in a division (else only the "
                                 "league's secretary enters teams).")
    promotion_places = models.PositiveSmallIntegerField(default=1)
    relegation_places = models.PositiveSmallIntegerField(default=1)
    log_seq = models.PositiveIntegerField(default=0, editable=False)
    log_head = models.CharField(max_length=64, default="0" * 64, editable=False)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=models.Q(board_count__gte=1, board_count__lte=20),
                                   name="league_board_count_range"),
            models.CheckConstraint(
                condition=models.Q(match_points_win__gte=models.F("match_points_draw"))
                & models.Q(match_points_draw__gte=models.F("match_points_loss")),
                name="league_match_points_ordered"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def games_per_board(self) -> int:
        return 2 if self.opening == self.Opening.THREE_MOVE_BALLOT else 1

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Saves the row; the chain head only through ``leagues.log.log_append`` (named in ``update_fields``)."""
        if kwargs.get("update_fields") is None and not self._state.adding and self.pk is not None:
            kwargs["update_fields"] = [f.name for f in self._meta.concrete_fields
                                       if not f.primary_key and f.name not in ("log_seq", "log_head")]
        super().save(*args, **kwargs)


class Division(models.Model):
    """A division of a league; rank 1 is the top (promotion goes towards it)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=120)
    rank = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["league", "rank"]
        constraints = [models.UniqueConstraint(fields=["league", "rank"], name="division_unique_rank")]

    def __str__(self) -> str:
        return f"{self.league} {self.name}"


class Season(models.Model):
    """A season of a league; past seasons are kept with their fixtures and tables."""

    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=60)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION)

    class Meta:
        ordering = ["league", "-id"]
        constraints = [models.UniqueConstraint(fields=["league", "name"], name="season_unique_name")]

    def __str__(self) -> str:
        return f"{self.league} {self.name}"


class Team(models.Model):
    """A club's team in a season's division, with its captain. ``number`` orders a club's teams (1 highest)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="teams")
    division = models.ForeignKey(Division, on_delete=models.PROTECT, related_name="teams")
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.PROTECT, related_name="teams",
                             help_text="The club: its secretary keeps the team's roster.")
    club_name = models.CharField(max_length=120, help_text="The club's name as entered (the club record is the truth).")
    name = models.CharField(max_length=140)
    number = models.PositiveSmallIntegerField(default=1, help_text="The club's team number: 1 is its first team.")
    captain = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="captained_teams")

    class Meta:
        ordering = ["season", "division", "name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="team_unique_name"),
            models.UniqueConstraint(fields=["season", "club_name", "number"], name="team_unique_club_number"),
        ]

    def __str__(self) -> str:
        return self.name


class RosterEntry(models.Model):
    """A registered player of a team, at his nominated board (1 the top)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="roster")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    board = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["team", "board"]
        constraints = [
            models.UniqueConstraint(fields=["team", "player"], name="roster_unique_player"),
            models.UniqueConstraint(fields=["team", "board"], name="roster_unique_board"),
        ]


class Cup(models.Model):
    """A team knockout cup of a league's season: rounds of team matches drawn by lots (the seed on the log)."""

    class TieRule(models.TextChoices):
        BOARD_ELIMINATION = "board_elimination", "Board elimination (the bottom board struck off until one leads)"
        DECIDER = "decider", "A decider game"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="cups")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="cups")
    name = models.CharField(max_length=120)
    tie_rule = models.CharField(max_length=20, choices=TieRule.choices, default=TieRule.BOARD_ELIMINATION)
    draw_seed = models.CharField(max_length=32, blank=True)
    winner = models.ForeignKey("Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["league", "id"]
        constraints = [models.UniqueConstraint(fields=["season", "name"], name="cup_unique_name")]

    def __str__(self) -> str:
        return self.name


class Fixture(models.Model):
    """A team match of a season's division, or of a cup: home team against away team (none: the home team's
    bye)."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        POSTPONED = "postponed", "Postponed"
        STARTED = "started", "Started (boards in play)"
        CARD_ENTERED = "card_entered", "Card entered, awaiting confirmation"
        DISPUTED = "disputed", "Card disputed"
        RESULT = "result", "Result"
        DEFAULTED = "defaulted", "Defaulted"
        BYE = "bye", "Bye"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="fixtures")
    division = models.ForeignKey(Division, null=True, blank=True, on_delete=models.PROTECT, related_name="fixtures")
    cup = models.ForeignKey(Cup, null=True, blank=True, on_delete=models.CASCADE, related_name="fixtures")
    round = models.PositiveSmallIntegerField()
    home = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="home_fixtures")
    away = models.ForeignKey(Team, null=True, blank=True, on_delete=models.PROTECT, related_name="away_fixtures")
    date = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED)
    home_points = models.DecimalField(max_digits=5, decimal_places=1, null=True, blank=True)
    away_points = models.DecimalField(max_digits=5, decimal_places=1, null=True, blank=True)
    home_match_points = models.PositiveSmallIntegerField(null=True, blank=True)
    away_match_points = models.PositiveSmallIntegerField(null=True, blank=True)
    defaulted_by = models.CharField(max_length=8, blank=True, help_text="home, away or both: who did not come.")
    card = models.JSONField(default=list, blank=True,
                            help_text="The result card: per board its games' results and points.")
    card_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")
    dispute = models.TextField(blank=True)
    cup_through = models.CharField(max_length=4, blank=True, help_text="A cup match: home or away, the side through.")

    class Meta:
        ordering = ["season", "division", "round", "id"]
        constraints = [
            models.UniqueConstraint(fields=["season", "division", "round", "home"], name="fixture_unique_home"),
            models.CheckConstraint(condition=~models.Q(home=models.F("away")), name="fixture_distinct_teams"),
            models.CheckConstraint(condition=models.Q(division__isnull=True) ^ models.Q(cup__isnull=True),
                                   name="fixture_division_xor_cup"),
        ]
        indexes = [models.Index(fields=["season", "division", "status"], name="fixture_division_status")]

    def __str__(self) -> str:
        return f"{self.home} v {self.away or 'bye'}"


class SheetLine(models.Model):
    """A line of a team sheet: who plays ``board`` for one side (no player: the board is defaulted)."""

    class Side(models.TextChoices):
        HOME = "home", "Home"
        AWAY = "away", "Away"

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="sheet_lines")
    side = models.CharField(max_length=4, choices=Side.choices)
    board = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["fixture", "side", "board"]
        constraints = [models.UniqueConstraint(fields=["fixture", "side", "board"], name="sheet_unique_board")]


class BoardGame(models.Model):
    """A game of a board of a team match: an ordinary game of the system (``games.Game``)."""

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="board_games")
    board = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField(default=1)
    home_colour = models.CharField(max_length=5)
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="league_board")
    counted_result = models.CharField(
        max_length=8, blank=True, default="",
        help_text="The game's result the match's card was last written from (the card follows a corrected game: "
                  "leagues.services.fixture_games_finished).")

    class Meta:
        ordering = ["fixture", "board", "number"]
        constraints = [models.UniqueConstraint(fields=["fixture", "board", "number"], name="boardgame_unique")]


class Postponement(models.Model):
    """A postponement asked by one captain, agreed by the other, approved by the secretary, with a deadline."""

    class Status(models.TextChoices):
        REQUESTED = "requested", "Requested"
        AGREED = "agreed", "Agreed by the other captain"
        APPROVED = "approved", "Approved by the secretary"
        REFUSED = "refused", "Refused"
        PLAYED = "played", "Played"
        DEFAULTED = "defaulted", "Defaulted at the deadline"

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="postponements")
    requested_by = models.CharField(max_length=4, choices=SheetLine.Side.choices)
    reason = models.TextField(blank=True)
    deadline = models.DateTimeField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REQUESTED)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["fixture", "id"]


class LeagueLogQuerySet(models.QuerySet):
    def update(self, **kwargs):  # noqa: ANN003
        raise AppendOnlyError("the league log is append-only: add a correcting row instead")

    def delete(self):
        raise AppendOnlyError("the league log is append-only: add a correcting row instead")


class LeagueLog(models.Model):
    """The league's append-only record, chained like a tournament's (``leagues.log``, ``core.chain``)."""

    class Kind(models.TextChoices):
        CREATED = "created", "League created"
        DIVISION_ADDED = "division_added", "Division added"
        SEASON_CREATED = "season_created", "Season created"
        TEAM_ADDED = "team_added", "Team added"
        ROSTER_CHANGED = "roster_changed", "Roster changed"
        FIXTURES_MADE = "fixtures_made", "Fixtures made"
        FIXTURE_DATED = "fixture_dated", "Fixture date set"
        SHEET_SUBMITTED = "sheet_submitted", "Team sheet submitted"
        MATCH_STARTED = "match_started", "Match started: boards became games"
        CARD_ENTERED = "card_entered", "Result card entered"
        CARD_CONFIRMED = "card_confirmed", "Result card confirmed"
        CARD_CORRECTED = "card_corrected", "Result card follows a board game's corrected result"
        CARD_DISPUTED = "card_disputed", "Result card disputed"
        DISPUTE_DECIDED = "dispute_decided", "Dispute decided by the secretary"
        MATCH_DEFAULTED = "match_defaulted", "Match defaulted"
        POSTPONEMENT = "postponement", "Postponement"
        CUP_DRAWN = "cup_drawn", "Cup drawn (lots)"
        CUP_ROUND = "cup_round", "Cup round made"
        CUP_THROUGH = "cup_through", "Cup match decided: a side goes through"

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="log")
    kind = models.CharField(max_length=24, choices=Kind.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                              related_name="+")
    reason = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    seq = models.PositiveIntegerField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    key_id = models.CharField(max_length=8)

    objects = LeagueLogQuerySet.as_manager()

    class Meta:
        ordering = ["league", "seq"]
        constraints = [models.UniqueConstraint(fields=["league", "seq"], name="leaguelog_unique_seq")]

    def save(self, *args, **kwargs):  # noqa: ANN002, ANN003
        """Inserts the row; refuses to update one that exists (the log is append-only)."""
        if self.pk is not None or not self._state.adding:
            raise AppendOnlyError("the league log is append-only: add a correcting row instead")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):  # noqa: ANN002, ANN003
        raise AppendOnlyError("the league log is append-only: add a correcting row instead")
