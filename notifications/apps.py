from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """Email notifications, above leagues and events."""

    name = "notifications"
