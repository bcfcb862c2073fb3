"""Tournaments and players in the admin.

Tournaments, rounds, matches, entries and ratings are shown here and changed only through the
services (the director's pages and the API), where each write is authorised for its tournament
and goes on the tournament's log; the admin would write past both. Players may be registered and
changed here by an administrator, through the same services as the pages, so that each change is
in the registry's log (``PlayerLog``, "as federation administrator").
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from arbitration.admin import AppendOnlyAdmin
from core.admin import ReadOnlyAdmin
from players.models import Player
from tournaments import services
from tournaments.models import (
    Entry,
    Match,
    MatchGame,
    RatingHistory,
    Round,
    Tournament,
    TournamentLog,
)
from tournaments.services.tournaments import PLAYER_FIELDS


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("player", "status", "seed", "first_round", "withdrawn_after_round")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "slug", "format", "rule_set", "opening", "games_per_match", "status", "start_date")
    list_filter = ("format", "status", "opening", "rated")
    inlines = [EntryInline]


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ("board", "kind", "player_one", "player_two", "first_black", "lots_seed", "edited")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "status", "published_at")
    list_filter = ("status",)
    inlines = [MatchInline]


class MatchGameInline(admin.TabularInline):
    model = MatchGame
    extra = 0
    fields = ("number", "game", "ballot_number")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("round", "board", "kind", "player_one", "player_two", "first_black")
    list_filter = ("kind",)
    inlines = [MatchGameInline]


@admin.register(TournamentLog)
class TournamentLogAdmin(AppendOnlyAdmin):
    """The log is append-only: shown, never edited or deleted here."""

    list_display = ("tournament", "seq", "kind", "actor", "from_status", "to_status", "reason", "created_at")
    list_filter = ("kind",)


@admin.register(RatingHistory)
class RatingHistoryAdmin(ReadOnlyAdmin):
    list_display = ("player", "tournament", "rating_before", "rating_after", "games", "created_at")
    search_fields = ("player__name",)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    """Administrators register and change players through the registry's services (each change logged).

    Players are never deleted (their games and the record keep them); the Glicko-2 figures
    move only with a rated tournament's results.
    """

    list_display = ("name", "club", "federation", "federation_id", "rating", "user")
    search_fields = ("name", "club", "federation_id")
    fields = PLAYER_FIELDS

    def has_add_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        values = {name: form.cleaned_data.get(name) for name in PLAYER_FIELDS}
        for name in ("club", "federation", "federation_id"):
            values[name] = values[name] or ""
        if change:
            changed = {name: values[name] for name in form.changed_data if name in PLAYER_FIELDS}
            saved = services.player_update(acting_user=request.user, player=obj, **changed)
        else:
            saved = services.player_create(acting_user=request.user, **values)
        obj.pk = saved.pk

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        pass  # a player has no many-to-many fields of its own; the services wrote him whole
