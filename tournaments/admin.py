from django.contrib import admin

from arbitration.admin import AppendOnlyAdmin
from tournaments.models import (
    Entry,
    Match,
    MatchGame,
    RatingHistory,
    Round,
    Tournament,
    TournamentLog,
)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ("player",)
    fields = ("player", "status", "seed", "first_round", "withdrawn_after_round")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "format", "rule_set", "opening", "games_per_match", "status", "start_date")
    list_filter = ("format", "status", "opening", "rated")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("directors", "referees")
    readonly_fields = ("status",)  # the status moves only through tournament_status_set (the dashboard)
    inlines = [EntryInline]


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ("board", "kind", "player_one", "player_two", "first_black", "lots_seed", "edited")
    readonly_fields = fields
    can_delete = False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "status", "published_at")
    list_filter = ("status",)
    readonly_fields = ("status", "published_at")  # they move only through round_status_set (the services)
    inlines = [MatchInline]


class MatchGameInline(admin.TabularInline):
    model = MatchGame
    extra = 0
    fields = ("number", "game", "ballot_number")
    readonly_fields = fields
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("round", "board", "kind", "player_one", "player_two", "first_black")
    list_filter = ("kind",)
    readonly_fields = ("lots_seed", "first_black", "ballot_seed", "ballots")
    inlines = [MatchGameInline]


@admin.register(TournamentLog)
class TournamentLogAdmin(AppendOnlyAdmin):
    """The log is append-only: shown, never edited or deleted here."""

    list_display = ("tournament", "id", "kind", "actor", "from_status", "to_status", "reason", "created_at")
    list_filter = ("kind",)


@admin.register(RatingHistory)
class RatingHistoryAdmin(admin.ModelAdmin):
    list_display = ("player", "tournament", "rating_before", "rating_after", "games", "created_at")
    search_fields = ("player__name",)
