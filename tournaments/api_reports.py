"""The exports for the rating bodies (``tournaments.rating_reports``): thin views, public like the other exports."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.views import APIView

from tournaments import rating_reports
from tournaments.api import _ERRORS, _export, _tournament
from tournaments.services import InvalidInput

SCORED = OpenApiParameter("scored", str, enum=["round", "game"], required=False,
                          description="round (default): a match is one round, window 400; game: each game a round, "
                                      "window 670 (the ACF's constants)")


class TournamentResultsCSVView(APIView):
    """Every game with colours, full names and federation ids: the rating officers' results file."""

    @extend_schema(summary="The results for the rating bodies (ACF, WCDF): one row a game, round by round, with "
                           "colours, full names and federation ids; forfeits and byes one row each, not rated",
                   responses={(200, "text/csv"): OpenApiTypes.STR, 404: _ERRORS[404]})
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = _tournament(slug)
        return _export(tournament, rating_reports.results_csv(tournament), "text/csv", f"{tournament.slug}-results.csv")


class TournamentResultsTRFView(APIView):
    """FIDE's TRF adapted to rounds of several games: one column a game."""

    @extend_schema(summary="The results as FIDE's TRF-16 adapted to matches of games: each round's games are its "
                           "columns, with colour and result; federation and federation id on each player's line",
                   responses={(200, "text/plain"): OpenApiTypes.STR, 404: _ERRORS[404]})
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = _tournament(slug)
        return _export(tournament, rating_reports.results_trf(tournament), "text/plain",
                       f"{tournament.slug}-results.trf")


class TournamentAcfRatingsView(APIView):
    """The ACF rating each player gets from the tournament, from the federation's list as imported."""

    @extend_schema(summary="The ACF rating report: per player, the list's rating and games before, the opponents' "
                           "average, rounds won, drawn, lost, the performance (Rc + window x (W - L) / N) and the "
                           "rating after (averaged over the last 128 games)",
                   parameters=[SCORED], responses={(200, "text/csv"): OpenApiTypes.STR, 400: _ERRORS[400],
                                                   404: _ERRORS[404]})
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = _tournament(slug)
        scored = request.query_params.get("scored", "round")
        if scored not in ("round", "game"):
            raise InvalidInput.field("scored", "round or game.")
        return _export(tournament, rating_reports.acf_ratings_csv(tournament, by_game=scored == "game"), "text/csv",
                       f"{tournament.slug}-acf-ratings.csv")
