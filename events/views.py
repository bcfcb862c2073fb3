"""Pages of events: the list, an event's page (every section's standings and games being played), its desk
(one registration and check-in for all sections), its printed programme; a title match's page and scoresheet;
a series' standings.

The desk's forms post to views that call the same services as the API; a refused request comes back as a
message on the desk.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.privacy import names_shown_to
from accounts.roles import is_director
from core.api import AppError, shortened
from core.limits import MAX_ID
from core.text import control_characters_message
from events import selectors, services
from events.matchplay import half_points_text
from events.models import Event, Series, TitleMatch
from players.models import Player
from tournaments import services as tournament_services
from tournaments.models import Tournament
from tournaments.services import InvalidInput
from tournaments.svg import position_svg


def _get(model: Any, slug: str) -> Any:
    found = model.objects.filter(slug=slug).first()
    if found is None:
        raise Http404("No such page.")
    return found


def _int(value: Any, field: str, what: str) -> int:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError) as error:
        raise InvalidInput.field(field, f"{what} must be a number, not {shortened(repr(value), 40)}.") from error
    if not 1 <= number <= MAX_ID:
        raise InvalidInput.field(field, f"{what} must be a number from 1 to {MAX_ID}.")
    return number


@require_GET
def event_list(request: HttpRequest) -> HttpResponse:
    """Shows every event with its sections, the title matches and the series; a director's forms to make them."""
    director = is_director(request.user)
    return render(request, "events/list.html", {
        "events": selectors.event_list(), "matches": selectors.title_match_list(), "series": selectors.series_list(),
        "is_director": director, "players": Player.objects.order_by("name", "id") if director else [],
        "tournaments": Tournament.objects.order_by("-start_date", "name") if director else [],
        "formats": Tournament.Format.choices, "openings": Tournament.Opening.choices})


def _made(request: HttpRequest, make: Any, done: Any, back: str) -> HttpResponse:
    """Runs a creation; on success goes to ``done(obj)``, on a refusal back to ``back`` with the reason."""
    if not is_director(request.user):
        raise PermissionDenied("Only a tournament director may do this.")
    try:
        made = make()
    except AppError as error:
        fields = error.details.get("fields") if isinstance(error.details, dict) else None
        detail = "; ".join(f"{name}: {' '.join(problems)}" for name, problems in fields.items()) if fields else ""
        messages.error(request, f"{error.message} {detail}".strip())
        return redirect(back)
    messages.success(request, f"{made} is made.")
    return redirect(done(made))


def _text(request: HttpRequest, name: str, limit: int = 200) -> str:
    value = request.POST.get(name, "")
    problem = control_characters_message(value)
    if problem:
        raise InvalidInput.field(name, problem)
    return value.strip()[:limit]


def _number_or_none(request: HttpRequest, name: str, what: str) -> int | None:
    value = request.POST.get(name, "").strip()
    return _int(value, name, what) if value else None


@login_required
@require_POST
def event_new(request: HttpRequest) -> HttpResponse:
    def make() -> Event:
        start = _date(request.POST.get("start_date", ""), "start_date")
        end = _date(request.POST.get("end_date", ""), "end_date") or start
        if start is None:
            raise InvalidInput.field("start_date", "The event's first day.")
        return services.event_create(acting_user=request.user, name=_text(request, "name"),
                                     slug=_text(request, "slug", 80), venue=_text(request, "venue"),
                                     organiser=_text(request, "organiser"), start_date=start, end_date=end)
    return _made(request, make, lambda e: reverse("events:desk", kwargs={"slug": e.slug}), reverse("events:list"))


@login_required
@require_POST
def section_new(request: HttpRequest, slug: str) -> HttpResponse:
    def act(event: Event) -> str:
        fmt = request.POST.get("format", "")
        settings: dict[str, Any] = {
            "format": fmt, "opening": request.POST.get("opening", ""),
            "games_per_match": _int(request.POST.get("games_per_match", "2"), "games_per_match", "Games a round"),
        }
        if fmt == Tournament.Format.SWISS:
            settings["round_count"] = _int(request.POST.get("rounds", ""), "rounds", "The number of rounds")
        barred = [_int(v, "barred_by", "A section") for v in request.POST.getlist("barred_by")]
        titles = [t.strip() for t in _text(request, "titles").split(",") if t.strip()]
        section = services.section_create(
            acting_user=request.user, event=event, name=_text(request, "name", 120),
            rating_min=_number_or_none(request, "rating_min", "The band's bottom"),
            rating_max=_number_or_none(request, "rating_max", "The band's top"),
            unrated_allowed=request.POST.get("unrated_allowed") == "on",
            age_min=_number_or_none(request, "age_min", "The youngest age"),
            age_max=_number_or_none(request, "age_max", "The oldest age"), titles=titles, barred_by=barred,
            **settings)
        return f"The section {section.name} is made: its tournament is open for registration."
    return _desk_act(request, slug, act)


