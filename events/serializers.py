"""Serializers of the events API: requests bounded field by field, answers as plain dicts."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from accounts.privacy import names_hidden
from core.limits import MAX_ID, MAX_NAMES, USERNAME_MAX_LENGTH
from core.text import no_control_characters
from events.models import Event, Section, Series, TitleMatch
from games.models import RuleSet
from players.models import RATING_MAX
from tournaments.serializers import (
    MAX_GAMES_PER_MATCH,
    TournamentCreateSerializer,
    player_ref,
    standings_data,
)

MAX_TITLE_MATCH_GAMES = 60
MAX_PLACES = 200


def _text(max_length: int = 200, **options: Any) -> serializers.CharField:
    return serializers.CharField(max_length=max_length, validators=[no_control_characters], **options)


class EventCreateSerializer(serializers.Serializer):
    name = _text()
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True, default="")
    venue = _text(required=False, allow_blank=True, default="")
    organiser = _text(required=False, allow_blank=True, default="")
    start_date = serializers.DateField()
    end_date = serializers.DateField()


class SectionCreateSerializer(TournamentCreateSerializer):
    """A section: the tournament's settings (format, deck, round length, staff) and the entry rules."""

    rating_min = serializers.IntegerField(min_value=0, max_value=RATING_MAX, required=False, allow_null=True,
                                         default=None)
    rating_max = serializers.IntegerField(min_value=0, max_value=RATING_MAX, required=False, allow_null=True,
                                         default=None)
    unrated_allowed = serializers.BooleanField(required=False, default=True)
    age_min = serializers.IntegerField(min_value=0, max_value=120, required=False, allow_null=True, default=None)
    age_max = serializers.IntegerField(min_value=0, max_value=120, required=False, allow_null=True, default=None)
    titles = serializers.ListField(child=_text(40), max_length=MAX_NAMES, required=False, default=list)
    barred_by = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
                                      max_length=MAX_NAMES, required=False, default=list,
                                      help_text="Ids of the event's sections whose players may not enter this one.")

    RULES = ("rating_min", "rating_max", "unrated_allowed", "age_min", "age_max", "titles", "barred_by")

    def service_kwargs(self) -> dict[str, Any]:
        data = super().service_kwargs()
        for name in ("venue", "start_date", "end_date"):  # the event's
            data.pop(name, None)
        return data


class RegistrationCreateSerializer(serializers.Serializer):
    section = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    birth_date = serializers.DateField(required=False, allow_null=True, default=None)
    title = _text(40, required=False, allow_blank=True, default="")


class DirectorSerializer(serializers.Serializer):
    director = serializers.CharField(max_length=USERNAME_MAX_LENGTH, validators=[no_control_characters],
                                     help_text="The username of a user with the director role.")


class CheckInSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    present = serializers.BooleanField(default=True)


class SectionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    tournament = serializers.CharField(help_text="The section's tournament, by slug (/api/v1/tournaments/{slug}/).")
    rules = serializers.CharField(help_text="The entry rules in words.")
    rating_min = serializers.IntegerField(allow_null=True)
    rating_max = serializers.IntegerField(allow_null=True)
    unrated_allowed = serializers.BooleanField()
    age_min = serializers.IntegerField(allow_null=True)
    age_max = serializers.IntegerField(allow_null=True)
    titles = serializers.ListField(child=serializers.CharField())
    barred_by = serializers.ListField(child=serializers.IntegerField())
    standings = serializers.ListField(child=serializers.DictField())
    live_games = serializers.ListField(child=serializers.IntegerField())


class EventSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    venue = serializers.CharField()
    organiser = serializers.CharField()
    start_date = serializers.DateField()
    end_date = serializers.DateField()
    directors = serializers.ListField(child=serializers.CharField())
    sections = SectionSerializer(many=True, required=False, help_text="In an event's own answer only, not in the list.")
    title_matches = serializers.ListField(child=serializers.CharField())


class RegistrationSerializer(serializers.Serializer):
    player = serializers.DictField()
    section = serializers.CharField()
    title = serializers.CharField()
    birth_date = serializers.DateField(allow_null=True)


class DeskLineSerializer(serializers.Serializer):
    player = serializers.DictField()
    sections = serializers.ListField(child=serializers.CharField())
    checked_in = serializers.BooleanField()


def section_data(view: Any) -> dict[str, Any]:
    section: Section = view.section
    return {
        "id": section.pk, "name": section.name, "tournament": section.tournament.slug, "rules": view.rules,
        "rating_min": section.rating_min, "rating_max": section.rating_max,
        "unrated_allowed": section.unrated_allowed, "age_min": section.age_min, "age_max": section.age_max,
        "titles": list(section.titles or []), "barred_by": [s.pk for s in section.barred_by.all()],
        "standings": standings_data(view.standings), "live_games": [g.pk for g in view.live],
    }


def event_data(event: Event, views: list[Any] | None, *, names: bool) -> dict[str, Any]:
    """An event as the API answers it; ``names``: its directors by username (to a caller signed in), else as
    many role words (``accounts.privacy``: no username reaches the public)."""
    directors = [u.username for u in event.directors.all()]
    data = {
        "slug": event.slug, "name": event.name, "venue": event.venue, "organiser": event.organiser,
        "start_date": event.start_date.isoformat(), "end_date": event.end_date.isoformat(),
        "directors": directors if names else names_hidden(directors, "director"),
        "title_matches": [m.slug for m in event.title_matches.all()],
    }
    if views is not None:
        data["sections"] = [section_data(v) for v in views]
    return data


