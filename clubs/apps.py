from django.apps import AppConfig


class ClubsConfig(AppConfig):
    """Clubs, above players (a club lists its players; a player points at his club by the ORM only)."""

    name = "clubs"
