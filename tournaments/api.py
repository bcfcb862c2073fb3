"""API views for players and tournaments."""

from rest_framework import mixins, viewsets

from tournaments.models import Player, Tournament
from tournaments.serializers import PlayerSerializer, TournamentSerializer


class PlayerViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Lists and shows players; a director may register one."""

    queryset = Player.objects.order_by("name", "id")
    serializer_class = PlayerSerializer
    filterset_fields = ["club", "federation"]


class TournamentViewSet(viewsets.ReadOnlyModelViewSet):
    """Lists and shows tournaments, addressed by slug."""

    queryset = Tournament.objects.order_by("-start_date", "name")
    serializer_class = TournamentSerializer
    lookup_field = "slug"
    filterset_fields = ["status", "format"]
