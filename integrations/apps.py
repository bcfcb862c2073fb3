"""Reaching programs and websites: webhooks, embeds, calendar feeds, rating exports: the top layer."""
from django.apps import AppConfig


class IntegrationsConfig(AppConfig):
    """Webhooks, embeds, calendar feeds and exports for rating bodies, above leagues and events.

    Hears of every committed game log entry (``arbitration.signals.entry_committed``) and tournament
    log row (``tournaments.signals.tournament_logged``) and hands them to its tasks.
    """

    name = "integrations"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from arbitration.signals import entry_committed
        from integrations.models import Webhook
        from integrations.tasks import forget_any_active, on_entry_committed, on_tournament_logged
        from tournaments.signals import tournament_logged

        entry_committed.connect(on_entry_committed, dispatch_uid="integrations.on_entry_committed")
        tournament_logged.connect(on_tournament_logged, dispatch_uid="integrations.on_tournament_logged")
        post_save.connect(forget_any_active, sender=Webhook, dispatch_uid="integrations.forget_any_active_save")
        post_delete.connect(forget_any_active, sender=Webhook, dispatch_uid="integrations.forget_any_active_delete")
