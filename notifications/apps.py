"""Messages to people (email after the commit, exactly once, each person's choices): the top layer."""
from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """Email notifications, above leagues and events; hears the tournament log and finished games."""

    name = "notifications"

    def ready(self) -> None:
        from arbitration.signals import game_finished
        from leagues.signals import league_logged
        from notifications.tasks import on_game_finished, on_league_logged, on_tournament_logged
        from tournaments.signals import tournament_logged

        tournament_logged.connect(on_tournament_logged, dispatch_uid="notifications.on_tournament_logged")
        game_finished.connect(on_game_finished, dispatch_uid="notifications.on_game_finished")
        league_logged.connect(on_league_logged, dispatch_uid="notifications.on_league_logged")
