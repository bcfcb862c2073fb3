"""Pages: the embeds for club websites (``/embed/...``: small, no sign-in, followed by push, allowed in
frames) and a tournament's webhooks page (its directors' and the administrators')."""

from __future__ import annotations

from typing import Any

from csp.decorators import csp_replace
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET, require_POST

from core.api import AppError
from games.models import Game
from integrations import services, tasks
from integrations.models import Webhook, WebhookDelivery
from leagues import selectors as league_selectors
from leagues.models import Division, League, Season
from tournaments import selectors
from tournaments.models import Round, Tournament


def embeddable(view: Any) -> Any:
    """Lets a page be shown in a frame of any site in ``EMBED_FRAME_ANCESTORS`` (CSP frame-ancestors, no
    X-Frame-Options); every page not wrapped so keeps ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``."""
    return xframe_options_exempt(csp_replace({"frame-ancestors": settings.EMBED_FRAME_ANCESTORS})(view))


def _published_rounds(tournament: Tournament) -> list[Round]:
    return [r for r in selectors.rounds_with_matches(tournament) if r.status != Round.Status.PREVIEW]


@require_GET
@embeddable
def embed_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings table of a tournament, for a frame on another site; follows results by push."""
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(request, "integrations/embed_standings.html", {
        "tournament": tournament, "standings": selectors.standings(tournament),
        "tiebreaks": list(tournament.tiebreaks or [])})


@require_GET
@embeddable
def embed_pairings(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A published round's pairings and results, for a frame on another site; follows results by push."""
    tournament = get_object_or_404(Tournament, slug=slug)
    rounds = _published_rounds(tournament)
    round_ = next((r for r in rounds if r.number == number), None)
    if round_ is None:
        raise Http404("There is no such published round.")
    selectors.match_scores_attach(tournament, [round_])
    return render(request, "integrations/embed_pairings.html", {"tournament": tournament, "round": round_})


@require_GET
@embeddable
def embed_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The current round's boards (``?board=N``: one of them), each following play by push."""
    tournament = get_object_or_404(Tournament, slug=slug)
    current = tournament.rounds.exclude(status=Round.Status.PREVIEW).order_by("-number").first()
    games = Game.objects.filter(round=current).select_related("black", "white").order_by("id")
    board = request.GET.get("board", "")
    if board:
        if not board.isdigit() or len(board) > 4:
            raise Http404("The board is a number.")
        games = games.filter(match_game__match__board=int(board))
    return render(request, "integrations/embed_live.html", {
        "tournament": tournament, "round": current, "games": list(games) if current is not None else []})


#: How often (seconds) the league table's embed reloads itself: the leagues send no push yet.
LEAGUE_TABLE_REFRESH = 300


def _pick(request: HttpRequest, name: str) -> int | None:
    value = request.GET.get(name, "")
    if not value:
        return None
    if not value.isdigit() or len(value) > 9:
        raise Http404(f"The {name} is a number.")
    return int(value)


@require_GET
@embeddable
def embed_league_table(request: HttpRequest, slug: str) -> HttpResponse:
    """A league division's table for a season (``?season=&division=``; the latest season, the top division),
    for a frame on another site; reloads itself every ``LEAGUE_TABLE_REFRESH`` seconds."""
    league = get_object_or_404(League, slug=slug)
    season_id, division_id = _pick(request, "season"), _pick(request, "division")
    seasons = Season.objects.filter(league=league).select_related("league")
    divisions = Division.objects.filter(league=league)
    season = seasons.filter(pk=season_id).first() if season_id else seasons.order_by("-id").first()
    division = divisions.filter(pk=division_id).first() if division_id else divisions.order_by("rank").first()
    if season is None or division is None:
        raise Http404("The league has no such season or division.")
    return render(request, "integrations/embed_league_table.html", {
        "league": league, "season": season, "division": division, "refresh": LEAGUE_TABLE_REFRESH,
        "table": league_selectors.division_table(season, division)})


# The league table's embed (above) is not a tournament's: its snippet is on the league's page.
EMBEDS = [("standings", "Standings"), ("pairings", "A round's pairings"), ("live", "Live boards")]


