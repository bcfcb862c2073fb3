"""The routes of the REST API, version 1 (mounted at /api/v1/)."""

from django.urls import path
from rest_framework.routers import DefaultRouter

import core.converters  # noqa: F401 (registers <id:...>)
from accounts.api import MeView, MyTokenDetailView, MyTokensView
from arbitration.api import (
    GameConfirmView,
    GameLogVerifySlashView,
    GameLogVerifyView,
    GameLogView,
    GameMovesView,
    GamePDNSlashView,
    GamePDNView,
    GameRefereesView,
    GameRulingsView,
    GameScoresheetView,
    GameViewSet,
)
from clubs.api import ClubPlayerView, ClubViewSet, RatingListImportView
from events.api import EventViewSet, SeriesViewSet, TitleMatchViewSet
from integrations.api import DeliveryResendView, WebhookDeliveriesView, WebhookDetailView, WebhooksView
from leagues.api import FixtureViewSet, LeagueViewSet, PostponementViewSet, TeamViewSet
from notifications.api import PlayerCalendarView, TournamentCalendarView, TournamentNotificationsView
from tournaments.api import (
    CrosstableCSVView,
    EntryDetailView,
    PlayerClaimDecisionView,
    PlayerClaimWithdrawView,
    PlayerRecordView,
    PlayerViewSet,
    RoundDetailView,
    RoundForfeitView,
    RoundPairingsView,
    RoundPDNView,
    RoundPublishSlashView,
    RoundPublishView,
    RoundScheduleView,
    RoundScoresheetsView,
    StandingsCSVView,
    TournamentPDNSlashView,
    TournamentPDNView,
    TournamentTRFView,
    TournamentViewSet,
)
from tournaments.api_reports import (
    TournamentAcfRatingsView,
    TournamentResultsCSVView,
    TournamentResultsTRFView,
)

# path() routes with converters (the viewsets' lookup_value_converter), not regexes: an id that is
# not 1 to 18 digits matches no route. No format-suffix variants (``/players.json``): no other
# route of the API has them, and they are not in the schema.
router = DefaultRouter(use_regex_path=False)
router.include_format_suffixes = False
router.register("players", PlayerViewSet, basename="player")
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("games", GameViewSet, basename="game")
router.register("clubs", ClubViewSet, basename="club")
router.register("leagues", LeagueViewSet, basename="league")
router.register("league-teams", TeamViewSet, basename="league-team")
router.register("league-fixtures", FixtureViewSet, basename="league-fixture")
router.register("league-postponements", PostponementViewSet, basename="league-postponement")
router.register("events", EventViewSet, basename="event")
router.register("title-matches", TitleMatchViewSet, basename="title-match")
router.register("series", SeriesViewSet, basename="series")

urlpatterns = [
    path("me/", MeView.as_view(), name="me"),
    path("me/tokens/", MyTokensView.as_view(), name="me-tokens"),
    path("me/tokens/<id:pk>/", MyTokenDetailView.as_view(), name="me-token"),
    path("games/<id:pk>/moves/", GameMovesView.as_view(), name="game-moves"),
    path("games/<id:pk>/rulings/", GameRulingsView.as_view(), name="game-rulings"),
    path("games/<id:pk>/referees/", GameRefereesView.as_view(), name="game-referees"),
    path("games/<id:pk>/confirm/", GameConfirmView.as_view(), name="game-confirm"),
    path("games/<id:pk>/scoresheet/", GameScoresheetView.as_view(), name="game-scoresheet"),
    path("games/<id:pk>/log/", GameLogView.as_view(), name="game-log"),
    path("games/<id:pk>/log/verify", GameLogVerifyView.as_view(), name="game-log-verify"),
    path("games/<id:pk>/log/verify/", GameLogVerifySlashView.as_view()),
    path("games/<id:pk>/pdn", GamePDNView.as_view(), name="game-pdn"),
    path("games/<id:pk>/pdn/", GamePDNSlashView.as_view()),
    path("player-claims/<id:claim>/decision", PlayerClaimDecisionView.as_view(), name="player-claim-decision"),
    path("player-claims/<id:claim>/withdraw", PlayerClaimWithdrawView.as_view(), name="player-claim-withdraw"),
    path("tournaments/<slug:slug>/entries/<id:player>/", EntryDetailView.as_view(), name="tournament-entry"),
    path("tournaments/<slug:slug>/rounds/<id:number>/", RoundDetailView.as_view(), name="tournament-round"),
    path("tournaments/<slug:slug>/rounds/<id:number>/pairings/", RoundPairingsView.as_view(),
         name="tournament-round-pairings"),
    path("tournaments/<slug:slug>/rounds/<id:number>/forfeits/", RoundForfeitView.as_view(),
         name="tournament-round-forfeits"),
    path("tournaments/<slug:slug>/rounds/<id:number>/scoresheets/", RoundScoresheetsView.as_view(),
         name="tournament-round-scoresheets"),
    path("tournaments/<slug:slug>/rounds/<id:number>/publish", RoundPublishView.as_view(),
         name="tournament-round-publish"),
    path("tournaments/<slug:slug>/rounds/<id:number>/publish/", RoundPublishSlashView.as_view()),
    path("tournaments/<slug:slug>/rounds/<id:number>/schedule", RoundScheduleView.as_view(),
         name="tournament-round-schedule"),
    path("tournaments/<slug:slug>/players/<id:player>/", PlayerRecordView.as_view(), name="tournament-player"),
    path("tournaments/<slug:slug>/standings.csv", StandingsCSVView.as_view(), name="tournament-standings-csv"),
    path("tournaments/<slug:slug>/crosstable.csv", CrosstableCSVView.as_view(), name="tournament-crosstable-csv"),
    path("tournaments/<slug:slug>/pdn", TournamentPDNView.as_view(), name="tournament-pdn"),
    path("tournaments/<slug:slug>/rounds/<id:number>/pdn", RoundPDNView.as_view(), name="round-pdn"),
    path("tournaments/<slug:slug>/notifications/", TournamentNotificationsView.as_view(),
         name="tournament-notifications"),
    path("tournaments/<slug:slug>/calendar.ics", TournamentCalendarView.as_view(), name="tournament-calendar"),
    path("players/<id:pk>/calendar.ics", PlayerCalendarView.as_view(), name="player-calendar"),
    path("tournaments/<slug:slug>/trf", TournamentTRFView.as_view(), name="tournament-trf"),
    path("tournaments/<slug:slug>/results.csv", TournamentResultsCSVView.as_view(), name="tournament-results-csv"),
    path("tournaments/<slug:slug>/results.trf", TournamentResultsTRFView.as_view(), name="tournament-results-trf"),
    path("tournaments/<slug:slug>/acf-ratings.csv", TournamentAcfRatingsView.as_view(), name="tournament-acf-ratings"),
    path("tournaments/<slug:slug>/pdn/", TournamentPDNSlashView.as_view()),
    path("clubs/<id:pk>/players/<id:player>/", ClubPlayerView.as_view(), name="club-player"),
    path("rating-lists/import", RatingListImportView.as_view(), name="rating-list-import"),
    path("webhooks/", WebhooksView.as_view(), name="webhooks"),
    path("webhooks/<id:pk>/", WebhookDetailView.as_view(), name="webhook"),
    path("webhooks/<id:pk>/deliveries/", WebhookDeliveriesView.as_view(), name="webhook-deliveries"),
    path("webhook-deliveries/<id:pk>/resend", DeliveryResendView.as_view(), name="webhook-delivery-resend"),
    *router.urls,
]
