from django.contrib import admin

from players.models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "federation", "federation_id", "rating", "user")
    search_fields = ("name", "club", "federation_id")
