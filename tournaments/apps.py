from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Tournaments, rounds, pairings, standings and ratings; hears of finished games from arbitration."""

    name = "tournaments"

    def ready(self) -> None:
        from arbitration.signals import game_finished
        from tournaments.tasks import on_game_finished

        game_finished.connect(on_game_finished, dispatch_uid="tournaments.on_game_finished")
