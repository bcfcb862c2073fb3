"""League pages: the table and fixtures, a team match, a captain's page (his sheet and card), a team's iCal."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, time, timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST
from icalendar import Calendar, Event

from core.api import AppError
from core.http import conditional
from core.limits import MAX_ID
from leagues import selectors, services
from leagues.access import captain_side, is_secretary
from leagues.core.match import home_colour
from leagues.errors import InvalidInput
from leagues.models import Division, Fixture, League, LeagueLog, RosterEntry, Season, Team

#: The length of a match night in a team's calendar.
MATCH_HOURS = 3
#: The evening start a fixture's calendar event gets (local time is the club's; the feed says so).
MATCH_START = time(19, 30)


def _scope(league: League, request: HttpRequest) -> tuple[Season | None, Division | None]:
    def pick(name: str) -> int | None:
        value = request.GET.get(name, "")
        return int(value) if value.isdigit() and 1 <= int(value) <= MAX_ID else None

    seasons = Season.objects.filter(league=league).select_related("league")
    divisions = Division.objects.filter(league=league)
    season_id, division_id = pick("season"), pick("division")
    season = seasons.filter(pk=season_id).first() if season_id else seasons.order_by("-id").first()
    division = divisions.filter(pk=division_id).first() if division_id else divisions.order_by("rank").first()
    return season, division


@require_GET
def league_list(request: HttpRequest) -> HttpResponse:
    """Lists the leagues."""
    return render(request, "leagues/list.html", {"leagues": League.objects.order_by("name")})


@require_GET
def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Shows a division's table and its fixtures and results for a season (the latest, the top division)."""
    league = get_object_or_404(League, slug=slug)
    season, division = _scope(league, request)
    table = selectors.division_table(season, division) if season and division else []
    team_id = request.GET.get("team", "")
    team = (Team.objects.filter(season=season, division=division, pk=int(team_id)).first()
            if season and division and team_id.isdigit() and int(team_id) <= MAX_ID else None)
    fixtures = selectors.division_fixtures(season, division, team=team) if season and division else []
    rounds: dict[int, list[Fixture]] = {}
    for fixture in fixtures:
        rounds.setdefault(fixture.round, []).append(fixture)
    return render(request, "leagues/detail.html", {
        "league": league, "season": season, "division": division, "table": table, "rounds": sorted(rounds.items()),
        "seasons": league.seasons.order_by("-id"), "divisions": league.divisions.order_by("rank"),
        "secretary": is_secretary(league, request.user), "team": team,
    })


@require_GET
def fixture_detail(request: HttpRequest, fixture_id: int) -> HttpResponse:
    """Shows a team match: its sheets as the viewer may see them, its boards' games, its card; a captain's and
    the secretary's forms."""
    fixture = get_object_or_404(Fixture.objects.select_related("home", "away", "season__league", "division"),
                                pk=fixture_id)
    side = captain_side(fixture, request.user)
    team = fixture.home if side == "home" else fixture.away if side == "away" else None
    roster = list(RosterEntry.objects.filter(team=team).select_related("player").order_by("board")) if team else []
    sheets = selectors.fixture_sheets(fixture, request.user)
    mine = {line["board"]: line["player"] for line in (sheets.get(side) or [])} if side else {}
    if side and not mine:  # a first sheet starts from the roster's nominated order
        mine = {entry.board: entry.player_id for entry in roster}
    boards = range(1, fixture.season.league.board_count + 1)
    return render(request, "leagues/fixture.html", {
        "fixture": fixture, "league": fixture.season.league, "side": side, "sheets": sheets, "roster": roster,
        "boards": [{"number": b, "chosen": mine.get(b)} for b in boards],
        "games": fixture.board_games.select_related("game").order_by("board", "number"),
        "games_per_board": range(1, fixture.season.league.games_per_board + 1),
        "secretary": is_secretary(fixture.season.league, request.user),
        "sheets_open": fixture.status in (Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED),
    })


@require_GET
def fixture_print(request: HttpRequest, fixture_id: int) -> HttpResponse:
    """Prints a team match's card (boards, colours, result boxes, the captains' signatures) and its boards'
    scoresheets; a sheet the viewer may not see yet prints as blank lines."""
    fixture = get_object_or_404(Fixture.objects.select_related("home", "away", "season__league", "division", "cup"),
                                pk=fixture_id)
    league = fixture.season.league
    sheets = selectors.fixture_sheets(fixture, request.user)
    names = {side: {line["board"]: line["name"] for line in (sheets.get(side) or [])} for side in ("home", "away")}
    games = range(1, league.games_per_board + 1)
    rows = [{"board": b, "home": names["home"].get(b), "away": names["away"].get(b),
             "colours": [home_colour(b, g).capitalize() for g in games]} for b in range(1, league.board_count + 1)]
    return render(request, "leagues/print.html", {"fixture": fixture, "league": league, "rows": rows,
                                                  "games_per_board": games, "lines": range(1, 26)})


