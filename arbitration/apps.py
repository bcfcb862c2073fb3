from django.apps import AppConfig


class ArbitrationConfig(AppConfig):
    """Rulings, penalties, draw claims, clocks and the arbitration log."""

    name = "arbitration"
