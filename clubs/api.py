"""The clubs API (/api/v1/clubs/): thin edges that parse, call one service or selector, render."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import core.converters  # noqa: F401 (registers <id:...>, the lookup converter below)
from clubs import selectors, services
from clubs.rating_lists import RatingListError, rating_list_import
from clubs.serializers import (
    ClubLogSerializer,
    ClubPlayerAddSerializer,
    ClubPlayerRemoveSerializer,
    ClubPlayerSerializer,
    ClubPlayerUpdateSerializer,
    ClubSerializer,
    RatingListImportSerializer,
    RatingListReportSerializer,
)


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    words = {400: "validation_error", 401: "not_authenticated", 403: "permission_denied",
             404: "club_not_found, member_not_found", 409: "club_conflict"}
    # The body is the project's error body: config/schema.py puts its component (ErrorBody) in place of OBJECT.
    return {code: OpenApiResponse(OpenApiTypes.OBJECT, description=words[code]) for code in codes}


class ReadOrSignedIn(BasePermission):
    """Lets everyone read; writes need a signed-in user (the services decide the rest: 403)."""

    def has_permission(self, request, view) -> bool:  # noqa: ANN001
        return request.method in SAFE_METHODS or bool(request.user and request.user.is_authenticated)


class ClubViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Lists and shows clubs; a director registers one; its keepers change it."""

    queryset = selectors.clubs_listed()
    serializer_class = ClubSerializer
    permission_classes = [ReadOrSignedIn]
    lookup_value_converter = "id"

    @extend_schema(summary="Register a club (a director or an administrator; he keeps it with its secretary)",
                   responses={201: ClubSerializer, **_errors(400, 401, 403)})
    def create(self, request: Request, *args: object, **kwargs: object) -> Response:
        serializer = ClubSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        club = services.club_create(acting_user=request.user, **serializer.validated_data)
        return Response(ClubSerializer(club, context={"request": request}).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="Change a club (its keepers: its secretary, the director who registered it, an "
                           "administrator; only the last two choose the secretary)",
                   request=ClubSerializer, responses={200: ClubSerializer, **_errors(400, 401, 403, 404)})
    def partial_update(self, request: Request, pk: int | None = None) -> Response:
        club = self.get_object()
        serializer = ClubSerializer(club, data=request.data, partial=True, context={"request": request})
        serializer.is_valid(raise_exception=True)
        club = services.club_update(acting_user=request.user, club=club, **serializer.validated_data)
        return Response(ClubSerializer(club, context={"request": request}).data)

    @extend_schema(summary="The club's players, by name", responses={200: ClubPlayerSerializer(many=True),
                                                                      **_errors(404)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def players(self, request: Request, pk: int | None = None) -> Response:
        club = self.get_object()
        return Response(ClubPlayerSerializer(selectors.club_players(club), many=True).data)

    @extend_schema(summary="Make a player a member of the club (its keepers; a player of another club moves only "
                           "when you keep that club too)", request=ClubPlayerAddSerializer,
                   responses={201: ClubPlayerSerializer, **_errors(400, 401, 403, 404, 409)})
    @players.mapping.post
    def players_add(self, request: Request, pk: int | None = None) -> Response:
        club = self.get_object()
        serializer = ClubPlayerAddSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        member = services.club_player_add(acting_user=request.user, club=club,
                                          player=serializer.validated_data["player"])
        return Response(ClubPlayerSerializer(member.player).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="The club's record: created, changed, players who joined or left, players changed by its "
                           "keepers", responses={200: ClubLogSerializer(many=True), **_errors(404)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def log(self, request: Request, pk: int | None = None) -> Response:
        club = self.get_object()
        rows = club.log.select_related("actor", "player").order_by("id")
        return Response(ClubLogSerializer(rows, many=True, context={"request": request}).data)


class ClubPlayerView(APIView):
    """One player of a club: a keeper of the club changes him or takes him out of the club."""

    permission_classes = [ReadOrSignedIn]

    @extend_schema(summary="Change a player of the club: name, federation, federation id (its keepers, for its own "
                           "players only)", request=ClubPlayerUpdateSerializer,
                   responses={200: ClubPlayerSerializer, **_errors(400, 401, 403, 404)})
    def patch(self, request: Request, pk: int, player: int) -> Response:
        serializer = ClubPlayerUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        changed = services.club_player_update(acting_user=request.user, club=pk, player=player,
                                              **serializer.validated_data)
        return Response(ClubPlayerSerializer(changed).data)

    @extend_schema(summary="Take a player out of the club (its keepers)", request=ClubPlayerRemoveSerializer,
                   responses={204: None, **_errors(400, 401, 403, 404)})
    def delete(self, request: Request, pk: int, player: int) -> Response:
        serializer = ClubPlayerRemoveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.club_player_remove(acting_user=request.user, club=pk, player=player, **serializer.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RatingListImportView(APIView):
    """A federation's rating list read into the registry: federation ids, ratings, games."""

    permission_classes = [ReadOrSignedIn]

    @extend_schema(summary="Import a federation's rating list (CSV: id, name, rating, games): a federation "
                           "administrator imports, any director checks (dry_run); a bad row refuses the file with "
                           "details.rows naming each bad row's line and column",
                   request=RatingListImportSerializer, responses={200: RatingListReportSerializer,
                                                                  **_errors(400, 401, 403)})
    def post(self, request: Request) -> Response:
        serializer = RatingListImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            report = rating_list_import(acting_user=request.user, federation=serializer.validated_data["federation"],
                                        text=serializer.validated_data["csv"],
                                        dry_run=serializer.validated_data["dry_run"],
                                        create_missing=serializer.validated_data["create_missing"])
        except RatingListError as error:
            raise services.ClubInvalid(str(error), details={
                "fields": {"csv": [str(error)]},
                "rows": [{"line": e.line, "column": e.column, "message": e.message} for e in error.errors[:100]],
            }) from error
        return Response(report.as_dict())
