"""API views for games."""

from rest_framework import viewsets

from games.models import Game
from games.serializers import GameSerializer


class GameViewSet(viewsets.ReadOnlyModelViewSet):
    """Lists and shows games."""

    queryset = Game.objects.select_related("black", "white").prefetch_related("referees").order_by("id")
    serializer_class = GameSerializer
    filterset_fields = ["status", "round"]
