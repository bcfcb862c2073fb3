from django.apps import AppConfig
from django.db.models.signals import post_save


class TournamentsConfig(AppConfig):
    """Players, tournaments, rounds, pairings and standings."""

    name = "tournaments"

    def ready(self) -> None:
        from tournaments.receivers import game_saved

        post_save.connect(game_saved, sender="games.Game", dispatch_uid="tournaments.game_saved")
