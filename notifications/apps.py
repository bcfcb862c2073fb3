"""Messages to people (email after the commit, exactly once, each person's choices): the top layer."""
from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """Email notifications, above leagues and events; hears the tournament log and finished games."""

    name = "notifications"

    def ready(self) -> None:
        from arbitration.signals import game_finished
        from notifications.tasks import on_game_finished, on_tournament_logged
        from tournaments.signals import tournament_logged

        tournament_logged.connect(on_tournament_logged, dispatch_uid="notifications.on_tournament_logged")
        game_finished.connect(on_game_finished, dispatch_uid="notifications.on_game_finished")
