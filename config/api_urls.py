"""The routes of the REST API, version 1 (mounted at /api/v1/)."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from accounts.api import MeView
from games.api import GameViewSet
from tournaments.api import PlayerViewSet, TournamentViewSet

router = DefaultRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("games", GameViewSet, basename="game")

urlpatterns = [
    path("me/", MeView.as_view(), name="me"),
    *router.urls,
]
