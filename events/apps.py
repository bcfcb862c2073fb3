from django.apps import AppConfig


class EventsConfig(AppConfig):
    """Events with sections, title matches, series and rating lists, above tournaments."""

    name = "events"

    def ready(self) -> None:
        from arbitration.signals import game_finished
        from events.demo import demo_event_seed
        from events.tasks import on_game_finished
        from tournaments.demo import demo_extend

        game_finished.connect(on_game_finished, dispatch_uid="events.on_game_finished")
        demo_extend(demo_event_seed)
