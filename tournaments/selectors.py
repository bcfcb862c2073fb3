"""Reads of tournaments that are more than a one-line query."""

from __future__ import annotations

from django.db.models import Count, Prefetch, QuerySet

from games.models import Game
from tournaments.models import Round, Tournament


def tournament_list_for_home() -> QuerySet[Tournament]:
    """Returns the tournaments with their player counts and rounds, games and players prefetched."""
    games = Game.objects.select_related("black", "white").order_by("id")
    rounds = Round.objects.order_by("number").prefetch_related(Prefetch("games", queryset=games))
    return (
        Tournament.objects.annotate(player_count=Count("entries", distinct=True))
        .prefetch_related(Prefetch("rounds", queryset=rounds))
        .order_by("-start_date", "name")
    )
