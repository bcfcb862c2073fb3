"""API views for games: thin edges that parse, call one service or selector, and render."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import core.converters  # noqa: F401 (registers <id:...>, the lookup converter below)
from accounts.privacy import names_shown_to
from arbitration.log import log_verify
from arbitration.pdn_export import game_pdn
from arbitration.rulings import RULING_REQUEST_SCHEMA
from arbitration.scoresheets import MAX_SCORESHEET_CHARS, game_scoresheet_enter
from arbitration.selectors import game_log, game_state, log_without_names, state_without_names
from arbitration.serializers import (
    ErrorBodySerializer,
    GameCreateSerializer,
    GameListSerializer,
    GameStateSerializer,
    LogEntrySerializer,
    LogVerifySerializer,
    MoveRequestSerializer,
    move_request_data,
)
from arbitration.services import (
    game_create,
    game_move_record,
    game_referees_set,
    result_confirm,
    ruling_issue,
)
from core.http import conditional
from games.models import Game
from games.selectors import game_get, game_list

_ERRORS = {
    400: OpenApiResponse(ErrorBodySerializer, description="validation_error"),
    401: OpenApiResponse(ErrorBodySerializer, description="not_authenticated"),
    403: OpenApiResponse(ErrorBodySerializer, description="permission_denied"),
    404: OpenApiResponse(ErrorBodySerializer, description="not_found"),
    409: OpenApiResponse(ErrorBodySerializer, description="ply_conflict, game_over, ruling_required, ..."),
    422: OpenApiResponse(ErrorBodySerializer, description="illegal_move, invalid_ruling, ..."),
}


class ReadOrSignedIn(BasePermission):
    """Lets everyone read; writes need a signed-in user (the services decide the rest: 403)."""

    def has_permission(self, request, view) -> bool:  # noqa: ANN001
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)


def _state_response(game: Game, request: Request, code: int = status.HTTP_200_OK, last_move: Any = None) -> Response:
    state = game_state(game, request.user, last_move=last_move)
    if not names_shown_to(request.user):
        state = state_without_names(state)
    return Response(state, status=code)


@extend_schema_view(
    list=extend_schema(summary="List games", responses=GameListSerializer(many=True)),
)
class GameViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Lists, shows and creates games."""

    queryset = Game.objects.none()
    serializer_class = GameListSerializer
    permission_classes = [ReadOrSignedIn]
    filterset_fields = ["status", "round"]
    lookup_value_converter = "id"  # core.converters: 1 to 18 digits, else no route (404)

    def get_queryset(self):  # noqa: ANN201
        return game_list()

    @extend_schema(summary="Show a game's state", responses={200: GameStateSerializer, 404: _ERRORS[404]})
    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        game = get_object_or_404(Game.objects.select_related("black", "white"), pk=pk)
        return _state_response(game, request)

    @extend_schema(
        summary="Create a game (director)", request=GameCreateSerializer,
        responses={201: GameStateSerializer, **{k: _ERRORS[k] for k in (400, 401, 403)}},
    )
    def create(self, request: Request) -> Response:
        serializer = GameCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = game_create(acting_user=request.user, **serializer.validated_data)
        return _state_response(game_get(game.pk), request, status.HTTP_201_CREATED)


class GameMovesView(APIView):
    """Records a move."""

    permission_classes = [ReadOrSignedIn]

    @extend_schema(
        summary="Record a move", request=MoveRequestSerializer,
        responses={201: GameStateSerializer, **{k: _ERRORS[k] for k in (400, 401, 403, 404, 409, 422)}},
    )
    def post(self, request: Request, pk: int) -> Response:
        outcome = game_move_record(acting_user=request.user, game_id=pk, **move_request_data(request.data))
        return _state_response(outcome.game, request, status.HTTP_201_CREATED, last_move=outcome.move)


class GameRulingsView(APIView):
    """Records a ruling."""

    permission_classes = [ReadOrSignedIn]

    @extend_schema(
        summary="Record a ruling", request=RULING_REQUEST_SCHEMA,
        responses={201: GameStateSerializer, **{k: _ERRORS[k] for k in (400, 401, 403, 404, 409, 422)}},
    )
    def post(self, request: Request, pk: int) -> Response:
        data = request.data
        if not hasattr(data, "items"):
            raise ValidationError({"non_field_errors": ["A JSON object is expected: the ruling's kind and fields."]})
        payload = {name: value for name, value in data.items() if name not in ("kind", "side", "note")}
        game = ruling_issue(acting_user=request.user, game_id=pk, kind=data.get("kind"), side=data.get("side"),
                            note=data.get("note") or "", payload=payload)
        return _state_response(game, request, status.HTTP_201_CREATED)


