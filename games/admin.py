"""Games in the admin: shown, never written here (every write to a game is arbitration's: authorised, logged)."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin
from games.models import Game


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("id", "black", "white", "rule_set", "status", "result", "round")
    list_filter = ("status", "rule_set")
    list_select_related = ("black", "white", "round__tournament")
