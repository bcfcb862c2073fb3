"""Calendar feeds (RFC 5545 iCalendar): a tournament's rounds and a player's games, with stable UIDs.

A round is in a feed once its director has set when it starts (``Round.scheduled_at``, set on the
manage page or ``PUT /api/v1/tournaments/{slug}/rounds/{n}/schedule``); a round without a time is
left out rather than guessed from the tournament's dates. Each event lasts ``ROUND_DURATION``.
The UIDs name what the event is, never when or in what order it is served, so a calendar that
subscribes to the feed updates an event in place when its time changes:

- ``tournament-{id}@{CALENDAR_UID_DOMAIN}``: the tournament itself, all day, start to end date;
- ``tournament-{id}-round-{number}@...``: a round of the tournament's feed;
- ``match-{id}@...``: a player's match (his games against one opponent in one round), in his feed.
  Only published rounds' matches are there (a preview's pairings may still change).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from icalendar import Calendar, Event

from players.models import Player
from tournaments.models import Match, Round, Tournament

ROUND_DURATION = timedelta(hours=3)
PRODID = "-//Draughts tournaments//Calendar feeds//EN"


def _uid(name: str) -> str:
    return f"{name}@{settings.CALENDAR_UID_DOMAIN}"


def _calendar(name: str) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    return calendar


def _event(*, uid: str, summary: str, start: Any, end: Any, stamp: datetime, url: str, location: str = "",
           description: str = "") -> Event:
    event = Event()
    event.add("uid", _uid(uid))
    event.add("dtstamp", stamp)
    event.add("dtstart", start)
    event.add("dtend", end)
    event.add("summary", summary)
    event.add("url", url)
    if location:
        event.add("location", location)
    if description:
        event.add("description", description)
    return event


def tournament_calendar(tournament: Tournament) -> bytes:
    """Returns the iCalendar of a tournament: the tournament (all day, if its dates are set) and each timed round."""
    calendar = _calendar(tournament.name)
    url = settings.SITE_URL + reverse("tournaments:detail", args=[tournament.slug])
    stamp = tournament.created_at
    if tournament.start_date:
        calendar.add_component(_event(
            uid=f"tournament-{tournament.pk}", summary=tournament.name, start=tournament.start_date,
            end=(tournament.end_date or tournament.start_date) + timedelta(days=1), stamp=stamp, url=url,
            location=tournament.venue))
    rounds = Round.objects.filter(tournament=tournament, scheduled_at__isnull=False).order_by("number")
    for round_ in rounds:
        published = round_.status != Round.Status.PREVIEW
        calendar.add_component(_event(
            uid=f"tournament-{tournament.pk}-round-{round_.number}", summary=f"{tournament.name}: round {round_.number}",
            start=round_.scheduled_at, end=round_.scheduled_at + ROUND_DURATION, stamp=stamp, url=url,
            location=tournament.venue,
            description="Pairings published." if published else "Pairings not published yet."))
    return calendar.to_ical()


def player_calendar(player: Player) -> bytes:
    """Returns the iCalendar of a player's matches in published rounds that have a time set."""
    calendar = _calendar(f"{player.name}: games")
    matches = (Match.objects.filter(round__scheduled_at__isnull=False)
               .exclude(round__status=Round.Status.PREVIEW)
               .filter(Q(player_one_id=player.pk) | Q(player_two_id=player.pk))
               .select_related("round__tournament", "player_one", "player_two")
               .prefetch_related("match_games").order_by("round__scheduled_at", "id"))
    for match in matches:
        round_, tournament = match.round, match.round.tournament
        opponent = match.player_two if match.player_one_id == player.pk else match.player_one
        if match.kind == Match.Kind.BYE or opponent is None:
            what = "bye"
        else:
            colour = ("Black" if match.first_black_id == player.pk else "White") if match.first_black_id else ""
            what = f"board {match.board} v {opponent.name}" + (f" ({colour} in game 1)" if colour else "")
            if match.kind == Match.Kind.FORFEIT:
                what += ", forfeit"
        games = sorted(match.match_games.all(), key=lambda mg: mg.number)
        url = (settings.SITE_URL + reverse("games:detail", args=[games[0].game_id]) if games
               else settings.SITE_URL + reverse("tournaments:detail", args=[tournament.slug]))
        description = "\n".join(f"Game {mg.number}: {settings.SITE_URL}{reverse('games:detail', args=[mg.game_id])}"
                                for mg in games)
        calendar.add_component(_event(
            uid=f"match-{match.pk}", summary=f"{tournament.name} round {round_.number}: {what}",
            start=round_.scheduled_at, end=round_.scheduled_at + ROUND_DURATION,
            stamp=round_.published_at or tournament.created_at, url=url, location=tournament.venue,
            description=description))
    return calendar.to_ical()
