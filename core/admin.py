"""Admin bases shared by the apps: records shown in the admin, never written there."""

from __future__ import annotations

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shows rows, never adds, changes or deletes them.

    For records that change only through the services (the pages and the API), where each
    write is authorised for its game or tournament and logged; the admin would write past both.
    """

    def has_add_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_change_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_delete_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False
