"""Plain reads of games: one game with its players, the games list."""

from __future__ import annotations

from typing import Any

from games.models import Game


def game_get(game_id: int) -> Game:
    """Returns the game with its players (404 through the caller when there is none)."""
    return Game.objects.select_related("black", "white", "clock").get(pk=game_id)


def game_list() -> Any:
    """Returns the games with their players, for the list endpoint."""
    return Game.objects.select_related("black", "white").prefetch_related("referees").order_by("id")
