"""Team matches, leagues, seasons, result cards and the team cup (issue 26): above tournaments."""
from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    """Teams, team matches, leagues and the cup, above tournaments (they reuse its pure cores)."""

    name = "leagues"

    def ready(self) -> None:
        from arbitration.signals import game_finished
        from clubs.pages import ClubPageSection, club_page_section_register
        from leagues.selectors import club_teams
        from leagues.tasks import on_game_finished

        game_finished.connect(on_game_finished, dispatch_uid="leagues.on_game_finished")
        club_page_section_register(ClubPageSection(key="teams", title="Teams and next matches",
                                                   template="leagues/club_section.html", context=club_teams))
