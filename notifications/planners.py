"""Who is told of an event, and what each is told: one planner per kind, reading the lower apps.

A planner reads the event's rows as they are committed and returns a ``Plan``: the event's key
(the same whenever the same event is planned again, so that the rows' unique constraint makes a
second run send nothing) and, per player, the message's context. It decides nothing about the
game: the board, the colours, the ballot and the result are what the tournaments and arbitration
services recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from arbitration.rulings.corrections import live_ending
from games.models import Game
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