def embed_snippets(request: HttpRequest, tournament: Tournament) -> list[dict[str, str]]:
    """The copy-paste iframe snippets of a tournament's embeds (for its page)."""
    base = request.build_absolute_uri("/embed/tournaments/") + tournament.slug
    current = tournament.rounds.exclude(status=Round.Status.PREVIEW).order_by("-number").values_list(
        "number", flat=True).first()
    urls = {"standings": f"{base}/standings/", "live": f"{base}/live/"}
    if current is not None:
        urls["pairings"] = f"{base}/rounds/{current}/pairings/"
    return [{"label": label, "url": urls[kind],
             "code": f'<iframe src="{urls[kind]}" title="{tournament.name}: {label.lower()}" '
                     f'width="100%" height="420" loading="lazy"></iframe>'}
            for kind, label in EMBEDS if kind in urls]


def _tournament_managed(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not services.may_manage(request.user, tournament):
        raise Http404("There is no such page.")
    return tournament


@login_required
@require_GET
def webhooks_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A tournament's webhooks, their delivery logs (the last 50 each) and the form to register one."""
    tournament = _tournament_managed(request, slug)
    hooks = list(Webhook.objects.filter(tournament=tournament).order_by("id"))
    for hook in hooks:
        hook.recent = list(WebhookDelivery.objects.filter(webhook=hook).order_by("-id")[:50])
    return render(request, "integrations/webhooks.html", {
        "tournament": tournament, "hooks": hooks, "events": Webhook.Event.choices,
        "snippets": embed_snippets(request, tournament)})


@login_required
@require_POST
def webhooks_add(request: HttpRequest, slug: str) -> HttpResponse:
    """Registers a webhook of the tournament from the page's form."""
    tournament = _tournament_managed(request, slug)
    try:
        hook = services.webhook_create(acting_user=request.user, tournament=tournament,
                                       url=request.POST.get("url", "")[:500], events=request.POST.getlist("events"))
    except AppError as error:
        fields = error.details.get("fields", {})
        messages.error(request, " ".join(m for ms in fields.values() for m in ms) or error.message)
    else:
        messages.success(request, f"Webhook {hook.pk} registered. Its secret: {hook.secret}")
    return redirect("integrations:webhooks", slug=tournament.slug)


@login_required
@require_POST
def webhooks_toggle(request: HttpRequest, slug: str, webhook_id: int) -> HttpResponse:
    """Turns a webhook of the tournament on or off."""
    tournament = _tournament_managed(request, slug)
    hook = get_object_or_404(Webhook, pk=webhook_id, tournament=tournament)
    services.webhook_update(acting_user=request.user, webhook_id=hook.pk, active=not hook.active)
    return redirect("integrations:webhooks", slug=tournament.slug)


@login_required
@require_POST
def webhooks_delete(request: HttpRequest, slug: str, webhook_id: int) -> HttpResponse:
    """Deletes a webhook of the tournament and its log."""
    tournament = _tournament_managed(request, slug)
    hook = get_object_or_404(Webhook, pk=webhook_id, tournament=tournament)
    services.webhook_delete(acting_user=request.user, webhook_id=hook.pk)
    messages.success(request, f"Webhook {webhook_id} deleted.")
    return redirect("integrations:webhooks", slug=tournament.slug)


@login_required
@require_POST
def delivery_resend(request: HttpRequest, slug: str, delivery_id: int) -> HttpResponse:
    """Sends a delivery of one of the tournament's webhooks again."""
    tournament = _tournament_managed(request, slug)
    delivery = get_object_or_404(WebhookDelivery, pk=delivery_id, webhook__tournament=tournament)
    with transaction.atomic():
        services.delivery_resend(acting_user=request.user, delivery_id=delivery.pk)
        transaction.on_commit(lambda: tasks.stream_send.delay(delivery.stream_id))
    messages.success(request, f"Delivery {delivery.pk} will be sent again.")
    return redirect("integrations:webhooks", slug=tournament.slug)
