"""API of notifications: what a tournament sent (its directors), and the calendar feeds (anyone)."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arbitration.serializers import ErrorBodySerializer
from core.api import Pagination
from core.http import conditional
from notifications import calendar, selectors
from notifications.models import Notification
from players.models import Player
from tournaments.models import Tournament
from tournaments.services import authorise_director


class ICalendarRenderer(BaseRenderer):
    """Lets a calendar program ask for ``text/calendar``; an error still comes as the JSON error body."""

    media_type = "text/calendar"
    format = "ics"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        return data if isinstance(data, bytes) else json.dumps(data).encode()


class NotificationSerializer(serializers.ModelSerializer):
    player = serializers.SerializerMethodField()
    has_email = serializers.SerializerMethodField(help_text="Whether it went (or was to go) to an address.")

    class Meta:
        model = Notification
        fields = ["id", "event", "kind", "player", "has_email", "subject", "context", "status", "attempts",
                  "last_error", "created_at", "sent_at"]

    def get_player(self, obj: Notification) -> dict[str, Any]:
        return {"id": obj.player_id, "name": obj.player.name}

    def get_has_email(self, obj: Notification) -> bool:
        return bool(obj.email)


_ERRORS = {code: OpenApiResponse(ErrorBodySerializer) for code in (401, 403, 404)}


class TournamentNotificationsView(APIView):
    """What a tournament sent to whom: each message (or who was not told, and why), newest first."""

    pagination_class = Pagination

    @extend_schema(summary="The messages a tournament sent (its directors)",
                   responses={200: NotificationSerializer(many=True), **_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        tournament = get_object_or_404(Tournament, slug=slug)
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        authorise_director(tournament, request.user)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.tournament_notifications(tournament), request, view=self)
        return paginator.get_paginated_response(NotificationSerializer(page, many=True).data)


class CalendarView(APIView):
    """An iCalendar feed: ``text/calendar`` when it answers, the JSON error body (as JSON) when it refuses."""

    renderer_classes = [JSONRenderer, ICalendarRenderer]
    permission_classes: list = []

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        if response.status_code >= 400:  # ?format=ics asked for the feed, not for its error in calendar clothes
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
        return super().finalize_response(request, response, *args, **kwargs)


class TournamentCalendarView(CalendarView):
    """A tournament's rounds as an iCalendar feed."""

    @extend_schema(summary="A tournament's rounds as iCalendar (subscribe to it; ETag, If-None-Match)",
                   responses={(200, "text/calendar"): OpenApiTypes.STR, 304: None, 404: _ERRORS[404]})
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = get_object_or_404(Tournament, slug=slug)
        return _ics(request, calendar.tournament_calendar(tournament), f"{tournament.slug}.ics")


class PlayerCalendarView(CalendarView):
    """A player's games as an iCalendar feed."""

    @extend_schema(summary="A player's games as iCalendar (subscribe to it; ETag, If-None-Match)",
                   responses={(200, "text/calendar"): OpenApiTypes.STR, 304: None, 404: _ERRORS[404]})
    def get(self, request: Request, pk: int) -> HttpResponse:
        player = get_object_or_404(Player, pk=pk)
        return _ics(request, calendar.player_calendar(player), f"player-{player.pk}.ics")


def _ics(request: Request, body: bytes, filename: str) -> HttpResponse:
    """The feed, with an entity tag: a calendar program that polls with ``If-None-Match`` gets 304 until it changes."""
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return conditional(request, response)
