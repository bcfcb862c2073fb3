"""The player registry's log in the admin: shown, never written. (The players themselves are
administered from ``tournaments.admin``, through the registry's services, which log each change.)"""

from django.contrib import admin

from core.admin import ReadOnlyAdmin
from players.models import PlayerLog


@admin.register(PlayerLog)
class PlayerLogAdmin(ReadOnlyAdmin):
    list_display = ("player", "kind", "actor", "as_administrator", "created_at")
    list_filter = ("kind", "as_administrator")
    search_fields = ("player__name",)
    list_select_related = ("player", "actor")
