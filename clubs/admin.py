"""Clubs in the admin: shown, never written (clubs change through ``clubs.services``, which authorise and log)."""

from django.contrib import admin

from clubs.models import Club, ClubLog, ClubMember
from core.admin import ReadOnlyAdmin


@admin.register(Club)
class ClubAdmin(ReadOnlyAdmin):
    list_display = ("name", "short_name", "secretary", "created_by", "created_at")
    search_fields = ("name", "short_name")
    list_select_related = ("secretary", "created_by")


@admin.register(ClubMember)
class ClubMemberAdmin(ReadOnlyAdmin):
    list_display = ("player", "club", "joined_at")
    search_fields = ("player__name", "club__name")
    list_select_related = ("player", "club")


@admin.register(ClubLog)
class ClubLogAdmin(ReadOnlyAdmin):
    list_display = ("club", "kind", "actor", "player", "created_at")
    list_filter = ("kind",)
    list_select_related = ("club", "actor", "player")
