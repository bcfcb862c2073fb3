from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """The players registry, below games and tournaments."""

    name = "players"
