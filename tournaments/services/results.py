"""Results: a director records or corrects a game's result through the arbitration log.

A game's result lives on the game and its arbitration log (``arbitration.services``); the
tournament derives match results and standings from the games, so a correction is a
superseding ruling on the game's log plus a row on the tournament's log, and the standings,
computed from the games, follow.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from arbitration.models import LogEntry
from arbitration.services import ruling_issue
from games.models import Game
from tournaments.models import Match, MatchGame, Round, Tournament, TournamentLog
from tournaments.services.errors import InvalidInput, RoundConflict
from tournaments.services.tournaments import authorise_director, log_write, tournament_lock


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


def knockout_extend_tied(*, acting_user: Any, round_: Round) -> list[int]:
    """Adds a 2-game block to each tied knockout match of the round that needs one; returns their boards.

    Runs inside the caller's transaction (the tournament row locked).
    """
    from tournaments.selectors import match_outcomes
    from tournaments.services.rounds import _ballots_used, match_games_create

    tournament = round_.tournament
    if tournament.format != Tournament.Format.KNOCKOUT or round_.status == Round.Status.PREVIEW:
        return []
    outcomes = match_outcomes(tournament, rounds=[round_])
    due = [o for o in outcomes.values() if o.kind == Match.Kind.PLAYED and o.tied and not o.complete]
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
        log_write(tournament=tournament, kind=TournamentLog.Kind.MATCH_EXTENDED, actor=acting_user,
                  data={"round": round_.number, "board": match.board, "games": [first, first + 1]})
        boards.append(match.board)
    return boards