@login_required
@require_POST
def title_match_new(request: HttpRequest) -> HttpResponse:
    def make() -> TitleMatch:
        return services.title_match_create(
            acting_user=request.user, name=_text(request, "name"), slug=_text(request, "slug", 80),
            player_one=_int(request.POST.get("player_one"), "player_one", "The first player"),
            player_two=_int(request.POST.get("player_two"), "player_two", "The second player"),
            games=_int(request.POST.get("games"), "games", "The number of games"),
            play_out=request.POST.get("play_out") == "on", opening=request.POST.get("opening", ""))
    return _made(request, make, lambda m: reverse("events:match", kwargs={"slug": m.slug}), reverse("events:list"))


@login_required
@require_POST
def series_new(request: HttpRequest) -> HttpResponse:
    def make() -> Series:
        try:
            points = [float(p) for p in _text(request, "place_points").replace(" ", "").split(",") if p]
        except ValueError as error:
            raise InvalidInput.field("place_points", "Numbers separated by commas: 10, 6, 4.") from error
        stages = request.POST.getlist("stages")[:50]
        if any(control_characters_message(stage) for stage in stages):
            raise InvalidInput.field("stages", "Tournaments by slug.")
        return services.series_create(
            acting_user=request.user, name=_text(request, "name"), slug=_text(request, "slug", 80),
            method=request.POST.get("method", ""), place_points=points,
            best_of=_number_or_none(request, "best_of", "Best K"), stages=stages)
    return _made(request, make, lambda s: reverse("events:series", kwargs={"slug": s.slug}), reverse("events:list"))


@require_GET
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Shows the event: each section's rules, standings and games being played, and its title matches."""
    event = _get(Event, slug)
    sections = selectors.event_overview(event)
    for view in sections:
        view.boards = [{"game": g, "svg": position_svg(g.fen, size=160)} for g in view.live]
    return render(request, "events/detail.html", {
        "event": event, "sections": sections, "matches": event.title_matches.select_related("player_one", "player_two"),
        "is_event_director": services.directs(event, request.user)})


@login_required
@require_GET
def event_desk(request: HttpRequest, slug: str) -> HttpResponse:
    """Shows the event's one desk: register a player in a section, check players in, pair each section."""
    event = _get(Event, slug)
    if not services.directs(event, request.user):
        raise PermissionDenied("Only a director of this event keeps its desk.")
    sections = selectors.sections_of(event)
    for section in sections:
        section.next_round = tournament_services.next_round_number(section.tournament)
        section.preview = section.tournament.rounds.filter(status="preview").first()
    return render(request, "events/desk.html", {
        "event": event, "sections": sections, "lines": selectors.desk(event),
        "players": Player.objects.order_by("name", "id"), "formats": Tournament.Format.choices,
        "openings": Tournament.Opening.choices})


def _desk_act(request: HttpRequest, slug: str, action: Any) -> HttpResponse:
    event = _get(Event, slug)
    if not services.directs(event, request.user):
        raise PermissionDenied("Only a director of this event keeps its desk.")
    try:
        message = action(event)
    except AppError as error:
        fields = error.details.get("fields") if isinstance(error.details, dict) else None
        detail = "; ".join(f"{name}: {' '.join(problems)}" for name, problems in fields.items()) if fields else ""
        messages.error(request, f"{error.message} {detail}".strip())
    else:
        messages.success(request, message)
    return redirect(reverse("events:desk", kwargs={"slug": slug}))


def _date(value: str, field: str) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value.strip())
    except ValueError as error:
        raise InvalidInput.field(field, "A date, YYYY-MM-DD.") from error


