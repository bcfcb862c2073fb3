"""Who is told of an event, and what each is told: one planner per kind, reading the lower apps.

A planner reads the event's rows as they are committed and returns a ``Plan``: the event's key
(the same whenever the same event is planned again, so that the rows' unique constraint makes a
second run send nothing) and, per player, the message's context. It decides nothing about the
game: the board, the colours, the ballot and the result are what the tournaments and arbitration
services recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from arbitration.rulings.corrections import live_ending
from games.models import Game
from leagues.models import Fixture, LeagueLog, Postponement, SheetLine
from notifications.models import Kind
from players.models import Player
from tournaments.models import Entry, Match, Round, Tournament, TournamentLog


@dataclass
class Plan:
    """An event to tell people of: its key, kind, tournament, and a context per player."""

    event: str
    kind: str
    tournament_id: int | None
    recipients: list[tuple[Player, dict[str, Any]]] = field(default_factory=list)


def _url(path: str) -> str:
    return settings.SITE_URL + path


def _when(moment: datetime | None) -> str:
    """Says a time as people read it, in the site's time zone (TIME_ZONE), with the zone named."""
    if moment is None:
        return ""
    return f"{timezone.localtime(moment):%A %d %B %Y, %H:%M} ({settings.TIME_ZONE})"


def _tournament_context(tournament: Tournament) -> dict[str, Any]:
    return {"tournament": tournament.name, "tournament_url": _url(reverse("tournaments:detail", args=[tournament.slug])),
            "venue": tournament.venue}


def round_published(round_id: int) -> Plan | None:
    """A round's pairings published: each paired player's board, colour in game 1, opponent, ballot and time."""
    round_ = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_ is None or round_.status == Round.Status.PREVIEW:
        return None
    base = {**_tournament_context(round_.tournament), "round": round_.number,
            "scheduled_at": round_.scheduled_at.isoformat() if round_.scheduled_at else None,
            "scheduled_text": _when(round_.scheduled_at)}
    plan = Plan(event=f"round_published:round:{round_.pk}", kind=Kind.ROUND_PUBLISHED,
                tournament_id=round_.tournament_id)
    matches = (Match.objects.filter(round=round_).select_related("player_one__user", "player_two__user")
               .prefetch_related("match_games").order_by("board"))
    for match in matches:
        games = sorted(match.match_games.all(), key=lambda mg: mg.number)
        first_game = games[0].game_id if games else None
        ballot = match.ballots[0] if match.ballots else None
        for me, opponent in ((match.player_one, match.player_two), (match.player_two, match.player_one)):
            if me is None:
                continue
            colour = None
            if match.kind == Match.Kind.PLAYED and match.first_black_id is not None:
                colour = "Black" if match.first_black_id == me.pk else "White"
            forfeit_won = match.kind == Match.Kind.FORFEIT and match.forfeit_winner_id == me.pk
            plan.recipients.append((me, {
                **base, "board": match.board, "match_kind": match.kind, "colour": colour,
                "opponent": opponent.name if opponent else None, "games": len(games),
                "forfeit_won": forfeit_won,
                "ballot": {"number": ballot["number"], "moves": ballot["moves"]} if ballot else None,
                "game_url": _url(reverse("games:detail", args=[first_game])) if first_game else None,
            }))
    return plan


def result_to_confirm(game_id: int) -> Plan | None:
    """A game finished: each player is asked to confirm the result in force (a new ending asks again)."""
    game = (Game.objects.select_related("black__user", "white__user", "round__tournament")
            .filter(pk=game_id).first())
    if game is None or not game.is_finished:
        return None
    tournament = game.round.tournament if game.round_id else None
    if tournament is not None and tournament.status == Tournament.Status.FINISHED:
        return None  # a finished tournament takes no confirmations (arbitration.confirmations)
    ending = live_ending(game)
    if ending is None:
        return None
    plan = Plan(event=f"result_to_confirm:game:{game.pk}:ending:{ending.seq}", kind=Kind.RESULT_TO_CONFIRM,
                tournament_id=tournament.pk if tournament else None)
    base = {**(_tournament_context(tournament) if tournament else {"tournament": None}),
            "round": game.round.number if game.round_id else None, "game": game.pk,
            "result": game.result, "result_text": game.get_result_display(),
            "termination": game.get_termination_display() if game.termination else "",
            "game_url": _url(reverse("games:detail", args=[game.pk])) + "#signatures"}
    for me, colour, opponent in ((game.black, "Black", game.white), (game.white, "White", game.black)):
        plan.recipients.append((me, {**base, "colour": colour, "opponent": opponent.name}))
    return plan


