"""API views for players and tournaments: thin edges that parse, call one service or selector, render."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import core.converters  # noqa: F401 (registers <id:...>, the lookup converter below)
from arbitration.api import ReadOrSignedIn
from arbitration.serializers import ErrorBodySerializer, LogVerifySerializer
from core.http import conditional
from players.models import Player
from tournaments import selectors, services
from tournaments.csv_import import CSVFormatError, players_import
from tournaments.log import tournament_head_text, tournament_log_verify
from tournaments.models import Entry, Round, Tournament
from tournaments.serializers import (
    ArbitersSerializer,
    ByeCancelSerializer,
    ByeDataSerializer,
    ByeSerializer,
    CrosstableSerializer,
    EntriesImportReportSerializer,
    EntriesImportSerializer,
    EntryCreateSerializer,
    EntrySerializer,
    EntryWithdrawSerializer,
    ForfeitSerializer,
    PairingsEditSerializer,
    PlayerClaimCreateSerializer,
    PlayerClaimDecisionSerializer,
    PlayerClaimSerializer,
    PlayerLogSerializer,
    PlayerRecordSerializer,
    PlayerSerializer,
    PlayersImportReportSerializer,
    PlayersImportSerializer,
    PlayerUnlinkSerializer,
    PresenceMarkSerializer,
    PresenceSerializer,
    ProhibitionCreateSerializer,
    ProhibitionSerializer,
    RatingHistorySerializer,
    RefereesSerializer,
    ResultSerializer,
    ResultUndoSerializer,
    RoundPairSerializer,
    RoundScheduleSerializer,
    RoundScoresheetsSerializer,
    RoundSerializer,
    StandingsRowSerializer,
    StatusSerializer,
    TournamentCreateSerializer,
    TournamentLogSerializer,
    TournamentSerializer,
    TournamentUpdateSerializer,
    crosstable_row,
    entry_data,
    player_ref,
    rating_history_data,
    round_data,
    standings_data,
)

_ERRORS = {
    400: OpenApiResponse(ErrorBodySerializer, description="validation_error"),
    401: OpenApiResponse(ErrorBodySerializer, description="not_authenticated"),
    403: OpenApiResponse(ErrorBodySerializer, description="permission_denied"),
    404: OpenApiResponse(ErrorBodySerializer, description="not_found, round_not_found"),
    409: OpenApiResponse(ErrorBodySerializer, description="status_transition_refused, round_conflict, ..."),
    422: OpenApiResponse(ErrorBodySerializer, description="scoresheet_refused"),
}


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: _ERRORS[code] for code in codes}


class PlayerViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Lists and shows players; a director may register one."""

    queryset = Player.objects.order_by("name", "id")
    serializer_class = PlayerSerializer
    filterset_fields = ["club", "federation"]
    lookup_value_converter = "id"  # core.converters: 1 to 18 digits, else no route (404)

    def perform_create(self, serializer: PlayerSerializer) -> None:
        serializer.instance = services.player_create(acting_user=self.request.user, **serializer.validated_data)

    @extend_schema(summary="Change a player (his keeper: the director who registered him, while no other director's "
                           "tournament holds him, or an administrator); only an administrator links or unlinks his "
                           "account ({\"user\": username or null})",
                   request=PlayerSerializer, responses={200: PlayerSerializer, **_errors(400, 401, 403, 404)})
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        player = self.get_object()
        serializer = PlayerSerializer(player, data=request.data, partial=True, context={"request": request})
        serializer.is_valid(raise_exception=True)
        player = services.player_update(acting_user=request.user, player=player, **serializer.validated_data)
        return Response(PlayerSerializer(player, context={"request": request}).data)

    @extend_schema(summary="The registry's log of the player: who registered or changed him, each field before and "
                           "after, each claim, link and unlink of his account (his keepers, or the player himself)",
                   responses={200: PlayerLogSerializer(many=True), **_errors(401, 403, 404)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def log(self, request: Request, pk: str | None = None) -> Response:
        player = self.get_object()
        if not (services.may_edit_player(player, request.user)
                or (request.user.is_authenticated and player.user_id == request.user.pk)):
            raise services.NotDirector("Only a keeper of this player (the director who registered him, while no "
                                       "other director's tournament holds him, or an administrator) or the player "
                                       "himself may read his registry log.")
        return Response(PlayerLogSerializer(player.log.select_related("actor", "account").order_by("id"),
                                            many=True).data)

    @extend_schema(summary="Claim this player as yourself (any signed-in user): a keeper of the player (the director "
                           "who registered him, while no other director's tournament holds him, or an administrator) "
                           "approves or refuses the claim",
                   request=PlayerClaimCreateSerializer,
                   responses={201: PlayerClaimSerializer, **_errors(400, 401, 404), 409: OpenApiResponse(
                       ErrorBodySerializer, description="claim_conflict: the player is linked already, your account "
                                                        "plays as another player, or a claim of yours is waiting")})
    @action(detail=True, methods=["post"], pagination_class=None, permission_classes=[ReadOrSignedIn])
    def claim(self, request: Request, pk: str | None = None) -> Response:
        player = self.get_object()
        serializer = PlayerClaimCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        claim = services.player_claim(acting_user=request.user, player=player, **serializer.validated_data)
        return Response(PlayerClaimSerializer(claim).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="The claims on the player, newest first: all of them to his keepers, your own to you",
                   responses={200: PlayerClaimSerializer(many=True), **_errors(401, 404)})
    @action(detail=True, methods=["get"], pagination_class=None, permission_classes=[ReadOrSignedIn])
    def claims(self, request: Request, pk: str | None = None) -> Response:
        player = self.get_object()
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        return Response(PlayerClaimSerializer(services.claims_visible_to(player, request.user), many=True).data)

    @extend_schema(summary="Unlink the player's account (the player himself, or an administrator); on the registry's "
                           "record",
                   request=PlayerUnlinkSerializer,
                   responses={200: PlayerSerializer, **_errors(400, 401, 403, 404),
                              409: OpenApiResponse(ErrorBodySerializer, description="claim_conflict: none linked")})
    @action(detail=True, methods=["post"], pagination_class=None, permission_classes=[ReadOrSignedIn])
    def unlink(self, request: Request, pk: str | None = None) -> Response:
        player = self.get_object()
        serializer = PlayerUnlinkSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = services.player_unlink(acting_user=request.user, player=player, **serializer.validated_data)
        return Response(PlayerSerializer(player, context={"request": request}).data)

    @extend_schema(summary="The player's rating history, oldest first", responses={200: RatingHistorySerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def ratings(self, request: Request, pk: str | None = None) -> Response:
        player = self.get_object()
        return Response([rating_history_data(h) for h in selectors.player_rating_history(player)])

    @extend_schema(summary="Import players from CSV (director): name, club, federation, federation_id, rating",
                   request=PlayersImportSerializer, responses={200: PlayersImportReportSerializer,
                                                               **_errors(400, 401, 403)})
    @action(detail=False, methods=["post"], url_path="import", pagination_class=None)
    def import_csv(self, request: Request) -> Response:
        serializer = PlayersImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            report = players_import(serializer.validated_data["csv"], dry_run=serializer.validated_data["dry_run"],
                                     acting_user=request.user)
        except CSVFormatError as error:
            raise services.InvalidInput.field("csv", str(error)) from error
        return Response(report.as_dict())


class PlayerClaimDecisionView(APIView):
    """A keeper of the player approves a claim (the account is linked) or refuses it."""

    permission_classes = [ReadOrSignedIn]

    @extend_schema(summary="Approve or refuse a claim on a player (his keeper: the director who registered him, while "
                           "no other director's tournament holds him, or an administrator; never the claimant)",
                   request=PlayerClaimDecisionSerializer,
                   responses={200: PlayerClaimSerializer, **_errors(400, 401, 403),
                              404: OpenApiResponse(ErrorBodySerializer, description="claim_not_found"),
                              409: OpenApiResponse(ErrorBodySerializer, description="claim_conflict: decided "
                                                   "already, or the player or the account is linked already")})
    def post(self, request: Request, claim: int) -> Response:
        serializer = PlayerClaimDecisionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        decided = services.player_claim_decide(acting_user=request.user, claim=claim,
                                               approve=serializer.validated_data["decision"] == "approve",
                                               reason=serializer.validated_data["reason"])
        return Response(PlayerClaimSerializer(decided).data)


class PlayerClaimWithdrawView(APIView):
    """The claimant withdraws his claim while it waits."""

    permission_classes = [ReadOrSignedIn]

    @extend_schema(summary="Withdraw your claim while it waits", request=None,
                   responses={200: PlayerClaimSerializer, **_errors(401, 403),
                              404: OpenApiResponse(ErrorBodySerializer, description="claim_not_found"),
                              409: OpenApiResponse(ErrorBodySerializer, description="claim_conflict: decided already")})
    def post(self, request: Request, claim: int) -> Response:
        return Response(PlayerClaimSerializer(services.player_claim_withdraw(acting_user=request.user,
                                                                             claim=claim)).data)


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _detail(tournament: Tournament) -> dict:
    fresh = Tournament.objects.prefetch_related("directors", "referees", "arbiters").get(pk=tournament.pk)
    return TournamentSerializer(fresh).data


@extend_schema_view(
    list=extend_schema(summary="List tournaments"),
    retrieve=extend_schema(summary="Show a tournament"),
)
class TournamentViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Tournaments, addressed by slug, and what hangs off them: entries, status, rounds, standings."""

    queryset = Tournament.objects.prefetch_related("directors", "referees", "arbiters").order_by("-start_date", "name")
    serializer_class = TournamentSerializer
    lookup_field = "slug"
    lookup_value_converter = "slug"
    filterset_fields = ["status", "format"]

    @extend_schema(summary="Create a tournament (director; the creator directs it)",
                   request=TournamentCreateSerializer, responses={201: TournamentSerializer, **_errors(400, 401, 403)})
    def create(self, request: Request) -> Response:
        serializer = TournamentCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = services.tournament_create(acting_user=request.user, **serializer.service_kwargs())
        return Response(_detail(tournament), status=status.HTTP_201_CREATED)

    @extend_schema(summary="Change settings (director): name, venue, dates, clock; tiebreaks and rated before it runs",
                   request=TournamentUpdateSerializer, responses={200: TournamentSerializer, **_errors(400, 401, 403)})
    def partial_update(self, request: Request, slug: str | None = None) -> Response:
        serializer = TournamentUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = services.tournament_update(acting_user=request.user, tournament=_tournament(slug),
                                                **serializer.service_kwargs())
        return Response(_detail(tournament))

    @extend_schema(methods=["GET"], summary="The entries", responses={200: EntrySerializer(many=True)})
    @extend_schema(methods=["POST"], summary="Enter a player (director); late entries join the next round",
                   request=EntryCreateSerializer, responses={201: EntrySerializer, **_errors(400, 401, 403, 409)})
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def entries(self, request: Request, slug: str | None = None) -> Response:
        tournament = _tournament(slug)
        if request.method == "GET":
            entries = Entry.objects.filter(tournament=tournament).select_related("player").order_by("seed", "id")
            return Response([entry_data(e) for e in entries])
        serializer = EntryCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = services.entry_add(acting_user=request.user, tournament=tournament,
                                   player=serializer.validated_data["player"],
                                   missed_rounds=serializer.validated_data["missed_rounds"])
        return Response(entry_data(entry), status=status.HTTP_201_CREATED)

    @extend_schema(summary="Move the status one step forward (director)", request=StatusSerializer,
                   responses={200: TournamentSerializer, **_errors(400, 401, 403, 409)})
    @action(detail=True, methods=["post"], url_path="status")
    def status_set(self, request: Request, slug: str | None = None) -> Response:
        serializer = StatusSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = services.tournament_status_set(acting_user=request.user, tournament=_tournament(slug),
                                                    **serializer.validated_data)
        return Response(_detail(tournament))

    @extend_schema(summary="Set the referees (director); a referee removed is taken off its unfinished games",
                   request=RefereesSerializer,
                   responses={200: OpenApiResponse(TournamentSerializer, description=(
                       "The tournament, plus games_needing_referee: the ids of its unfinished games left with no "
                       "referee (e.g. a removed referee's), to assign one to each.")), **_errors(400, 401, 403)})
    @action(detail=True, methods=["post"])
    def referees(self, request: Request, slug: str | None = None) -> Response:
        serializer = RefereesSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = services.tournament_referees_set(acting_user=request.user, tournament=_tournament(slug),
                                                      referees=serializer.validated_data["referees"])
        return Response({**_detail(tournament), "games_needing_referee": tournament.games_needing_referee})

    @extend_schema(summary="Name the arbiters who decide appeals (director; Law 28)", request=ArbitersSerializer,
                   responses={200: TournamentSerializer, **_errors(400, 401, 403, 409)})
    @action(detail=True, methods=["post"])
    def arbiters(self, request: Request, slug: str | None = None) -> Response:
        serializer = ArbitersSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = services.tournament_arbiters_set(acting_user=request.user, tournament=_tournament(slug),
                                                      arbiters=serializer.validated_data["arbiters"])
        return Response(_detail(tournament))

    @extend_schema(methods=["GET"], summary="Every round with its matches", responses={200: RoundSerializer(many=True)})
    @extend_schema(methods=["POST"], summary="Pair the next round as a preview (director)", request=RoundPairSerializer,
                   responses={201: RoundSerializer, **_errors(400, 401, 403, 409)})
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def rounds(self, request: Request, slug: str | None = None) -> Response:
        tournament = _tournament(slug)
        if request.method == "GET":
            director = services.is_director_of(tournament, request.user)
            return Response([round_data(r) for r in selectors.rounds_with_matches(tournament)
                             if director or r.status != Round.Status.PREVIEW])
        serializer = RoundPairSerializer(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        round_ = services.round_pair(acting_user=request.user, tournament=tournament,
                                     absent=serializer.validated_data.get("absent", "forfeit"))
        return Response(round_data(selectors.round_detail(tournament, round_.number)), status=status.HTTP_201_CREATED)

    @extend_schema(methods=["GET"], summary="Check-in: who is marked present for the next round",
                   responses={200: PresenceSerializer, 404: _ERRORS[404]})
    @extend_schema(methods=["POST"], summary="Mark a player present or absent for the next round (a director, or "
                   "the player himself)", request=PresenceMarkSerializer,
                   responses={200: PresenceSerializer, **_errors(400, 401, 403, 404, 409)})
    @action(detail=True, methods=["get", "post"], pagination_class=None, permission_classes=[ReadOrSignedIn])
    def presence(self, request: Request, slug: str | None = None) -> Response:
        tournament = _tournament(slug)
        if request.method == "POST":
            serializer = PresenceMarkSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            services.presence_set(acting_user=request.user, tournament=tournament, **serializer.validated_data)
        return Response(selectors.presence_data(tournament))

    @extend_schema(methods=["GET"], summary="The byes known before their rounds (asked for, absences, late entries)",
                   responses={200: ByeDataSerializer(many=True), 404: _ERRORS[404]})
    @extend_schema(methods=["POST"], summary="Ask for a half-point bye, or announce an absence, for a round not yet "
                   "paired (a Swiss; the player himself or a director)", request=ByeSerializer,
                   responses={201: ByeDataSerializer(many=True), **_errors(400, 401, 403, 404, 409)})
    @action(detail=True, methods=["get", "post"], pagination_class=None, permission_classes=[ReadOrSignedIn])
    def byes(self, request: Request, slug: str | None = None) -> Response:
        tournament = _tournament(slug)
        if request.method == "POST":
            serializer = ByeSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            services.bye_request(acting_user=request.user, tournament=tournament, player=data["player"],
                                 round_number=data["round"], kind=data["kind"], reason=data["reason"])
            return Response(selectors.byes_data(tournament), status=status.HTTP_201_CREATED)
        return Response(selectors.byes_data(tournament))

    @extend_schema(summary="Cancel a bye asked for a round not yet paired (the player himself or a director)",
                   request=ByeCancelSerializer,
                   responses={200: ByeDataSerializer(many=True), **_errors(400, 401, 403, 404, 409)})
    @action(detail=True, methods=["post"], url_path="byes/cancel", permission_classes=[ReadOrSignedIn])
    def byes_cancel(self, request: Request, slug: str | None = None) -> Response:
        tournament = _tournament(slug)
        serializer = ByeCancelSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        services.bye_cancel(acting_user=request.user, tournament=tournament, player=data["player"],
                            round_number=data["round"], reason=data["reason"])
        return Response(selectors.byes_data(tournament))

    @extend_schema(methods=["GET"], summary="The players kept apart (prohibited pairings)",
                   responses={200: ProhibitionSerializer(many=True), 404: _ERRORS[404]})
    @extend_schema(methods=["POST"], summary="Keep players apart, a club or a family (director; a Swiss)",
                   request=ProhibitionCreateSerializer,
                   responses={201: ProhibitionSerializer, **_errors(400, 401, 403, 404, 409)})
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def prohibitions(self, request: Request, slug: str | None = None) -> Response:
        tournament = _tournament(slug)
        if request.method == "POST":
            serializer = ProhibitionCreateSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            row = services.prohibition_set(acting_user=request.user, tournament=tournament,
                                           **serializer.validated_data)
            return Response(selectors.prohibition_data(row), status=status.HTTP_201_CREATED)
        return Response(selectors.prohibitions_data(tournament))

    @extend_schema(summary="Let players kept apart meet again (director)", request=None,
                   responses={204: None, **_errors(400, 401, 403, 404)})
    @action(detail=True, methods=["delete"], url_path="prohibitions/<id:prohibition>")
    def prohibition_remove(self, request: Request, slug: str | None = None, prohibition: int = 0) -> Response:
        services.prohibition_remove(acting_user=request.user, tournament=_tournament(slug),
                                    prohibition=int(prohibition))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(summary="The standings, in order", responses={200: StandingsRowSerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request: Request, slug: str | None = None) -> Response:
        return Response(standings_data(selectors.standings(_tournament(slug))))

    @extend_schema(summary="The crosstable", responses={200: CrosstableSerializer})
    @action(detail=True, methods=["get"], pagination_class=None)
    def crosstable(self, request: Request, slug: str | None = None) -> Response:
        _rows, table = selectors.crosstable(_tournament(slug))
        return Response({"players": [player_ref(r.player) for r in table],
                         "rows": [crosstable_row(r) for r in table]})

    @extend_schema(summary="Record or correct a game's result (director, with a reason)", request=ResultSerializer,
                   responses={200: RoundSerializer, **_errors(400, 401, 403, 409)})
    @action(detail=True, methods=["post"])
    def results(self, request: Request, slug: str | None = None) -> Response:
        tournament = _tournament(slug)
        serializer = ResultSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        game = services.game_result_set(acting_user=request.user, tournament=tournament, game_id=data["game"],
                                        result=data["result"], reason=data["reason"], forfeit=data["forfeit"])
        return Response(round_data(selectors.round_detail(tournament, game.round.number)))

    @extend_schema(summary="Undo a result a director entered, while its round is open (director): the game is back "
                           "in play; the log keeps both", request=ResultUndoSerializer,
                   responses={200: RoundSerializer, **_errors(400, 401, 403, 409)})
    @action(detail=True, methods=["post"], url_path="results/undo")
    def results_undo(self, request: Request, slug: str | None = None) -> Response:
        tournament = _tournament(slug)
        serializer = ResultUndoSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = services.game_result_undo(acting_user=request.user, tournament=tournament,
                                         game_id=serializer.validated_data["game"],
                                         reason=serializer.validated_data["reason"])
        return Response(round_data(selectors.round_detail(tournament, game.round.number)))

    @extend_schema(summary="Enter players from CSV or pasted lines (director): the preview (dry_run, the default) "
                           "says who would be registered and entered and which lines are refused; then the import",
                   request=EntriesImportSerializer,
                   responses={200: EntriesImportReportSerializer, **_errors(400, 401, 403, 409)})
    @action(detail=True, methods=["post"], url_path="entries/import", pagination_class=None)
    def entries_import(self, request: Request, slug: str | None = None) -> Response:
        serializer = EntriesImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        report = services.entries_import(acting_user=request.user, tournament=_tournament(slug),
                                         text=serializer.validated_data["csv"],
                                         dry_run=serializer.validated_data["dry_run"])
        return Response(report.as_dict())

    @extend_schema(summary="The tournament's log (status changes, pairings, edits, corrections)",
                   responses={200: TournamentLogSerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def log(self, request: Request, slug: str | None = None) -> Response:
        tournament = _tournament(slug)
        public = not services.is_director_of(tournament, request.user)
        return Response(TournamentLogSerializer(selectors.tournament_log(tournament, public=public), many=True,
                                                context={"request": request}).data)

    @extend_schema(summary="Verify the tournament log's hash chain (and that it ends at the tournament's head)",
                   responses={200: LogVerifySerializer, 404: _ERRORS[404]})
    @action(detail=True, methods=["get"], url_path="log/verify", pagination_class=None)
    def log_verify(self, request: Request, slug: str | None = None) -> Response:
        return Response(tournament_log_verify(_tournament(slug)).as_dict())


def _export(tournament: Tournament, body: str, content_type: str, filename: str) -> HttpResponse:
    """Returns an export as a file to download (UTF-8), with the tournament's chain head."""
    response = HttpResponse(body, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return _with_head(response, tournament)


def _with_head(response: HttpResponse, tournament: Tournament) -> HttpResponse:
    """Adds the tournament's chain head (``X-Log-Head: SEQ:HASH``) to an export, for whoever keeps it: a running
    tournament's too, so that a copy taken during the event can later show a rollback."""
    response["X-Log-Head"] = tournament_head_text(tournament)
    return response


class EntryDetailView(APIView):
    """Withdraws a player (DELETE): the entry stays, with its results; he is not paired again."""

    @extend_schema(summary="Withdraw a player (director)", request=EntryWithdrawSerializer,
                   responses={200: EntrySerializer, **_errors(400, 401, 403, 404, 409)})
    def delete(self, request: Request, slug: str, player: int) -> Response:
        serializer = EntryWithdrawSerializer(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        entry = services.entry_withdraw(acting_user=request.user, tournament=_tournament(slug), player=player,
                                        reason=serializer.validated_data["reason"])
        return Response(entry_data(entry))


class RoundDetailView(APIView):
    """A round: its matches, each with its games, the lots and the ballots; a preview may be discarded."""

    @extend_schema(summary="Show a round", responses={200: RoundSerializer, 404: _ERRORS[404]})
    def get(self, request: Request, slug: str, number: int) -> Response:
        tournament = _tournament(slug)
        round_ = selectors.round_detail(tournament, number)
        if round_ is None or (round_.status == Round.Status.PREVIEW
                              and not services.is_director_of(tournament, request.user)):
            raise services.RoundNotFound(f"Round {number} of {slug} does not exist or is not published yet.")
        return Response(round_data(round_))

    @extend_schema(summary="Discard a preview (director)", request=None,
                   responses={204: None, **_errors(401, 403, 404, 409)})
    def delete(self, request: Request, slug: str, number: int) -> Response:
        services.round_discard(acting_user=request.user, tournament=_tournament(slug), number=number,
                               reason=str(request.data.get("reason", "")) if hasattr(request.data, "get") else "")
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundPairingsView(APIView):
    """Edits a preview's pairings, with a reason that goes on the log."""

    @extend_schema(summary="Edit the pairings of a preview (director, with a reason)", request=PairingsEditSerializer,
                   responses={200: RoundSerializer, **_errors(400, 401, 403, 404, 409)})
    def put(self, request: Request, slug: str, number: int) -> Response:
        tournament = _tournament(slug)
        serializer = PairingsEditSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        pairings = [tuple(p) for p in serializer.validated_data["pairings"]]
        services.round_pairings_edit(acting_user=request.user, tournament=tournament, number=number,
                                     pairings=pairings, reason=serializer.validated_data["reason"])
        return Response(round_data(selectors.round_detail(tournament, number)))


class RoundForfeitView(APIView):
    """Marks a match of a preview as a forfeit (unplayed)."""

    @extend_schema(summary="Forfeit a match of a preview (director, with a reason)", request=ForfeitSerializer,
                   responses={200: RoundSerializer, **_errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, slug: str, number: int) -> Response:
        tournament = _tournament(slug)
        serializer = ForfeitSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.match_forfeit_set(acting_user=request.user, tournament=tournament, number=number,
                                   **serializer.validated_data)
        return Response(round_data(selectors.round_detail(tournament, number)))


class RoundScoresheetsView(APIView):
    """Enters a round's games from the players' scoresheets, pasted as one PDN text."""

    @extend_schema(summary="Enter a round's games from scoresheets (director; one PDN text, all or nothing)",
                   request=RoundScoresheetsSerializer,
                   responses={200: RoundSerializer, **_errors(400, 401, 403, 404, 409, 422)})
    def post(self, request: Request, slug: str, number: int) -> Response:
        tournament = _tournament(slug)
        serializer = RoundScoresheetsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.round_scoresheets_enter(acting_user=request.user, tournament=tournament, number=number,
                                         pdn=serializer.validated_data["pdn"])
        return Response(round_data(selectors.round_detail(tournament, number)))


class RoundScheduleView(APIView):
    """Sets when a round is to start (the notices of its pairings and the calendar feeds say it)."""

    @extend_schema(summary="Set a round's scheduled start (director)", request=RoundScheduleSerializer,
                   responses={200: RoundSerializer, **_errors(400, 401, 403, 404, 409)})
    def put(self, request: Request, slug: str, number: int) -> Response:
        tournament = _tournament(slug)
        serializer = RoundScheduleSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.round_schedule_set(acting_user=request.user, tournament=tournament, number=number,
                                    scheduled_at=serializer.validated_data["scheduled_at"])
        return Response(round_data(selectors.round_detail(tournament, number)))


class RoundPublishView(APIView):
    """Publishes a preview: lots are cast, ballots drawn and the games created."""

    @extend_schema(summary="Publish a round and create its games (director)", request=None,
                   responses={200: RoundSerializer, **_errors(401, 403, 404, 409)})
    def post(self, request: Request, slug: str, number: int) -> Response:
        tournament = _tournament(slug)
        services.round_publish(acting_user=request.user, tournament=tournament, number=number)
        return Response(round_data(selectors.round_detail(tournament, number)))


@extend_schema(exclude=True)
class RoundPublishSlashView(RoundPublishView):
    """The same as ``publish``, with a trailing slash."""


class PlayerRecordView(APIView):
    """A player's record in a tournament: his standing and his matches round by round."""

    @extend_schema(summary="A player's record in the tournament", responses={200: PlayerRecordSerializer,
                                                                                404: _ERRORS[404]})
    def get(self, request: Request, slug: str, player: int) -> Response:
        tournament = _tournament(slug)
        entry = get_object_or_404(Entry.objects.select_related("player"), tournament=tournament, player_id=player)
        rows = selectors.standings(tournament)
        standing = next((r for r in standings_data(rows) if r["player"]["id"] == player), None)
        lines = selectors.player_record(tournament, entry.player)
        return Response({
            "player": player_ref(entry.player), "standing": standing,
            "matches": [{"round": ln.round, "board": ln.board, "kind": ln.kind, "opponent": player_ref(ln.opponent),
                         "game_points": ln.game_points, "opponent_game_points": ln.opponent_game_points,
                         "outcome": ln.outcome, "games": ln.games} for ln in lines],
        })


class StandingsCSVView(APIView):
    """The standings as a CSV file."""

    @extend_schema(summary="The standings as CSV", responses={(200, "text/csv"): OpenApiTypes.STR, 404: _ERRORS[404]})
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = _tournament(slug)
        return _export(tournament, selectors.standings_csv(tournament), "text/csv", f"{tournament.slug}-standings.csv")


class CrosstableCSVView(APIView):
    """The crosstable as a CSV file."""

    @extend_schema(summary="The crosstable as CSV", responses={(200, "text/csv"): OpenApiTypes.STR, 404: _ERRORS[404]})
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = _tournament(slug)
        return _export(tournament, selectors.crosstable_csv(tournament), "text/csv", f"{tournament.slug}-crosstable.csv")


class TournamentPDNView(APIView):
    """Every game of the tournament as one PDN file."""

    @extend_schema(summary="Every game of the tournament as one PDN file (ETag, If-None-Match)",
                   responses={(200, "text/plain"): OpenApiTypes.STR, 304: None, 404: _ERRORS[404]})
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = _tournament(slug)
        return conditional(request, _export(tournament, selectors.tournament_pdn(tournament), "text/plain",
                                            f"{tournament.slug}.pdn"))


class TournamentTRFView(APIView):
    """The tournament in FIDE's Tournament Report File layout (TRF), one round a match."""

    @extend_schema(summary="The tournament as FIDE's TRF (for pairing checkers and rating officers)",
                   responses={(200, "text/plain"): OpenApiTypes.STR, 404: _ERRORS[404]})
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = _tournament(slug)
        return _export(tournament, selectors.tournament_trf(tournament), "text/plain", f"{tournament.slug}.trf")


class RoundPDNView(APIView):
    """A round's games as PDN, growing as they are played: the live broadcast for relays and
    other draughts programs. The entity tag changes with every entry on a game's log, so a relay
    that polls with ``If-None-Match`` gets 304 and nothing else until something happens."""

    @extend_schema(summary="A round's games as PDN, live (ETag, If-None-Match)",
                   responses={(200, "text/plain"): OpenApiTypes.STR, 304: None, 404: _ERRORS[404]})
    def get(self, request: Request, slug: str, number: int) -> HttpResponse:
        tournament = _tournament(slug)
        status_ = Round.objects.filter(tournament=tournament, number=number).values_list("status", flat=True).first()
        if status_ is None or status_ == Round.Status.PREVIEW:  # a preview is the director's until published
            raise services.RoundNotFound(f"Round {number} of {slug} does not exist or is not published yet.")
        tag = selectors.round_broadcast_tag(tournament, number)
        if tag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
            response = HttpResponse(status=304)
        else:
            response = HttpResponse(selectors.round_pdn(tournament, number), content_type="text/plain; charset=utf-8")
            response["Content-Disposition"] = f'inline; filename="{tournament.slug}-round-{number}.pdn"'
        response["ETag"] = tag
        response["Cache-Control"] = "no-cache"
        return response


@extend_schema(exclude=True)
class TournamentPDNSlashView(TournamentPDNView):
    """The same as ``pdn``, with a trailing slash."""
