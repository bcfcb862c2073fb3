"""The league API's request and answer shapes; every request field is bounded (``core.limits``)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from accounts.privacy import fields_hidden
from core.limits import MAX_ID, NOTE_MAX_LENGTH, USERNAME_MAX_LENGTH
from leagues.models import Cup, Fixture, League, LeagueLog, Postponement, SheetLine, Team

MAX_BOARDS = 20

#: Who defaults a whole match (its schema enum: ``DefaultSideEnum``; the teams' sides are ``TeamSideEnum``).
DEFAULT_SIDES = [("home", "Home"), ("away", "Away"), ("both", "Both")]


def _names_hidden(serializer: serializers.Serializer, data: dict[str, Any], *names: str) -> dict[str, Any]:
    """The usernames under ``names`` hidden from the public (``accounts.privacy.fields_hidden``)."""
    return fields_hidden(serializer.context.get("request"), data, *names)


class LeagueSerializer(serializers.ModelSerializer):
    secretary = serializers.CharField(source="secretary.username", read_only=True)
    games_per_board = serializers.IntegerField(read_only=True)
    divisions = serializers.SerializerMethodField()
    seasons = serializers.SerializerMethodField()

    class Meta:
        model = League
        fields = ["id", "name", "slug", "secretary", "board_count", "opening", "games_per_board", "rule_set",
                  "match_points_win", "match_points_draw", "match_points_loss", "board_order_by_rating",
                  "higher_team_limit", "clubs_enter_teams", "promotion_places", "relegation_places", "divisions",
                  "seasons", "log_seq", "log_head"]
        read_only_fields = fields

    def get_divisions(self, league: League) -> list[dict[str, Any]]:
        return [{"id": d.pk, "name": d.name, "rank": d.rank} for d in league.divisions.all()]

    def get_seasons(self, league: League) -> list[dict[str, Any]]:
        return [{"id": s.pk, "name": s.name, "status": s.status} for s in league.seasons.all()]

    def to_representation(self, instance: League) -> dict[str, Any]:
        return _names_hidden(self, super().to_representation(instance), "secretary")


class LeagueCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    slug = serializers.SlugField(max_length=80)
    board_count = serializers.IntegerField(min_value=1, max_value=MAX_BOARDS, default=4)
    opening = serializers.ChoiceField(choices=League.Opening.choices, default=League.Opening.GO_AS_YOU_PLEASE)
    match_points_win = serializers.IntegerField(min_value=0, max_value=10, default=2)
    match_points_draw = serializers.IntegerField(min_value=0, max_value=10, default=1)
    match_points_loss = serializers.IntegerField(min_value=0, max_value=10, default=0)
    board_order_by_rating = serializers.BooleanField(default=False)
    higher_team_limit = serializers.IntegerField(min_value=0, max_value=100, default=3)
    clubs_enter_teams = serializers.BooleanField(default=False,
                                                 help_text="A club's secretary may enter his club's teams.")
    promotion_places = serializers.IntegerField(min_value=0, max_value=50, default=1)
    relegation_places = serializers.IntegerField(min_value=0, max_value=50, default=1)


class DivisionCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    rank = serializers.IntegerField(min_value=1, max_value=50)


class SeasonCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=60)


class TeamCreateSerializer(serializers.Serializer):
    season = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    division = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    club = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False,
                                    help_text="The club record's id (or give club_name).")
    club_name = serializers.CharField(max_length=120, required=False,
                                      help_text="The club's name, matched case and spacing ignored (a club record "
                                                "is made for a new name by the league's secretary).")
    name = serializers.CharField(max_length=140)
    number = serializers.IntegerField(min_value=1, max_value=20, default=1)
    captain = serializers.CharField(max_length=USERNAME_MAX_LENGTH, required=False, allow_blank=True,
                                    help_text="The captain's username.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("club" in attrs) == bool(attrs.get("club_name", "").strip()):
            raise serializers.ValidationError({"club": ["Give the club (its id) or its name, one of them."]})
        return attrs


class TeamSerializer(serializers.ModelSerializer):
    captain = serializers.CharField(source="captain.username", read_only=True, default=None, allow_null=True)
    roster = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = ["id", "name", "club", "club_name", "number", "season", "division", "captain", "roster"]
        read_only_fields = fields

    def to_representation(self, instance: Team) -> dict[str, Any]:
        return _names_hidden(self, super().to_representation(instance), "captain")

    def get_roster(self, team: Team) -> list[dict[str, Any]]:
        return [{"board": r.board, "player": r.player_id, "name": r.player.name, "rating": r.player.rating}
                for r in team.roster.select_related("player").order_by("board")]


class RosterSerializer(serializers.Serializer):
    players = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=MAX_ID), max_length=100,
                                    help_text="Player ids in the nominated board order (1 first).")


class FixturesMakeSerializer(serializers.Serializer):
    season = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    division = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    start = serializers.DateField(required=False, allow_null=True, default=None)
    weekday = serializers.IntegerField(min_value=0, max_value=6, required=False, allow_null=True, default=None,
                                       help_text="0 Monday .. 6 Sunday: one fixture a week on this day from start.")


class FixtureSerializer(serializers.Serializer):
    """A fixture in a list: plain values (``selectors.division_fixture_rows``)."""

    id = serializers.IntegerField()
    season = serializers.IntegerField()
    division = serializers.IntegerField()
    round = serializers.IntegerField()
    home_id = serializers.IntegerField()
    home = serializers.CharField()
    away_id = serializers.IntegerField(allow_null=True)
    away = serializers.CharField(allow_null=True)
    date = serializers.DateField(allow_null=True)
    status = serializers.ChoiceField(choices=Fixture.Status.choices)
    home_points = serializers.DecimalField(max_digits=5, decimal_places=1, allow_null=True)
    away_points = serializers.DecimalField(max_digits=5, decimal_places=1, allow_null=True)
    home_match_points = serializers.IntegerField(allow_null=True)
    away_match_points = serializers.IntegerField(allow_null=True)
    defaulted_by = serializers.CharField()


FIXTURE_FIELDS = ["id", "season", "division", "round", "home_id", "home", "away_id", "away", "date", "status",
                  "home_points", "away_points", "home_match_points", "away_match_points", "defaulted_by"]


class FixtureDetailSerializer(serializers.ModelSerializer):
    home = serializers.CharField(source="home.name", read_only=True)
    away = serializers.CharField(source="away.name", read_only=True, default=None)
    sheets = serializers.SerializerMethodField()
    games = serializers.SerializerMethodField()

    class Meta:
        model = Fixture
        fields = [*FIXTURE_FIELDS, "cup", "cup_through", "card", "dispute", "sheets", "games"]
        read_only_fields = fields

    def get_sheets(self, fixture: Fixture) -> dict[str, Any]:
        from leagues.selectors import fixture_sheets

        return fixture_sheets(fixture, self.context.get("user"))

    def get_games(self, fixture: Fixture) -> list[dict[str, Any]]:
        return [{"board": bg.board, "number": bg.number, "home_colour": bg.home_colour, "game": bg.game_id,
                 "status": bg.game.status, "result": bg.game.result}
                for bg in fixture.board_games.select_related("game").order_by("board", "number")]


class DateSerializer(serializers.Serializer):
    date = serializers.DateField()


class SheetSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=SheetLine.Side.choices, required=False)
    players = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=MAX_ID, allow_null=True),
                                    max_length=MAX_BOARDS, help_text="A player id a board (null: board defaulted).")


def _boards_field(**kwargs: Any) -> serializers.ListField:
    game = serializers.DecimalField(max_digits=2, decimal_places=1, min_value=0, max_value=1)
    return serializers.ListField(child=serializers.ListField(child=game, max_length=2), max_length=MAX_BOARDS,
                                 **kwargs)


class CardSerializer(serializers.Serializer):
    boards = _boards_field(help_text="Per board, the home team's points in each game (1, 0.5 or 0).")


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=NOTE_MAX_LENGTH)


class DecisionSerializer(ReasonSerializer):
    boards = _boards_field(required=False, allow_null=True, default=None,
                           help_text="The card as decided; none: the card as entered stands.")


class DefaultSerializer(ReasonSerializer):
    side = serializers.ChoiceField(choices=DEFAULT_SIDES)


class PostponementRequestSerializer(serializers.Serializer):
    deadline = serializers.DateTimeField()
    reason = serializers.CharField(max_length=NOTE_MAX_LENGTH, required=False, allow_blank=True, default="")


class PostponementApproveSerializer(serializers.Serializer):
    approve = serializers.BooleanField(default=True)
    reason = serializers.CharField(max_length=NOTE_MAX_LENGTH, required=False, allow_blank=True, default="")


class PostponementSerializer(serializers.ModelSerializer):
    class Meta:
        model = Postponement
        fields = ["id", "fixture", "requested_by", "reason", "deadline", "status", "created_at"]
        read_only_fields = fields


class TableRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    team = serializers.IntegerField()
    name = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    points_for = serializers.DecimalField(max_digits=6, decimal_places=1)
    points_against = serializers.DecimalField(max_digits=6, decimal_places=1)
    match_points = serializers.IntegerField()
    honour_points = serializers.DecimalField(max_digits=8, decimal_places=1)
    mark = serializers.CharField()


class LeagueLogSerializer(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor.username", read_only=True, default=None)

    class Meta:
        model = LeagueLog
        fields = ["seq", "kind", "actor", "reason", "data", "created_at", "prev_hash", "hash", "key_id"]
        read_only_fields = fields

    def to_representation(self, instance: LeagueLog) -> dict[str, Any]:
        return _names_hidden(self, super().to_representation(instance), "actor")


class CupCreateSerializer(serializers.Serializer):
    season = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    name = serializers.CharField(max_length=120)
    teams = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=MAX_ID), min_length=2,
                                  max_length=128)
    tie_rule = serializers.ChoiceField(choices=Cup.TieRule.choices, default=Cup.TieRule.BOARD_ELIMINATION)


class CupSerializer(serializers.ModelSerializer):
    fixtures = serializers.SerializerMethodField()

    class Meta:
        model = Cup
        fields = ["id", "name", "season", "tie_rule", "draw_seed", "winner", "fixtures"]
        read_only_fields = fields

    def get_fixtures(self, cup: Cup) -> list[dict[str, Any]]:
        return [{"id": f.pk, "round": f.round, "home_id": f.home_id, "away_id": f.away_id, "status": f.status,
                 "home_points": f.home_points, "away_points": f.away_points, "through": f.cup_through}
                for f in cup.fixtures.order_by("round", "id")]


class DeciderSerializer(ReasonSerializer):
    side = serializers.ChoiceField(choices=SheetLine.Side.choices)