@login_required
@require_GET
def captain_page(request: HttpRequest) -> HttpResponse:
    """Shows a captain his teams' fixtures: the next one first, with what waits on him."""
    fixtures = selectors.captain_fixtures(request.user)
    today = timezone.localdate()
    upcoming = [f for f in fixtures if f.status in (Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED,
                                                     Fixture.Status.CARD_ENTERED)
                and (f.date is None or f.date >= today - timedelta(days=14))]
    return render(request, "leagues/captain.html", {
        "fixtures": fixtures, "next_fixture": upcoming[0] if upcoming else None,
        "teams": Team.objects.filter(captain=request.user).select_related("season__league", "division"),
    })


def _fixture_act(request: HttpRequest, fixture_id: int, action: Callable[[Fixture], str]) -> HttpResponse:
    """Runs a write on a team match from its page: refused (403) to anyone who is neither one of its captains
    nor its league's secretary; the service's refusal comes back as a message."""
    fixture = get_object_or_404(Fixture.objects.select_related("home", "away", "season__league"), pk=fixture_id)
    if captain_side(fixture, request.user) is None and not is_secretary(fixture.season.league, request.user):
        raise PermissionDenied("Only the two captains and the league's secretary act on this match.")
    try:
        for name, values in request.POST.lists():
            if any("\x00" in v or len(v) > 2000 for v in values):
                raise InvalidInput.field(name[:40], "Too long, or a NUL character.")
        messages.success(request, action(fixture))
    except AppError as error:
        fields = error.details.get("fields") if isinstance(error.details, dict) else None
        detail = "; ".join(f"{name}: {' '.join(problems)}" for name, problems in fields.items()) if fields else ""
        messages.error(request, f"{error.message} {detail}".strip())
    return redirect(reverse("leagues:fixture", kwargs={"fixture_id": fixture.pk}))


def _player_or_none(value: str) -> int | None:
    if value in ("", "none"):
        return None
    if not value.isdigit() or not 1 <= int(value) <= MAX_ID:
        raise InvalidInput.field("board", f"{value[:20]!r} is not a player.")
    return int(value)


@login_required
@require_POST
def fixture_sheet(request: HttpRequest, fixture_id: int) -> HttpResponse:
    def act(fixture: Fixture) -> str:
        count = fixture.season.league.board_count
        players = [_player_or_none(request.POST.get(f"board{b}", "")) for b in range(1, count + 1)]
        services.sheet_submit(acting_user=request.user, fixture=fixture, players=players)
        return "Your team sheet is in. The other side sees it once theirs is in too."
    return _fixture_act(request, fixture_id, act)


@login_required
@require_POST
def fixture_card(request: HttpRequest, fixture_id: int) -> HttpResponse:
    def act(fixture: Fixture) -> str:
        league = fixture.season.league
        boards = [[request.POST.get(f"b{b}g{g}", "") for g in range(1, league.games_per_board + 1)]
                  for b in range(1, league.board_count + 1)]
        services.card_enter(acting_user=request.user, fixture=fixture, boards=boards)
        return "The card is entered; the away captain confirms or disputes it."
    return _fixture_act(request, fixture_id, act)


@login_required
@require_POST
def fixture_confirm(request: HttpRequest, fixture_id: int) -> HttpResponse:
    def act(fixture: Fixture) -> str:
        if request.POST.get("decision") == "dispute":
            services.card_dispute(acting_user=request.user, fixture=fixture, reason=request.POST.get("reason", ""))
            return "The card is disputed; the league's secretary decides."
        services.card_confirm(acting_user=request.user, fixture=fixture)
        return "The card is confirmed: the result stands."
    return _fixture_act(request, fixture_id, act)


@require_GET
def team_calendar(request: HttpRequest, team_id: int) -> HttpResponse:
    """Returns a team's fixtures as an iCalendar feed (one event a dated fixture, byes left out), with an entity
    tag: a calendar program that polls with ``If-None-Match`` gets 304 until the feed says something else.

    Each event's stamp is the league's last logged change (not the time of the request), so that the same
    fixtures read the same and keep their tag."""
    team = get_object_or_404(Team.objects.select_related("season__league"), pk=team_id)
    stamp = (LeagueLog.objects.filter(league=team.season.league).order_by("-seq")
             .values_list("created_at", flat=True).first())
    calendar = Calendar()
    calendar.add("prodid", "-//Draughts leagues//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", f"{team.name}: {team.season}")
    fixtures = (Fixture.objects.filter(home=team) | Fixture.objects.filter(away=team)).select_related("home", "away")
    for fixture in fixtures.exclude(away__isnull=True).exclude(date__isnull=True).order_by("date"):
        event = Event()
        event.add("uid", f"league-fixture-{fixture.pk}@{request.get_host()}")
        event.add("summary", f"{fixture.home.name} v {fixture.away.name} ({team.season.league.name}, round "
                             f"{fixture.round})")
        start = datetime.combine(fixture.date, MATCH_START)
        event.add("dtstart", start)
        event.add("dtend", start + timedelta(hours=MATCH_HOURS))
        event.add("dtstamp", stamp or start)
        event.add("location", f"{fixture.home.club_name} (home)")
        event.add("status", "CANCELLED" if fixture.status == Fixture.Status.POSTPONED else "CONFIRMED")
        event.add("url", request.build_absolute_uri(reverse("leagues:fixture", kwargs={"fixture_id": fixture.pk})))
        calendar.add_component(event)
    response = HttpResponse(calendar.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="team-{team.pk}.ics"'
    return conditional(request, response)