class TitleMatchCreateSerializer(serializers.Serializer):
    name = _text()
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True, default="")
    player_one = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    player_two = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    games = serializers.IntegerField(min_value=2, max_value=MAX_TITLE_MATCH_GAMES, help_text="Even: 2, 4, ... 60.")
    play_out = serializers.BooleanField(default=False, help_text="Play the games left once the match is decided.")
    opening = serializers.ChoiceField(choices=TitleMatch.Opening.choices, default=TitleMatch.Opening.THREE_MOVE_BALLOT)
    rule_set = serializers.ChoiceField(choices=RuleSet.choices, default=RuleSet.STANDARD)
    clock = serializers.JSONField(required=False, allow_null=True, default=None)
    venue = _text(required=False, allow_blank=True, default="")
    event = serializers.SlugField(max_length=80, required=False, allow_blank=True, default="",
                                  help_text="The event it is played at (its director creates it).")
    referees = serializers.ListField(child=serializers.CharField(max_length=USERNAME_MAX_LENGTH),
                                     max_length=MAX_NAMES, required=False, default=list)


class MatchGameSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    black = serializers.DictField()
    white = serializers.DictField()
    opening = serializers.DictField(allow_null=True)
    game = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(allow_null=True)
    result = serializers.CharField(allow_null=True)
    score = serializers.ListField(child=serializers.CharField(), help_text="The two players' points in the game.")
    running = serializers.CharField(help_text="The match score after it.")


class TitleMatchSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    event = serializers.CharField(allow_null=True)
    player_one = serializers.DictField()
    player_two = serializers.DictField()
    games = serializers.IntegerField()
    play_out = serializers.BooleanField()
    opening = serializers.CharField()
    status = serializers.CharField()
    lots_seed = serializers.CharField()
    first_black = serializers.DictField()
    ballot_seed = serializers.CharField()
    score = serializers.ListField(child=serializers.CharField())
    decided_after = serializers.IntegerField(allow_null=True)
    winner = serializers.DictField(allow_null=True)
    score_line = MatchGameSerializer(many=True)


def title_match_data(match: TitleMatch, line: Any, rows: list[Any]) -> dict[str, Any]:
    from events.matchplay import half_points_text

    players = {1: match.player_one, 2: match.player_two}
    return {
        "slug": match.slug, "name": match.name, "event": match.event.slug if match.event_id else None,
        "player_one": player_ref(match.player_one), "player_two": player_ref(match.player_two),
        "games": match.games, "play_out": match.play_out, "opening": match.opening, "status": match.status,
        "lots_seed": match.lots_seed, "first_black": player_ref(match.first_black), "ballot_seed": match.ballot_seed,
        "score": [half_points_text(line.score[0]), half_points_text(line.score[1])],
        "decided_after": line.decided_after, "winner": player_ref(players.get(line.winner)),
        "score_line": [{
            "number": r.number, "black": player_ref(r.black), "white": player_ref(r.white),
            "opening": ({"number": r.ballot["number"], "moves": r.ballot["moves"], "fen": r.ballot["fen"]}
                        if r.ballot else None),
            "game": r.game.pk if r.game else None, "status": r.game.status if r.game else None,
            "result": (r.game.result or None) if r.game else None, "score": [r.first_score, r.second_score],
            "running": r.running} for r in rows],
    }


class SeriesCreateSerializer(serializers.Serializer):
    name = _text()
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True, default="")
    method = serializers.ChoiceField(choices=Series.Method.choices, default=Series.Method.PLACES)
    place_points = serializers.ListField(child=serializers.FloatField(min_value=0, max_value=10_000),
                                         max_length=MAX_PLACES, required=False, default=list)
    best_of = serializers.IntegerField(min_value=1, max_value=MAX_GAMES_PER_MATCH * 10, required=False,
                                       allow_null=True, default=None)
    stages = serializers.ListField(child=serializers.SlugField(max_length=80), max_length=MAX_NAMES,
                                   required=False, default=list, help_text="The stages' tournaments, by slug, in order.")


class SeriesStageCreateSerializer(serializers.Serializer):
    tournament = serializers.SlugField(max_length=80)


class SeriesRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.DictField()
    total = serializers.FloatField()
    by_stage = serializers.ListField(child=serializers.FloatField(allow_null=True))
    counted = serializers.ListField(child=serializers.BooleanField())


class SeriesSummarySerializer(serializers.Serializer):
    """A series in the list: what it is and its stages; its standings are in ``GET /series/{slug}/``."""

    slug = serializers.CharField()
    name = serializers.CharField()
    method = serializers.CharField()
    place_points = serializers.ListField(child=serializers.FloatField())
    best_of = serializers.IntegerField(allow_null=True)
    stages = serializers.ListField(child=serializers.DictField())


class SeriesSerializer(SeriesSummarySerializer):
    standings = SeriesRowSerializer(many=True)


def series_summary_data(series: Series, stages: list[Any]) -> dict[str, Any]:
    """A series without its standings (the list's item): ``stages``, its tournaments in order."""
    return {
        "slug": series.slug, "name": series.name, "method": series.method,
        "place_points": list(series.place_points or []), "best_of": series.best_of,
        "stages": [{"number": i, "tournament": t.slug, "name": t.name} for i, t in enumerate(stages, start=1)],
    }


def series_data(series: Series, stages: list[Any], table: list[Any]) -> dict[str, Any]:
    return {
        **series_summary_data(series, stages),
        "standings": [{"rank": row.rank, "player": player_ref(player), "total": row.total,
                       "by_stage": list(row.by_stage), "counted": list(row.counted)} for row, player in table],
    }