def appeal_decided(row: TournamentLog) -> Plan | None:
    """An appeal on a tournament game decided: both players are told the decision and the result."""
    data = row.data if isinstance(row.data, dict) else {}
    game = Game.objects.select_related("black__user", "white__user", "round").filter(pk=data.get("game")).first()
    if game is None:
        return None
    plan = Plan(event=f"appeal_decided:game:{game.pk}:appeal:{data.get('appeal')}", kind=Kind.APPEAL_DECIDED,
                tournament_id=row.tournament_id)
    base = {**_tournament_context(row.tournament), "round": game.round.number if game.round_id else None,
            "game": game.pk, "decision": data.get("decision"), "result": data.get("result") or game.result,
            "reason": data.get("reason") or row.reason,
            "game_url": _url(reverse("games:detail", args=[game.pk]))}
    for me, colour, opponent in ((game.black, "Black", game.white), (game.white, "White", game.black)):
        plan.recipients.append((me, {**base, "colour": colour, "opponent": opponent.name}))
    return plan


def tournament_reopened(row: TournamentLog) -> Plan | None:
    """A finished tournament back to running: every entered player is told why."""
    if not (row.from_status == Tournament.Status.FINISHED and row.to_status == Tournament.Status.RUNNING):
        return None
    plan = Plan(event=f"tournament_reopened:log:{row.pk}", kind=Kind.TOURNAMENT_REOPENED,
                tournament_id=row.tournament_id)
    base = {**_tournament_context(row.tournament), "reason": row.reason}
    for entry in Entry.objects.filter(tournament_id=row.tournament_id).select_related("player__user").order_by("id"):
        plan.recipients.append((entry.player, dict(base)))
    return plan


def plan_of_log_row(row_id: int) -> Plan | None:
    """Returns the plan of a tournament log row that tells people something, or None."""
    row = TournamentLog.objects.select_related("tournament").filter(pk=row_id).first()
    if row is None:
        return None
    if row.kind == TournamentLog.Kind.ROUND_PUBLISHED:
        round_id = Round.objects.filter(tournament_id=row.tournament_id, number=(row.data or {}).get("round")) \
            .values_list("pk", flat=True).first()
        return round_published(round_id) if round_id else None
    if row.kind == TournamentLog.Kind.APPEAL_DECIDED:
        return appeal_decided(row)
    if row.kind == TournamentLog.Kind.STATUS_CHANGED:
        return tournament_reopened(row)
    return None


#: The tournament log's kinds a planner reads (the receiver hands only these to a task).
LOG_KINDS = frozenset({TournamentLog.Kind.ROUND_PUBLISHED, TournamentLog.Kind.APPEAL_DECIDED,
                       TournamentLog.Kind.STATUS_CHANGED})


# --- leagues ------------------------------------------------------------------------------------

def _captain_players(fixture: Fixture) -> list[tuple[Player, str]]:
    """The captains of the match's two teams, as players (a captain with no linked player is not told)."""
    captains = {team.captain_id: side for side, team in (("home", fixture.home), ("away", fixture.away))
                if team is not None and team.captain_id}
    players = Player.objects.filter(user_id__in=captains).select_related("user").order_by("id")
    return [(player, captains[player.user_id]) for player in players]


def _fixture_context(fixture: Fixture) -> dict[str, Any]:
    league = fixture.season.league
    return {"league": league.name, "home": fixture.home.name, "away": fixture.away.name if fixture.away else None,
            "round": fixture.round, "date": fixture.date.isoformat() if fixture.date else None,
            "date_text": f"{fixture.date:%A %d %B %Y}" if fixture.date else "",
            "fixture_url": _url(reverse("leagues:fixture", args=[fixture.pk]))}


def fixture_reminder(fixture_id: int) -> Plan | None:
    """A league match near its date: the players on either submitted team sheet and both captains, with board
    and side; the key names the date, so a match moved to another date is reminded again."""
    fixture = (Fixture.objects.select_related("home", "away", "season__league").filter(pk=fixture_id).first())
    if fixture is None or fixture.away_id is None or fixture.date is None or fixture.status != Fixture.Status.SCHEDULED:
        return None
    plan = Plan(event=f"fixture_reminder:fixture:{fixture.pk}:on:{fixture.date.isoformat()}",
                kind=Kind.FIXTURE_REMINDER, tournament_id=None)
    base = _fixture_context(fixture)
    seen: set[int] = set()
    lines = (SheetLine.objects.filter(fixture=fixture, player__isnull=False).select_related("player__user")
             .order_by("side", "board"))
    for line in lines:
        team = fixture.home if line.side == "home" else fixture.away
        plan.recipients.append((line.player, {**base, "side": line.side, "team": team.name, "board": line.board,
                                              "captain": False}))
        seen.add(line.player_id)
    for player, side in _captain_players(fixture):
        if player.pk not in seen:
            team = fixture.home if side == "home" else fixture.away
            plan.recipients.append((player, {**base, "side": side, "team": team.name, "board": None,
                                             "captain": True}))
    return plan


