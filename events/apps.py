from django.apps import AppConfig


class EventsConfig(AppConfig):
    """Events with sections, title matches, series and rating lists, above tournaments."""

    name = "events"
