from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Players, tournaments, rounds, pairings and standings."""

    name = "tournaments"