def fixtures_due(today: date, days: int) -> list[int]:
    """The scheduled league matches (not byes) dated from ``today`` to ``days`` days after it."""
    return list(Fixture.objects.filter(status=Fixture.Status.SCHEDULED, away__isnull=False, date__gte=today,
                                       date__lte=today + timedelta(days=days)).order_by("date", "id")
                .values_list("pk", flat=True))


def fixture_postponed(row: LeagueLog) -> Plan | None:
    """A postponement asked, agreed, approved or refused (a ``postponement`` row), or a postponed match defaulted at
    its deadline (a ``match_defaulted`` row of a match whose postponement defaulted): both captains are told."""
    data = row.data if isinstance(row.data, dict) else {}
    if row.kind == LeagueLog.Kind.POSTPONEMENT:
        postponement = Postponement.objects.filter(pk=data.get("postponement")).first()
        status = data.get("status")
    elif row.kind == LeagueLog.Kind.MATCH_DEFAULTED and row.actor_id is None:
        postponement = Postponement.objects.filter(fixture_id=data.get("fixture"),
                                                   status=Postponement.Status.DEFAULTED).order_by("-id").first()
        status = Postponement.Status.DEFAULTED
    else:
        return None
    if postponement is None or status not in Postponement.Status.values:
        return None
    fixture = Fixture.objects.select_related("home", "away", "season__league").get(pk=postponement.fixture_id)
    plan = Plan(event=f"fixture_postponed:postponement:{postponement.pk}:{status}", kind=Kind.FIXTURE_POSTPONED,
                tournament_id=None)
    requested = fixture.home if postponement.requested_by == "home" else fixture.away
    base = {**_fixture_context(fixture), "status": status,
            "status_text": Postponement.Status(status).label.lower(), "requested_by": requested.name if requested
            else postponement.requested_by, "reason": postponement.reason if status == "requested" else row.reason,
            "deadline": postponement.deadline.isoformat(), "deadline_text": _when(postponement.deadline)}
    for player, side in _captain_players(fixture):
        plan.recipients.append((player, {**base, "side": side}))
    return plan


def card_corrected(row: LeagueLog) -> Plan | None:
    """A match's card followed a board game whose result was corrected (a ``card_corrected`` row): both captains
    are told, game by game, what the card said and says now, and the match's points before and after when the
    table counts it. One message per row and captain (the row is one change)."""
    data = row.data if isinstance(row.data, dict) else {}
    fixture = Fixture.objects.select_related("home", "away", "season__league").filter(pk=data.get("fixture")).first()
    if fixture is None:
        return None
    before = data.get("before") if isinstance(data.get("before"), dict) else {}
    counted = "home_points" in data
    base = {**_fixture_context(fixture), "status": data.get("status"), "counted": counted,
            "changes": [{"board": c.get("board"), "number": c.get("number"), "game": c.get("game"),
                         "result_before": c.get("result_before"), "result": c.get("result"),
                         "card_before": c.get("card_before"), "card": c.get("card"), "by_hand": c.get("by_hand")}
                        for c in data.get("changes") or []],
            "points_before": f"{before.get('home_points')}-{before.get('away_points')}" if counted else None,
            "points": f"{data.get('home_points')}-{data.get('away_points')}" if counted else None,
            "reason": row.reason}
    plan = Plan(event=f"card_corrected:league_log:{row.pk}", kind=Kind.CARD_CORRECTED, tournament_id=None)
    for player, side in _captain_players(fixture):
        plan.recipients.append((player, {**base, "side": side}))
    return plan


def plan_of_league_log_row(row_id: int) -> Plan | None:
    """Returns the plan of a league log row that tells people something, or None."""
    row = LeagueLog.objects.filter(pk=row_id).first()
    if row is None:
        return None
    if row.kind == LeagueLog.Kind.CARD_CORRECTED:
        return card_corrected(row)
    return fixture_postponed(row)


#: The league log's kinds a planner reads.
LEAGUE_LOG_KINDS = frozenset({LeagueLog.Kind.POSTPONEMENT, LeagueLog.Kind.MATCH_DEFAULTED,
                              LeagueLog.Kind.CARD_CORRECTED})
