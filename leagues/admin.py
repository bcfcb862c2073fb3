"""The leagues in the administration (read-mostly: every change to a league goes through its services and log)."""

from django.contrib import admin

from leagues.models import Cup, Division, Fixture, League, LeagueLog, Season, Team


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "secretary", "board_count", "opening"]
    readonly_fields = ["log_seq", "log_head"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "club_name", "number", "season", "division", "captain"]
    list_filter = ["season"]


@admin.register(Fixture)
class FixtureAdmin(admin.ModelAdmin):
    list_display = ["__str__", "season", "division", "cup", "round", "date", "status", "home_points", "away_points"]
    list_filter = ["status", "season"]

    def has_change_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False  # results change only through the services, on the league's log


@admin.register(LeagueLog)
class LeagueLogAdmin(admin.ModelAdmin):
    list_display = ["league", "seq", "kind", "actor", "created_at"]

    def has_change_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_delete_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_add_permission(self, request) -> bool:  # noqa: ANN001
        return False


admin.site.register([Division, Season, Cup])
