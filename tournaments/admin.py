from django.contrib import admin

from tournaments.models import Entry, Player, Round, Tournament


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "federation", "federation_id", "rating", "user")
    search_fields = ("name", "club", "federation_id")


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ("player",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "format", "rule_set", "status", "start_date")
    list_filter = ("format", "status")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("directors", "referees")
    inlines = [EntryInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "status")
    list_filter = ("status",)
