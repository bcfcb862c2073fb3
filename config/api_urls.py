"""The routes of the REST API, version 1 (mounted at /api/v1/)."""

from django.urls import path
from rest_framework.routers import DefaultRouter

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
from tournaments.api import (
    CrosstableCSVView,
    EntryDetailView,
    PlayerRecordView,
    PlayerViewSet,
    RoundDetailView,
    RoundForfeitView,
    RoundPairingsView,
    RoundPublishSlashView,
    RoundPublishView,
    RoundScoresheetsView,
    StandingsCSVView,
    TournamentPDNSlashView,
    TournamentPDNView,
    TournamentViewSet,
)

router = DefaultRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("games", GameViewSet, basename="game")

urlpatterns = [
    path("me/", MeView.as_view(), name="me"),
    path("me/tokens/", MyTokensView.as_view(), name="me-tokens"),
    path("me/tokens/<int:pk>/", MyTokenDetailView.as_view(), name="me-token"),
    path("games/<int:pk>/moves/", GameMovesView.as_view(), name="game-moves"),
    path("games/<int:pk>/rulings/", GameRulingsView.as_view(), name="game-rulings"),
    path("games/<int:pk>/referees/", GameRefereesView.as_view(), name="game-referees"),
    path("games/<int:pk>/confirm/", GameConfirmView.as_view(), name="game-confirm"),
    path("games/<int:pk>/scoresheet/", GameScoresheetView.as_view(), name="game-scoresheet"),
    path("games/<int:pk>/log/", GameLogView.as_view(), name="game-log"),
    path("games/<int:pk>/log/verify", GameLogVerifyView.as_view(), name="game-log-verify"),
    path("games/<int:pk>/log/verify/", GameLogVerifySlashView.as_view()),
    path("games/<int:pk>/pdn", GamePDNView.as_view(), name="game-pdn"),
    path("games/<int:pk>/pdn/", GamePDNSlashView.as_view()),
    path("tournaments/<slug:slug>/entries/<int:player>/", EntryDetailView.as_view(), name="tournament-entry"),
    path("tournaments/<slug:slug>/rounds/<int:number>/", RoundDetailView.as_view(), name="tournament-round"),
    path("tournaments/<slug:slug>/rounds/<int:number>/pairings/", RoundPairingsView.as_view(),
         name="tournament-round-pairings"),
    path("tournaments/<slug:slug>/rounds/<int:number>/forfeits/", RoundForfeitView.as_view(),
         name="tournament-round-forfeits"),
    path("tournaments/<slug:slug>/rounds/<int:number>/scoresheets/", RoundScoresheetsView.as_view(),
         name="tournament-round-scoresheets"),
    path("tournaments/<slug:slug>/rounds/<int:number>/publish", RoundPublishView.as_view(),
         name="tournament-round-publish"),
    path("tournaments/<slug:slug>/rounds/<int:number>/publish/", RoundPublishSlashView.as_view()),
    path("tournaments/<slug:slug>/players/<int:player>/", PlayerRecordView.as_view(), name="tournament-player"),
    path("tournaments/<slug:slug>/standings.csv", StandingsCSVView.as_view(), name="tournament-standings-csv"),
    path("tournaments/<slug:slug>/crosstable.csv", CrosstableCSVView.as_view(), name="tournament-crosstable-csv"),
    path("tournaments/<slug:slug>/pdn", TournamentPDNView.as_view(), name="tournament-pdn"),
    path("tournaments/<slug:slug>/pdn/", TournamentPDNSlashView.as_view()),
    *router.urls,
]
