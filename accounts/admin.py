"""Users and groups are administered through django.contrib.auth; API tokens here (list, revoke)."""

from django.contrib import admin

from accounts.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Administrators see every token (never its key) and revoke one by deleting it."""

    list_display = ["name", "user", "prefix", "created", "expires", "last_used"]
    list_filter = ["expires"]
    search_fields = ["user__username", "name", "prefix"]
    readonly_fields = ["user", "name", "prefix", "created", "expires", "last_used"]
    exclude = ["digest"]
    actions = ["delete_selected"]

    def has_add_permission(self, request) -> bool:  # noqa: ANN001
        return False  # a key is made by its owner (page, API) or issue_token, and shown once

    def has_change_permission(self, request, obj=None) -> bool:  # noqa: ANN001
        return False