@login_required
@require_POST
def desk_register(request: HttpRequest, slug: str) -> HttpResponse:
    def act(event: Event) -> str:
        registration = services.registration_add(
            acting_user=request.user, event=event, section=_int(request.POST.get("section"), "section", "The section"),
            player=_int(request.POST.get("player"), "player", "The player"),
            birth_date=_date(request.POST.get("birth_date", ""), "birth_date"),
            title=request.POST.get("title", "")[:40])
        return f"{registration.player.name} is registered in {registration.section.name}."
    return _desk_act(request, slug, act)


@login_required
@require_POST
def desk_check_in(request: HttpRequest, slug: str) -> HttpResponse:
    def act(event: Event) -> str:
        present = request.POST.get("present", "yes") == "yes"
        player = _int(request.POST.get("player"), "player", "The player")
        sections = services.event_check_in(acting_user=request.user, event=event, player=player, present=present)
        name = Player.objects.filter(pk=player).values_list("name", flat=True).first()
        return f"{name} is marked {'present' if present else 'absent'} in {', '.join(s.name for s in sections)}."
    return _desk_act(request, slug, act)


@login_required
@require_POST
def desk_pair(request: HttpRequest, slug: str) -> HttpResponse:
    def act(event: Event) -> str:
        section_id = _int(request.POST.get("section"), "section", "The section")
        section = event.sections.select_related("tournament").filter(pk=section_id).first()
        if section is None:
            raise InvalidInput.field("section", "Not a section of this event.")
        tournament = section.tournament
        if tournament.status == "registration":
            tournament = tournament_services.tournament_status_set(acting_user=request.user, tournament=tournament,
                                                                   status="running")
        round_ = tournament_services.round_pair(acting_user=request.user, tournament=tournament)
        return (f"{section.name}: round {round_.number} is paired; check the preview and publish it on the "
                f"section's page.")
    return _desk_act(request, slug, act)


@require_GET
def event_programme(request: HttpRequest, slug: str) -> HttpResponse:
    """Prints the event's programme: dates, venue, organiser, each section's format, rules and staff, the matches.
    The staff are named by username to a reader signed in, by their role to the public (``accounts.privacy``)."""
    event = _get(Event, slug)
    sections = selectors.sections_of(event)
    for section in sections:
        section.rules = selectors.rules_text(section)
        section.entries = section.tournament.entries.filter(status="active").count()
    return render(request, "events/print/programme.html", {
        "event": event, "sections": sections, "show_names": names_shown_to(request.user),
        "matches": event.title_matches.select_related("player_one", "player_two")})


def _match_context(match: TitleMatch) -> dict[str, Any]:
    line, rows = selectors.title_match_detail(match)
    winner = {1: match.player_one, 2: match.player_two}.get(line.winner)
    # the score line says it is over as soon as the last game ends (the follow-up task records it a moment later)
    status = TitleMatch.Status.FINISHED if services.match_over(match, line) else match.status
    return {"match": match, "line": line, "rows": rows, "winner": winner, "status": TitleMatch.Status(status).label,
            "score": (half_points_text(line.score[0]), half_points_text(line.score[1]))}


@require_GET
def title_match_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Shows a title match: the players, the openings drawn, the score line game by game, the result."""
    match = _get(TitleMatch, slug)
    return render(request, "events/match.html", {**_match_context(match),
                                                 "is_match_director": services.directs(match, request.user)})


@login_required
@require_POST
def title_match_start(request: HttpRequest, slug: str) -> HttpResponse:
    match = _get(TitleMatch, slug)
    if not services.directs(match, request.user):
        raise PermissionDenied("Only a director of this match may start it.")
    try:
        services.title_match_start(acting_user=request.user, match=match)
    except AppError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "The match has started: game 1 is on.")
    return redirect(reverse("events:match", kwargs={"slug": slug}))


@require_GET
def title_match_scoresheet(request: HttpRequest, slug: str) -> HttpResponse:
    """Prints the match's scoresheet: one line a game, its colours and opening, to be filled in and signed."""
    return render(request, "events/print/match_scoresheet.html", _match_context(_get(TitleMatch, slug)))


@require_GET
def series_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Shows a series: its stages (linked) and its standings, best K of N."""
    series = _get(Series, slug)
    stages, table = selectors.series_table(series)
    rows = [{"row": row, "player": player, "cells": list(zip(row.by_stage, row.counted, strict=True))}
            for row, player in table]
    return render(request, "events/series.html", {"series": series, "stages": stages, "rows": rows})
