from django.contrib import admin

from games.models import Game


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "black", "white", "rule_set", "status", "result", "round")
    list_filter = ("status", "rule_set")
    filter_horizontal = ("referees",)
    list_select_related = ("black", "white", "round__tournament")
