"""A read-only admin for the arbitration log: entries are shown, never added, changed or deleted."""

from django.contrib import admin

from arbitration.models import LogEntry
from core.admin import ReadOnlyAdmin


class AppendOnlyAdmin(ReadOnlyAdmin):
    """An admin for an append-only log: rows are shown, never added, changed or deleted here."""


@admin.register(LogEntry)
class LogEntryAdmin(AppendOnlyAdmin):
    list_display = ("game", "seq", "kind", "side", "law", "actor", "created_at", "ply")
    list_filter = ("kind",)
    search_fields = ("note",)
    list_select_related = ("game", "actor")
    ordering = ("game", "seq")

    def get_readonly_fields(self, request, obj=None):  # noqa: ANN001, ANN201
        return [field.name for field in self.model._meta.fields]
