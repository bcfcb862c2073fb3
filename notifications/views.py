"""Pages of notifications: a person's choices, the unsubscribe link (no sign-in), what a tournament sent."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from notifications import selectors, services
from notifications.models import Kind
from tournaments.models import Tournament
from tournaments.services import is_director_of


def _masked(email: str) -> str:
    """Shows an address without giving it away to whoever holds the link: ``j***@example.org``."""
    name, _, domain = (email or "").partition("@")
    return f"{name[:1]}***@{domain}" if domain else "(no address)"


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    """Shows and sets which messages the signed-in person receives."""
    saved = False
    if request.method == "POST":
        wanted = {kind for kind in request.POST.getlist("kind") if kind in Kind.values}
        services.preferences_set(acting_user=request.user, wanted=wanted)
        saved = True
    stopped = services.kinds_unsubscribed(request.user)
    player = getattr(request.user, "player", None)
    return render(request, "notifications/preferences.html", {
        "kinds": [(kind, label, kind not in stopped) for kind, label in Kind.choices], "saved": saved,
        "email": request.user.email, "player": player,
    })


@csrf_exempt  # the signed token is the authority (mail programs' one-click POST, RFC 8058, carries no CSRF token)
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """Stops one kind of message (or all) for the person the signed link names, without signing in.

    GET only asks (a link checker or a mail program's preview must not unsubscribe anyone);
    POST, from the page's button or a mail program's one-click, does it.
    """
    try:
        user, kind = services.unsubscribe_read(token)
    except services.BadUnsubscribeLink as error:
        return render(request, "notifications/unsubscribe.html", {"error": str(error)}, status=400)
    label = "every message" if kind == services.ALL_KINDS else Kind(kind).label.lower()
    done = False
    if request.method == "POST":
        services.unsubscribe(user=user, kind=kind)
        done = True
    return render(request, "notifications/unsubscribe.html", {
        "label": label, "email": _masked(user.email), "done": done, "kind": kind,
        "all_token": services.unsubscribe_token(user.pk, services.ALL_KINDS) if kind != services.ALL_KINDS else None,
    })


@login_required
def tournament_sent(request: HttpRequest, slug: str) -> HttpResponse:
    """Shows a tournament's director what was sent to whom (and who was not told, and why)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not is_director_of(tournament, request.user):
        raise PermissionDenied("Only a director of this tournament sees its messages.")
    return render(request, "notifications/sent.html", {
        "tournament": tournament, "notifications": selectors.tournament_notifications(tournament)[:500],
        "counts": selectors.tournament_counts(tournament),
    })
