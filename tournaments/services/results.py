"""Results: a director records or corrects a game's result through the arbitration log.

A game's result lives on the game and its arbitration log (``arbitration.services``); the
tournament derives match results and standings from the games, so a correction is a
superseding ruling on the game's log plus a row on the tournament's log, and the standings,
computed from the games, follow.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from arbitration.models import LogEntry
from arbitration.services import ruling_issue
from games.models import Game
from tournaments.models import Match, MatchGame, Round, Tournament, TournamentLog
from tournaments.services.errors import InvalidInput, RoundConflict
from tournaments.services.tournaments import authorise_director, log_write, tournament_lock

logger = logging.getLogger(__name__)


@transaction.atomic
def game_result_set(*, acting_user: Any, tournament: Tournament, game_id: int, result: str, reason: str) -> Game:
    """Sets a game's result by a director, with a reason.

    A game in progress is adjudicated. A finished game's ending entry is superseded by a
    correction on its log (which puts the game back in play) and the new result adjudicated;
    the tournament's log gets a ``result_corrected`` row superseding the game's previous one.
    """
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput.field("reason", "Say why the result is set (it goes on the log).")
    if result not in Game.Result.values:
        raise InvalidInput.field("result", "1-0 (Black won), 0-1 (White won) or 1/2-1/2.")
    game = Game.objects.select_for_update().filter(pk=game_id, round__tournament=tournament).first()
    if game is None:
        raise InvalidInput.field("game", f"Game {game_id} is not a game of this tournament.")
    before = game.result
    if game.status == Game.Status.FINISHED:
        if game.result == result:
            raise RoundConflict(f"Game {game_id} already has the result {result}.")
        end = (LogEntry.objects.filter(game=game, kind=LogEntry.Kind.GAME_END, superseded_by__isnull=True)
               .order_by("-seq").first())
        if end is not None:
            ruling_issue(acting_user=acting_user, game_id=game.pk, kind=LogEntry.Kind.CORRECTION, note=reason,
                         payload={"entry": end.seq, "reason": reason})
    ruling_issue(acting_user=acting_user, game_id=game.pk, kind=LogEntry.Kind.ADJUDICATE, note=reason,
                 payload={"result": result, "reason": reason})
    game.refresh_from_db()
    previous = (TournamentLog.objects.filter(tournament=tournament, data__game=game.pk,
                                             kind__in=[TournamentLog.Kind.RESULT_RECORDED,
                                                       TournamentLog.Kind.RESULT_CORRECTED],
                                             superseded_by__isnull=True).order_by("-id").first())
    log_write(tournament=tournament, kind=TournamentLog.Kind.RESULT_CORRECTED if before else
              TournamentLog.Kind.RESULT_RECORDED, actor=acting_user, reason=reason, supersedes=previous,
              data={"game": game.pk, "before": before, "result": game.result})
    match_game = MatchGame.objects.filter(game=game).select_related("match__round").first()
    if match_game is not None and tournament.format == Tournament.Format.KNOCKOUT:
        knockout_extend_tied(acting_user=acting_user, round_=match_game.match.round)
    return game


def knockout_extend_tied(*, acting_user: Any, round_: Round, trigger: str = "") -> list[int]:
    """Adds a 2-game block to each tied knockout match of the round that needs one; returns their boards.

    Runs inside the caller's transaction (the tournament row locked). The games are created by
    ``acting_user`` (a director). With a ``trigger`` (the automatic extension) the log row has
    no actor and says what caused it.
    """
    from tournaments.selectors import match_outcomes
    from tournaments.services.rounds import _ballots_used, match_games_create

    tournament = round_.tournament
    if tournament.format != Tournament.Format.KNOCKOUT or round_.status == Round.Status.PREVIEW:
        return []
    outcomes = match_outcomes(tournament, rounds=[round_])
    due = [o for o in outcomes.values() if o.kind == Match.Kind.PLAYED and o.tied and not o.complete
           and o.games_total and o.games_finished == o.games_total]
    if not due:
        return []
    referees = list(tournament.referees.order_by("username").values_list("username", flat=True))
    used = _ballots_used(tournament)
    boards = []
    for outcome in sorted(due, key=lambda o: o.board):
        match = Match.objects.select_for_update().get(pk=outcome.id)
        if MatchGame.objects.filter(match=match).count() != outcome.games_total:
            continue
        first = outcome.games_total + 1
        match_games_create(
            acting_user=acting_user, tournament=tournament, match=match, first=first, count=2,
            referee_of=(lambda: referees[:1]), used=used,
        )
        match.save(update_fields=["ballots", "ballot_seed"])
        data = {"round": round_.number, "board": match.board, "games": [first, first + 1],
                "score": [outcome.game_points_one, outcome.game_points_two]}
        if trigger:
            data["trigger"] = trigger
        log_write(tournament=tournament, kind=TournamentLog.Kind.MATCH_EXTENDED,
                  actor=None if trigger else acting_user, data=data)
        boards.append(match.board)
    return boards


def _acting_director(tournament: Tournament) -> Any:
    """Returns a director of the tournament to create games on its behalf (the first by id), or None."""
    from accounts.roles import is_director

    for user in tournament.directors.order_by("id"):
        if is_director(user):
            return user
    return None


@transaction.atomic
def match_game_finished(*, game_id: int) -> list[int]:
    """Follows up a finished game of a tournament: a tied knockout match gets its next 2-game block.

    Called after the commit of whatever finished the game (a move, a ruling, the clock, a
    director's result), through ``tournaments.receivers``; idempotent, so a second call, or one
    for a game whose match is decided, does nothing. The block's games are created on behalf of
    the tournament's first director; the log row has no actor and says it was automatic.
    Returns the boards extended.
    """
    match_game = (MatchGame.objects.filter(game_id=game_id)
                  .select_related("match__round__tournament").first())
    if match_game is None:
        return []
    round_ = match_game.match.round
    if round_.tournament.format != Tournament.Format.KNOCKOUT:
        return []
    tournament = tournament_lock(round_.tournament)
    if tournament.status != Tournament.Status.RUNNING:
        return []
    round_.tournament = tournament
    director = _acting_director(tournament)
    if director is None:
        logger.warning("Knockout %s: no director to create the tie-break games of round %s; "
                       "they are added when the next round is paired.", tournament.slug, round_.number)
        return []
    return knockout_extend_tied(acting_user=director, round_=round_,
                                trigger=f"game {game_id} finished: the match is tied")
