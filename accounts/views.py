"""Pages of the signed-in user's own account: his API tokens."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.models import ApiToken
from accounts.services import token_create, token_days_bounds, token_revoke
from core.api import NotFoundError


@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    """Lists the user's API tokens; POST makes one (its key shown once) or, with ``revoke``, deletes one."""
    default_days, max_days = token_days_bounds()
    new_key = None
    error = None
    if request.method == "POST":
        if "revoke" in request.POST:
            try:
                token_revoke(user=request.user, token_id=int(request.POST["revoke"]))
            except (ValueError, NotFoundError):
                error = "You have no such token."
            else:
                messages.success(request, "The token is revoked.")
                return redirect("accounts:tokens")
        else:
            name = request.POST.get("name", "").strip()
            try:
                days = int(request.POST.get("days") or default_days)
                if not name:
                    raise ValueError("a token needs a name")
                if "\x00" in name:
                    raise ValueError("a name holds no NUL character")
                _, new_key = token_create(user=request.user, name=name, days=days)
            except ValueError as failure:
                error = f"No token made: {failure}."
    return render(request, "accounts/tokens.html", {
        "tokens": ApiToken.objects.filter(user=request.user), "new_key": new_key, "error": error,
        "default_days": default_days, "max_days": max_days,
    }, status=400 if error else 200)
