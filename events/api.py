"""API views of events, title matches and series: thin edges that parse, call one service or selector, render."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.privacy import names_shown_to
from arbitration.serializers import ErrorBodySerializer
from events import selectors, services
from events.errors import EventNotFound
from events.models import Event, Series, TitleMatch
from events.serializers import (
    CheckInSerializer,
    DeskLineSerializer,
    DirectorSerializer,
    EventCreateSerializer,
    EventSerializer,
    RegistrationCreateSerializer,
    RegistrationSerializer,
    SectionCreateSerializer,
    SectionSerializer,
    SeriesCreateSerializer,
    SeriesSerializer,
    SeriesStageCreateSerializer,
    SeriesSummarySerializer,
    TitleMatchCreateSerializer,
    TitleMatchSerializer,
    event_data,
    section_data,
    series_data,
    series_summary_data,
    title_match_data,
)
from tournaments.serializers import player_ref
from tournaments.services import InvalidInput

_ERRORS = {
    400: OpenApiResponse(ErrorBodySerializer, description="validation_error"),
    401: OpenApiResponse(ErrorBodySerializer, description="not_authenticated"),
    403: OpenApiResponse(ErrorBodySerializer, description="permission_denied"),
    404: OpenApiResponse(ErrorBodySerializer, description="not_found, event_not_found"),
    409: OpenApiResponse(ErrorBodySerializer, description="entry_refused (details.reason says why), "
                                                          "entry_conflict, title_match_conflict, ..."),
}


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: _ERRORS[code] for code in codes}


def _get(model: Any, slug: str | None, what: str) -> Any:
    found = model.objects.filter(slug=slug).first()
    if found is None:
        raise EventNotFound(f"There is no {what} {slug}.", code=f"{what.replace(' ', '_')}_not_found")
    return found


def _event_detail(event: Event, request: Request) -> dict[str, Any]:
    return event_data(event, selectors.event_overview(event), names=names_shown_to(request.user))


class EventViewSet(viewsets.GenericViewSet):
    """Events, addressed by slug: their sections (each a tournament), the one desk, the standings of every section."""

    queryset = Event.objects.order_by("-start_date", "name")
    serializer_class = EventSerializer
    lookup_field = "slug"
    lookup_value_converter = "slug"

    @extend_schema(summary="The events", responses={200: EventSerializer(many=True)})
    def list(self, request: Request) -> Response:
        page = self.paginate_queryset(selectors.event_list())
        return self.get_paginated_response([event_data(e, None, names=names_shown_to(request.user)) for e in page])

    @extend_schema(summary="An event: its sections with their rules, standings and games being played",
                   responses={200: EventSerializer, 404: _ERRORS[404]})
    def retrieve(self, request: Request, slug: str | None = None) -> Response:
        return Response(_event_detail(_get(Event, slug, "event"), request))

    @extend_schema(summary="Create an event (director; the creator directs it)", request=EventCreateSerializer,
                   responses={201: EventSerializer, **_errors(400, 401, 403)})
    def create(self, request: Request) -> Response:
        serializer = EventCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = services.event_create(acting_user=request.user, **serializer.validated_data)
        return Response(_event_detail(event, request), status=status.HTTP_201_CREATED)

    @extend_schema(summary="Add a section (the event's director): a tournament with its format, deck, round "
                           "length and staff, and its entry rules", request=SectionCreateSerializer,
                   responses={201: SectionSerializer, **_errors(400, 401, 403, 404)})
    @action(detail=True, methods=["post"])
    def sections(self, request: Request, slug: str | None = None) -> Response:
        event = _get(Event, slug, "event")
        serializer = SectionCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        kwargs = serializer.service_kwargs()
        rules = {name: kwargs.pop(name) for name in SectionCreateSerializer.RULES}
        section = services.section_create(acting_user=request.user, event=event, **rules, **kwargs)
        view = next(v for v in selectors.event_overview(event) if v.section.pk == section.pk)
        return Response(section_data(view), status=status.HTTP_201_CREATED)

    @extend_schema(methods=["GET"], summary="The registrations (the event's director)",
                   responses={200: RegistrationSerializer(many=True), **_errors(401, 403, 404)})
    @extend_schema(methods=["POST"], summary="Register a player in a section (the event's director); the section's "
                                             "entry rules are checked: 409 entry_refused with the reason",
                   request=RegistrationCreateSerializer,
                   responses={201: RegistrationSerializer, **_errors(400, 401, 403, 404, 409)})
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def registrations(self, request: Request, slug: str | None = None) -> Response:
        event = _get(Event, slug, "event")
        if request.method == "GET":
            services.authorise_director(event, request.user)
            return Response([{"player": player_ref(r.player), "section": r.section.name, "title": r.title,
                              "birth_date": r.birth_date} for r in event.registrations.select_related(
                                  "player", "section")])
        serializer = RegistrationCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        r = services.registration_add(acting_user=request.user, event=event, **serializer.validated_data)
        return Response({"player": player_ref(r.player), "section": r.section.name, "title": r.title,
                         "birth_date": r.birth_date}, status=status.HTTP_201_CREATED)

    @extend_schema(methods=["GET"], summary="The check-in desk: every registered player and his sections "
                                            "(the event's director)",
                   responses={200: DeskLineSerializer(many=True), **_errors(401, 403, 404)})
    @extend_schema(methods=["POST"], summary="Check a player in (or mark him absent) in every section he entered, "
                                             "for its next round (the event's director)",
                   request=CheckInSerializer, responses={200: DeskLineSerializer(many=True),
                                                         **_errors(400, 401, 403, 404, 409)})
    @action(detail=True, methods=["get", "post"], url_path="check-in", pagination_class=None)
    def check_in(self, request: Request, slug: str | None = None) -> Response:
        event = _get(Event, slug, "event")
        if request.method == "POST":
            serializer = CheckInSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            services.event_check_in(acting_user=request.user, event=event, **serializer.validated_data)
        else:
            services.authorise_director(event, request.user)
        return Response([{"player": player_ref(line.player), "sections": [s.name for s in line.sections],
                          "checked_in": line.checked_in} for line in selectors.desk(event)])

    @extend_schema(summary="Add a director to the event and its sections (the event's director)",
                   request=DirectorSerializer,
                   responses={200: EventSerializer, **_errors(400, 401, 403, 404)})
    @action(detail=True, methods=["post"])
    def directors(self, request: Request, slug: str | None = None) -> Response:
        event = _get(Event, slug, "event")
        serializer = DirectorSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = get_user_model().objects.filter(username=serializer.validated_data["director"]).first()
        if user is None:
            raise InvalidInput.field("director", "No user of that name.")
        event = services.event_directors_add(acting_user=request.user, event=event, user=user)
        return Response(_event_detail(event, request))


def _match_detail(match: TitleMatch) -> dict[str, Any]:
    line, rows = selectors.title_match_detail(match)
    return title_match_data(match, line, rows)


class TitleMatchViewSet(viewsets.GenericViewSet):
    """Title matches, addressed by slug: N games, openings drawn in advance, the score line game by game."""

    queryset = TitleMatch.objects.order_by("-created_at")
    serializer_class = TitleMatchSerializer
    lookup_field = "slug"
    lookup_value_converter = "slug"

    @extend_schema(summary="The title matches", responses={200: TitleMatchSerializer(many=True)})
    def list(self, request: Request) -> Response:
        page = self.paginate_queryset(selectors.title_match_list())
        return self.get_paginated_response([title_match_data(match, line, rows)
                                            for match, line, rows in selectors.title_match_page(page)])

    @extend_schema(summary="A title match and its score line", responses={200: TitleMatchSerializer,
                                                                        404: _ERRORS[404]})
    def retrieve(self, request: Request, slug: str | None = None) -> Response:
        return Response(_match_detail(_get(TitleMatch, slug, "title match")))

    @extend_schema(summary="Create a title match (director; at an event, its director): lots and openings are "
                           "drawn now, on the record", request=TitleMatchCreateSerializer,
                   responses={201: TitleMatchSerializer, **_errors(400, 401, 403, 404)})
    def create(self, request: Request) -> Response:
        serializer = TitleMatchCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        event_slug = data.pop("event")
        data["clock_control"] = data.pop("clock")
        event = _get(Event, event_slug, "event") if event_slug else None
        match = services.title_match_create(acting_user=request.user, event=event, **data)
        return Response(_match_detail(match), status=status.HTTP_201_CREATED)

    @extend_schema(summary="Start the match: its first game is created (its director)", request=None,
                   responses={200: TitleMatchSerializer, **_errors(401, 403, 404, 409)})
    @action(detail=True, methods=["post"])
    def start(self, request: Request, slug: str | None = None) -> Response:
        match = _get(TitleMatch, slug, "title match")
        services.title_match_start(acting_user=request.user, match=match)
        match.refresh_from_db()
        return Response(_match_detail(match))


def _series_detail(series: Series) -> dict[str, Any]:
    stages, table = selectors.series_table(series)
    return series_data(series, stages, table)


class SeriesViewSet(viewsets.GenericViewSet):
    """Series, addressed by slug: standings across stages, by places or results, best K of N."""

    queryset = Series.objects.order_by("-created_at")
    serializer_class = SeriesSerializer
    lookup_field = "slug"
    lookup_value_converter = "slug"

    @extend_schema(summary="The series, each with its stages (its standings: GET /series/{slug}/)",
                   responses={200: SeriesSummarySerializer(many=True)})
    def list(self, request: Request) -> Response:
        page = self.paginate_queryset(selectors.series_list())
        return self.get_paginated_response([series_summary_data(s, [stage.tournament for stage in s.stages.all()])
                                            for s in page])

    @extend_schema(summary="A series and its standings", responses={200: SeriesSerializer, 404: _ERRORS[404]})
    def retrieve(self, request: Request, slug: str | None = None) -> Response:
        return Response(_series_detail(_get(Series, slug, "series")))

    @extend_schema(summary="Create a series (director)", request=SeriesCreateSerializer,
                   responses={201: SeriesSerializer, **_errors(400, 401, 403)})
    def create(self, request: Request) -> Response:
        serializer = SeriesCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        series = services.series_create(acting_user=request.user, **serializer.validated_data)
        return Response(_series_detail(series), status=status.HTTP_201_CREATED)

    @extend_schema(summary="Add a stage (the series' director)", request=SeriesStageCreateSerializer,
                   responses={201: SeriesSerializer, **_errors(400, 401, 403, 404)})
    @action(detail=True, methods=["post"])
    def stages(self, request: Request, slug: str | None = None) -> Response:
        series = _get(Series, slug, "series")
        serializer = SeriesStageCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.series_stage_add(acting_user=request.user, series=series, **serializer.validated_data)
        return Response(_series_detail(series), status=status.HTTP_201_CREATED)
