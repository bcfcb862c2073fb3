from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Games and moves, checked by the rules engine in games.rules."""

    name = "games"
