"""Events with sections, the event's registrations, title matches and series.

An event (a national championship) holds sections; each section is a tournament of its own
(format, deck, round length, staff) with the section's entry rules. The event's directors
direct its sections (they are made directors of each section's tournament). A title match is
a match of N games between two players, its games ordinary games of the system. A series
gathers stages (sections of events) into one table.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Mod

from games.models import Game
from players.models import Player
from tournaments.models import Tournament


class Event(models.Model):
    """An event: its name, venue, dates, organiser and directors; it holds sections."""

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    venue = models.CharField(max_length=200, blank=True)
    start_date = models.DateField()
    end_date = models.DateField()
    organiser = models.CharField(max_length=200, blank=True)
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="directed_events")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(condition=models.Q(end_date__gte=models.F("start_date")),
                                   name="event_ends_after_start"),
        ]

    def __str__(self) -> str:
        return self.name


class Section(models.Model):
    """A section of an event: a tournament, and the rules a player meets to enter it."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="sections")
    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="section")
    name = models.CharField(max_length=120)
    order = models.PositiveSmallIntegerField(default=1)
    rating_min = models.PositiveIntegerField(null=True, blank=True)
    rating_max = models.PositiveIntegerField(null=True, blank=True)
    unrated_allowed = models.BooleanField(default=True, help_text="A player without a rating may enter a banded section.")
    age_min = models.PositiveSmallIntegerField(null=True, blank=True, help_text="On the event's first day.")
    age_max = models.PositiveSmallIntegerField(null=True, blank=True, help_text="On the event's first day.")
    titles = models.JSONField(default=list, blank=True, help_text="The titles that may enter; empty: any.")
    barred_by = models.ManyToManyField(
        "self", symmetrical=False, blank=True, related_name="bars",
        help_text="A player entered in one of these sections may not enter this one (masters may not enter).",
    )

    class Meta:
        ordering = ["event", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="section_unique_name"),
            models.CheckConstraint(
                condition=models.Q(rating_min__isnull=True) | models.Q(rating_max__isnull=True)
                | models.Q(rating_max__gte=models.F("rating_min")), name="section_band_ordered"),
            models.CheckConstraint(
                condition=models.Q(age_min__isnull=True) | models.Q(age_max__isnull=True)
                | models.Q(age_max__gte=models.F("age_min")), name="section_ages_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.name}"


class Registration(models.Model):
    """A player's registration at the event's one desk: the section he entered, what he declared."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="event_registrations")
    birth_date = models.DateField(null=True, blank=True)
    title = models.CharField(max_length=40, blank=True)
    registered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT,
                                      related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "section", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["section", "player"], name="registration_unique_section_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.section}"


class TitleMatch(models.Model):
    """A title match: N games (N even) between two players, its openings drawn in advance.

    Lots for colour are cast once (``lots_seed``, ``first_black``: Black in game 1); with the
    3-move ballot ``ballots`` holds the N/2 openings drawn at creation (number, moves, fen, seed,
    index), each played twice with colours reversed. ``play_out``: the games left once the match
    is decided are played all the same (True) or not.
    """

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    class Opening(models.TextChoices):
        GO_AS_YOU_PLEASE = "go-as-you-please", "Go as you please"
        THREE_MOVE_BALLOT = "three-move-ballot", "3-move ballot"

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="title_matches")
    player_one = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_two = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    games = models.PositiveSmallIntegerField()
    play_out = models.BooleanField(default=False, help_text="Play the games left once the match is decided.")
    opening = models.CharField(max_length=24, choices=Opening.choices, default=Opening.THREE_MOVE_BALLOT)
    rule_set = models.CharField(max_length=16, default="standard")
    clock_control = models.JSONField(default=dict, blank=True)
    venue = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED)
    lots_seed = models.CharField(max_length=64)
    first_black = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    ballot_seed = models.CharField(max_length=64, blank=True)
    ballots = models.JSONField(default=list, blank=True)
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="directed_title_matches")
    referees = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="refereed_title_matches")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(player_one=models.F("player_two")),
                                   name="title_match_distinct_players"),
            models.CheckConstraint(condition=models.Q(games__gte=2) & models.lookups.Exact(Mod("games", 2), 0),
                                   name="title_match_games_even"),
        ]

    def __str__(self) -> str:
        return self.name


class TitleMatchGame(models.Model):
    """A game of a title match: its number in the match and the opening it was played from."""

    match = models.ForeignKey(TitleMatch, on_delete=models.CASCADE, related_name="match_games")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="title_match_game")
    number = models.PositiveSmallIntegerField()
    ballot_number = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="title_match_game_unique_number"),
        ]


class EventLog(models.Model):
    """What was done to an event, a title match or a series, by whom: rows are appended, never edited."""

    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.CASCADE, related_name="log")
    title_match = models.ForeignKey(TitleMatch, null=True, blank=True, on_delete=models.CASCADE, related_name="log")
    series = models.ForeignKey("Series", null=True, blank=True, on_delete=models.CASCADE, related_name="log")
    kind = models.CharField(max_length=32)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                              related_name="+")
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]


class Series(models.Model):
    """A series: standings across stages (sections of events), by places or by results, best K of N."""

    class Method(models.TextChoices):
        PLACES = "places", "Points per place"
        RESULTS = "results", "Sum of results"

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    method = models.CharField(max_length=8, choices=Method.choices, default=Method.PLACES)
    place_points = models.JSONField(default=list, blank=True, help_text="Points for 1st, 2nd, ... place.")
    best_of = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Count a player's best K stages.")
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="directed_series")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return self.name


class SeriesStage(models.Model):
    """A stage of a series: one tournament (a section of an event), in order."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField()
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="series_stages")

    class Meta:
        ordering = ["series", "number"]
        constraints = [
            models.UniqueConstraint(fields=["series", "number"], name="series_stage_unique_number"),
            models.UniqueConstraint(fields=["series", "tournament"], name="series_stage_unique_tournament"),
        ]
