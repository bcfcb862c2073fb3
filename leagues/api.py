"""The league API: thin edges that parse, call one service or selector, and render."""

from __future__ import annotations

import io
from typing import Any

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

import core.converters  # noqa: F401 (registers <id:...>)
from arbitration.api import ReadOrSignedIn
from arbitration.serializers import ErrorBodySerializer
from clubs.models import Club
from core.csvsafe import csv_writer
from core.limits import MAX_ID
from leagues import selectors, services
from leagues.errors import InvalidInput
from leagues.log import league_log_verify
from leagues.models import Division, Fixture, League, Postponement, Season, Team
from leagues.serializers import (
    CardSerializer,
    CupCreateSerializer,
    CupSerializer,
    DateSerializer,
    DeciderSerializer,
    DecisionSerializer,
    DefaultSerializer,
    DivisionCreateSerializer,
    FixtureDetailSerializer,
    FixtureSerializer,
    FixturesMakeSerializer,
    LeagueCreateSerializer,
    LeagueLogSerializer,
    LeagueSerializer,
    PostponementApproveSerializer,
    PostponementRequestSerializer,
    PostponementSerializer,
    ReasonSerializer,
    RosterSerializer,
    SeasonCreateSerializer,
    SheetSerializer,
    TableRowSerializer,
    TeamCreateSerializer,
    TeamSerializer,
)

_ERRORS = {
    400: OpenApiResponse(ErrorBodySerializer, description="validation_error"),
    401: OpenApiResponse(ErrorBodySerializer, description="not_authenticated"),
    403: OpenApiResponse(ErrorBodySerializer, description="permission_denied"),
    404: OpenApiResponse(ErrorBodySerializer, description="not_found"),
    409: OpenApiResponse(ErrorBodySerializer, description="fixture_conflict, record_broken"),
    422: OpenApiResponse(ErrorBodySerializer, description="league_rule: a rule of the league, named"),
}


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: _ERRORS[code] for code in codes}


_SCOPE = [OpenApiParameter("season", int, description="A season id (default: the latest)"),
          OpenApiParameter("division", int, description="A division id (default: the top one)")]


def _id_param(request: Request, name: str) -> int | None:
    value = request.query_params.get(name)
    if value in (None, ""):
        return None
    if not value.isdigit() or not 1 <= int(value) <= MAX_ID:
        raise InvalidInput.field(name, "An id: 1 to 18 digits.")
    return int(value)


def scope(league: League, request: Request) -> tuple[Season, Division]:
    """Returns the season and division a read names (``?season=&division=``), or the latest and the top one."""
    season_id, division_id = _id_param(request, "season"), _id_param(request, "division")
    seasons = Season.objects.filter(league=league).select_related("league")
    season = get_object_or_404(seasons, pk=season_id) if season_id else seasons.order_by("-id").first()
    divisions = Division.objects.filter(league=league)
    division = get_object_or_404(divisions, pk=division_id) if division_id else divisions.order_by("rank").first()
    if season is None or division is None:
        raise InvalidInput.field("season", "The league has no season or no division yet.")
    return season, division


def table_csv(season: Season, division: Division) -> str:
    """Returns the division's table as CSV (text cells that look like formulas neutralised)."""
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(["rank", "team", "played", "won", "drawn", "lost", "board_points_for", "board_points_against",
                     "match_points", "honour_points", "mark"])
    for row in selectors.division_table(season, division):
        writer.writerow([row.rank, row.name, row.played, row.won, row.drawn, row.lost, row.points_for,
                         row.points_against, row.match_points, row.honour_points, row.mark])
    return out.getvalue()


def table_data(rows: list[Any]) -> list[dict[str, Any]]:
    return [{"rank": r.rank, "team": r.team, "name": r.name, "played": r.played, "won": r.won, "drawn": r.drawn,
             "lost": r.lost, "points_for": r.points_for, "points_against": r.points_against,
             "match_points": r.match_points, "honour_points": r.honour_points, "mark": r.mark} for r in rows]


class LeagueViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Leagues: a director creates one and is its secretary; the secretary adds divisions, seasons, teams and
    makes the fixtures; anyone reads the table, the fixtures and the league's chained log."""

    queryset = League.objects.select_related("secretary").prefetch_related("divisions", "seasons").order_by("name")
    serializer_class = LeagueSerializer
    lookup_field = "slug"
    permission_classes = [ReadOrSignedIn]

    def get_queryset(self):  # noqa: ANN201
        """The league with its divisions and seasons where it is shown; the bare row for the actions."""
        if self.action in ("list", "retrieve", "divisions", "seasons", "create"):
            return super().get_queryset()
        return League.objects.all()

    @extend_schema(summary="Create a league (a director; he is its secretary)", request=LeagueCreateSerializer,
                   responses={201: LeagueSerializer, **_errors(400, 401, 403)})
    def create(self, request: Request) -> Response:
        serializer = LeagueCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        league = services.league_create(acting_user=request.user, **serializer.validated_data)
        return Response(LeagueSerializer(league, context={"request": request}).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="Add a division (the secretary)", request=DivisionCreateSerializer,
                   responses={201: LeagueSerializer, **_errors(400, 401, 403, 404)})
    @action(detail=True, methods=["post"])
    def divisions(self, request: Request, slug: str) -> Response:
        serializer = DivisionCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        league = self.get_object()
        services.division_add(acting_user=request.user, league=league, **serializer.validated_data)
        return Response(LeagueSerializer(self.get_object(), context={"request": request}).data,
                        status=status.HTTP_201_CREATED)

    @extend_schema(summary="Open a season (the secretary); past seasons are kept",
                   request=SeasonCreateSerializer, responses={201: LeagueSerializer, **_errors(400, 401, 403, 404)})
    @action(detail=True, methods=["post"])
    def seasons(self, request: Request, slug: str) -> Response:
        serializer = SeasonCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.season_create(acting_user=request.user, league=self.get_object(), **serializer.validated_data)
        return Response(LeagueSerializer(self.get_object(), context={"request": request}).data,
                        status=status.HTTP_201_CREATED)

    @extend_schema(summary="Enter a club's team in a season's division, with its captain (the secretary; or the "
                           "club's secretary, where the league lets clubs enter teams)",
                   request=TeamCreateSerializer, responses={201: TeamSerializer, **_errors(400, 401, 403, 404, 409)})
    @action(detail=True, methods=["post"])
    def teams(self, request: Request, slug: str) -> Response:
        serializer = TeamCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        league = self.get_object()
        season = get_object_or_404(Season.objects.filter(league=league), pk=data.pop("season"))
        division = get_object_or_404(Division.objects.filter(league=league), pk=data.pop("division"))
        username = data.pop("captain", "")
        if "club" in data:
            data["club"] = Club.objects.filter(pk=data["club"]).first()
            if data["club"] is None:
                raise InvalidInput.field("club", "There is no such club.")
        captain = None
        if username:
            captain = get_user_model().objects.filter(username=username).first()
            if captain is None:
                raise InvalidInput.field("captain", f"There is no user {username!r}.")
        team = services.team_add(acting_user=request.user, season=season, division=division, captain=captain,
                                 **data)
        return Response(TeamSerializer(team, context={"request": request}).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="The division's fixtures and results (?team= one team's); POST: make the season's "
                           "double round robin (the secretary)",
                   parameters=[*_SCOPE, OpenApiParameter("team", int)], request=FixturesMakeSerializer,
                   responses={200: FixtureSerializer(many=True), 201: FixtureSerializer(many=True),
                              **_errors(400, 401, 403, 404, 409)})
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def fixtures(self, request: Request, slug: str) -> Response:
        league = self.get_object()
        if request.method == "POST":
            serializer = FixturesMakeSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = dict(serializer.validated_data)
            season = get_object_or_404(Season.objects.filter(league=league), pk=data.pop("season"))
            division = get_object_or_404(Division.objects.filter(league=league), pk=data.pop("division"))
            services.fixtures_make(acting_user=request.user, season=season, division=division, **data)
            return Response(FixtureSerializer(selectors.division_fixture_rows(season, division), many=True).data,
                            status=status.HTTP_201_CREATED)
        season, division = scope(league, request)
        rows = selectors.division_fixture_rows(season, division, team_id=_id_param(request, "team"))
        return Response(FixtureSerializer(rows, many=True).data)

    @extend_schema(summary="The league's cups with their ties; POST: make a cup of a season's teams and draw its "
                           "first round by lots (the secretary; the seed on the log)",
                   request=CupCreateSerializer, responses={200: CupSerializer(many=True), 201: CupSerializer,
                                                           **_errors(400, 401, 403, 404)})
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def cups(self, request: Request, slug: str) -> Response:
        league = self.get_object()
        if request.method == "POST":
            serializer = CupCreateSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = dict(serializer.validated_data)
            season = get_object_or_404(Season.objects.filter(league=league), pk=data.pop("season"))
            cup = services.cup_create(acting_user=request.user, league=league, season=season, **data)
            return Response(CupSerializer(cup).data, status=status.HTTP_201_CREATED)
        return Response(CupSerializer(league.cups.order_by("id"), many=True).data)

    @extend_schema(summary="The division's table: played, won, drawn, lost, board points, match points; ties by "
                           "match points, board points, head to head, honour points; promotion and relegation "
                           "marked", parameters=_SCOPE,
                   responses={200: TableRowSerializer(many=True), **_errors(400, 404)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def table(self, request: Request, slug: str) -> Response:
        season, division = scope(self.get_object(), request)
        return Response(table_data(selectors.division_table(season, division)))

    @extend_schema(summary="The division's table as CSV", parameters=_SCOPE,
                   responses={(200, "text/csv"): OpenApiTypes.STR, **_errors(400, 404)})
    @action(detail=True, methods=["get"], url_path="table.csv", pagination_class=None)
    def table_csv(self, request: Request, slug: str) -> HttpResponse:
        league = self.get_object()
        season, division = scope(league, request)
        response = HttpResponse(table_csv(season, division), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{league.slug}-table.csv"'
        return response

    @extend_schema(summary="The league's chained log, oldest first, and whether it verifies",
                   responses={200: LeagueLogSerializer(many=True), **_errors(404)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def log(self, request: Request, slug: str) -> Response:
        league = self.get_object()
        valid, rows, problem = league_log_verify(league)
        response = Response(LeagueLogSerializer(league.log.select_related("actor").order_by("seq"), many=True,
                                                context={"request": request}).data)
        response["X-Log-Verified"] = "yes" if valid else f"no: {problem}"
        return response


class TeamViewSet(viewsets.ReadOnlyModelViewSet):
    """Teams: their captain and roster; the captain (or the secretary) sets the roster in board order."""

    queryset = Team.objects.select_related("captain", "season__league", "division").order_by("id")
    serializer_class = TeamSerializer
    lookup_value_converter = "id"
    permission_classes = [ReadOrSignedIn]

    @extend_schema(summary="Set the roster in the nominated board order (the captain or the secretary); refused, "
                           "naming the rule, when a player is not eligible",
                   request=RosterSerializer, responses={200: TeamSerializer, **_errors(400, 401, 403, 404, 422)})
    @action(detail=True, methods=["put"])
    def roster(self, request: Request, pk: str) -> Response:
        serializer = RosterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        team = self.get_object()
        services.roster_set(acting_user=request.user, team=team, **serializer.validated_data)
        return Response(TeamSerializer(team, context={"request": request}).data)


class FixtureViewSet(viewsets.ReadOnlyModelViewSet):  # the list is a captain's own fixtures
    """A team match: its sheets (each hidden from the other side until both are in), boards, card and result."""

    queryset = Fixture.objects.select_related("home", "away", "season__league", "division").order_by("id")
    serializer_class = FixtureDetailSerializer
    lookup_value_converter = "id"
    permission_classes = [ReadOrSignedIn]
    pagination_class = None  # the list is one captain's fixtures, whole

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "user": self.request.user}

    @extend_schema(summary="The fixtures of the teams you captain (your next match, your sheets and cards to do), "
                           "every season, in round order", responses={200: FixtureSerializer(many=True),
                                                                      **_errors(401)})
    def list(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        return Response(FixtureSerializer(selectors.division_fixture_rows(None, None, captain=request.user),
                                          many=True).data)

    def _answer(self, fixture: Fixture, code: int = status.HTTP_200_OK) -> Response:
        fixture = self.get_queryset().get(pk=fixture.pk)
        return Response(FixtureDetailSerializer(fixture, context={"user": self.request.user}).data, status=code)

    def _run(self, request: Request, serializer_class: Any, call: Any) -> Response:
        fixture = self.get_object()
        data: dict[str, Any] = {}
        if serializer_class is not None:
            serializer = serializer_class(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = dict(serializer.validated_data)
        call(fixture, **data)
        return self._answer(fixture)

    @extend_schema(summary="Set the match's date (the secretary)", request=DateSerializer,
                   responses={200: FixtureDetailSerializer, **_errors(400, 401, 403, 404)})
    @action(detail=True, methods=["post"])
    def date(self, request: Request, pk: str) -> Response:
        return self._run(request, DateSerializer, lambda f, date: services.fixture_date_set(
            acting_user=request.user, fixture=f, on=date))

    @extend_schema(summary="Submit your team's sheet (its captain): a player a board, null for a defaulted bottom "
                           "board", request=SheetSerializer,
                   responses={200: FixtureDetailSerializer, **_errors(400, 401, 403, 404, 409, 422)})
    @action(detail=True, methods=["post"])
    def sheet(self, request: Request, pk: str) -> Response:
        return self._run(request, SheetSerializer, lambda f, **d: services.sheet_submit(
            acting_user=request.user, fixture=f, **d))

    @extend_schema(summary="Start the match: boards become games of the system (the secretary)", request=None,
                   responses={200: FixtureDetailSerializer, **_errors(401, 403, 404, 409)})
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str) -> Response:
        return self._run(request, None, lambda f: services.match_start(acting_user=request.user, fixture=f))

    @extend_schema(summary="Enter the result card (the home captain): the home team's points per game, board by "
                           "board", request=CardSerializer,
                   responses={200: FixtureDetailSerializer, **_errors(400, 401, 403, 404, 409)})
    @action(detail=True, methods=["post"])
    def card(self, request: Request, pk: str) -> Response:
        return self._run(request, CardSerializer, lambda f, boards: services.card_enter(
            acting_user=request.user, fixture=f, boards=boards))

    @extend_schema(summary="Confirm the card (the away captain): the result stands", request=None,
                   responses={200: FixtureDetailSerializer, **_errors(401, 403, 404, 409)})
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str) -> Response:
        return self._run(request, None, lambda f: services.card_confirm(acting_user=request.user, fixture=f))

    @extend_schema(summary="Dispute the card (the away captain); the secretary decides", request=ReasonSerializer,
                   responses={200: FixtureDetailSerializer, **_errors(400, 401, 403, 404, 409)})
    @action(detail=True, methods=["post"])
    def dispute(self, request: Request, pk: str) -> Response:
        return self._run(request, ReasonSerializer, lambda f, reason: services.card_dispute(
            acting_user=request.user, fixture=f, reason=reason))

    @extend_schema(summary="Decide a disputed card (the secretary)", request=DecisionSerializer,
                   responses={200: FixtureDetailSerializer, **_errors(400, 401, 403, 404, 409)})
    @action(detail=True, methods=["post"])
    def decision(self, request: Request, pk: str) -> Response:
        return self._run(request, DecisionSerializer, lambda f, reason, boards: services.dispute_decide(
            acting_user=request.user, fixture=f, reason=reason, boards=boards))

    @extend_schema(summary="Record that a side did not come: the match is defaulted (the secretary)",
                   request=DefaultSerializer, responses={200: FixtureDetailSerializer,
                                                         **_errors(400, 401, 403, 404, 409)})
    @action(detail=True, methods=["post"], url_path="default")
    def default_match(self, request: Request, pk: str) -> Response:
        return self._run(request, DefaultSerializer, lambda f, side, reason: services.match_default(
            acting_user=request.user, fixture=f, side=side, reason=reason))

    @extend_schema(summary="Record who won the decider of a level cup match (the secretary)",
                   request=DeciderSerializer, responses={200: FixtureDetailSerializer,
                                                         **_errors(400, 401, 403, 404, 409)})
    @action(detail=True, methods=["post"])
    def decider(self, request: Request, pk: str) -> Response:
        return self._run(request, DeciderSerializer, lambda f, side, reason: services.cup_decider(
            acting_user=request.user, fixture=f, side=side, reason=reason))

    @extend_schema(summary="Ask to postpone the match to be played by a deadline (a captain of either team)",
                   request=PostponementRequestSerializer,
                   responses={201: PostponementSerializer, **_errors(400, 401, 403, 404, 409)})
    @action(detail=True, methods=["post"])
    def postponements(self, request: Request, pk: str) -> Response:
        serializer = PostponementRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        made = services.postponement_request(acting_user=request.user, fixture=self.get_object(),
                                             **serializer.validated_data)
        return Response(PostponementSerializer(made).data, status=status.HTTP_201_CREATED)


class PostponementViewSet(viewsets.ReadOnlyModelViewSet):
    """Postponements: the other captain agrees, the secretary approves (or refuses)."""

    queryset = Postponement.objects.select_related("fixture__home", "fixture__away", "fixture__season__league")
    serializer_class = PostponementSerializer
    lookup_value_converter = "id"
    permission_classes = [ReadOrSignedIn]

    @extend_schema(summary="Agree to the postponement (the other captain)", request=None,
                   responses={200: PostponementSerializer, **_errors(401, 403, 404, 409)})
    @action(detail=True, methods=["post"])
    def agree(self, request: Request, pk: str) -> Response:
        made = services.postponement_agree(acting_user=request.user, postponement=self.get_object())
        return Response(PostponementSerializer(made).data)

    @extend_schema(summary="Approve or refuse the postponement (the secretary); an approved match defaults at its "
                           "deadline if unplayed", request=PostponementApproveSerializer,
                   responses={200: PostponementSerializer, **_errors(400, 401, 403, 404, 409)})
    @action(detail=True, methods=["post"])
    def approve(self, request: Request, pk: str) -> Response:
        serializer = PostponementApproveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        made = services.postponement_approve(acting_user=request.user, postponement=self.get_object(),
                                             **serializer.validated_data)
        return Response(PostponementSerializer(made).data)