class GameRefereesRequestSerializer(serializers.Serializer):
    referees = serializers.ListField(child=serializers.CharField(), help_text="Usernames; [] takes them all off.")
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class GameRefereesView(APIView):
    """Sets the referees of an unfinished game (its director)."""

    permission_classes = [ReadOrSignedIn]

    @extend_schema(
        summary="Assign the game's referees (a director of its tournament; none linked to a player of the game)",
        request=GameRefereesRequestSerializer,
        responses={200: GameStateSerializer, **{k: _ERRORS[k] for k in (400, 401, 403, 404, 409)}},
    )
    def post(self, request: Request, pk: int) -> Response:
        serializer = GameRefereesRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = game_referees_set(acting_user=request.user, game_id=pk, **serializer.validated_data)
        return _state_response(game_get(game.pk), request)


class ScoresheetRequestSerializer(serializers.Serializer):
    moves = serializers.CharField(max_length=MAX_SCORESHEET_CHARS, trim_whitespace=False,
                                  help_text="The moves as on the scoresheet (PDN movetext, numbered or not; a result "
                                  "at the end is read too).")
    result = serializers.ChoiceField(choices=Game.Result.choices, required=False,
                                     help_text="1-0, 0-1 or 1/2-1/2; needed unless the moves end with it.")
    note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class GameScoresheetView(APIView):
    """A director enters a whole game from its scoresheet (moves and result), checked by the engine first."""

    permission_classes = [ReadOrSignedIn]

    @extend_schema(
        summary="Enter the game from its scoresheet (a director of the game; the game has no move yet)",
        request=ScoresheetRequestSerializer,
        responses={201: GameStateSerializer, **{k: _ERRORS[k] for k in (400, 401, 403, 404, 409, 422)}},
    )
    def post(self, request: Request, pk: int) -> Response:
        serializer = ScoresheetRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = game_scoresheet_enter(acting_user=request.user, game_id=pk, **serializer.validated_data)
        return _state_response(game_get(game.pk), request, status.HTTP_201_CREATED)


class GameConfirmView(APIView):
    """A player confirms the finished game's result (signs the scoresheet)."""

    permission_classes = [ReadOrSignedIn]

    @extend_schema(
        summary="Confirm the result (a player of the game; a player who disagrees files an appeal instead)",
        request=None,
        responses={200: GameStateSerializer, **{k: _ERRORS[k] for k in (401, 403, 404, 409)}},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = result_confirm(acting_user=request.user, game_id=pk)
        return _state_response(game_get(game.pk), request)


class GameLogView(APIView):
    """The game's arbitration log, whole, oldest first."""

    permission_classes = [ReadOrSignedIn]

    @extend_schema(summary="The arbitration log", responses={200: LogEntrySerializer(many=True), 404: _ERRORS[404]})
    def get(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game, pk=pk)
        entries = game_log(game)
        return Response(entries if names_shown_to(request.user) else log_without_names(entries))


class GameLogVerifyView(APIView):
    """Checks the log's hash chain."""

    permission_classes = [ReadOrSignedIn]

    @extend_schema(summary="Verify the log's hash chain", responses={200: LogVerifySerializer, 404: _ERRORS[404]})
    def get(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game, pk=pk)
        return Response(log_verify(game).as_dict())


class GamePDNView(APIView):
    """The game as PDN text."""

    permission_classes = [ReadOrSignedIn]

    @extend_schema(summary="The game as PDN (ETag, If-None-Match)",
                   responses={(200, "text/plain"): OpenApiTypes.STR, 304: None, 404: _ERRORS[404]})
    def get(self, request: Request, pk: int) -> HttpResponse:
        game = get_object_or_404(Game.objects.select_related("black", "white", "round__tournament"), pk=pk)
        response = HttpResponse(game_pdn(game), content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="game-{game.pk}.pdn"'
        return conditional(request, response)


@extend_schema(exclude=True)
class GameLogVerifySlashView(GameLogVerifyView):
    """The same as ``log/verify``, with a trailing slash."""


@extend_schema(exclude=True)
class GamePDNSlashView(GamePDNView):
    """The same as ``pdn``, with a trailing slash."""
