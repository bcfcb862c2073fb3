from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Tournaments, rounds, pairings, standings and ratings; hears of finished games from arbitration."""

    name = "tournaments"

    def ready(self) -> None:
        from arbitration.access import register_tournament_hook
        from arbitration.signals import game_finished
        from clubs.services import register_tournaments_hook
        from tournaments.services.hook import hook
        from tournaments.services.tournaments import plays_under_another
        from tournaments.tasks import on_game_finished

        register_tournament_hook(hook)
        register_tournaments_hook(plays_under_another)

        game_finished.connect(on_game_finished, dispatch_uid="tournaments.on_game_finished")
