from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    """Teams, team matches, leagues and the cup, above tournaments (they reuse its pure cores)."""

    name = "leagues"
