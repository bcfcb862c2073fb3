from django.apps import AppConfig


class IntegrationsConfig(AppConfig):
    """Webhooks, embeds, calendar feeds and exports for rating bodies, above leagues and events."""

    name = "integrations"
