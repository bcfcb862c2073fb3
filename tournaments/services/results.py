"""Results: a director records or corrects a game's result through the arbitration log.

A game's result lives on the game and its arbitration log (``arbitration.services``); the
tournament derives match results and standings from the games, so a correction is a
superseding ruling on the game's log plus a row on the tournament's log, and the standings,
computed from the games, follow. A finished game of a tied knockout match gets its match the
next 2-game block (``match_game_finished``, through ``rounds.knockout_extend_tied``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from accounts.roles import is_director
from arbitration.models import LogEntry
from arbitration.services import ruling_issue
from games.models import Game, Termination
from tournaments.models import Match, MatchGame, Round, Tournament, TournamentLog
from tournaments.services.access import authorise_director, log_write, tournament_lock
from tournaments.services.errors import InvalidInput, RoundConflict, WrongTournamentStatus
from tournaments.services.hook import result_recorded_by_service
from tournaments.services.outcomes import match_outcomes
from tournaments.services.rounds import knockout_extend_tied

logger = logging.getLogger(__name__)


@transaction.atomic
def game_result_set(*, acting_user: Any, tournament: Tournament, game_id: int, result: str, reason: str,
                    forfeit: bool = False) -> Game:
    """Sets a game's result by a director, with a reason (``forfeit``: the loser did not play it, Law 30).

    A game in progress is adjudicated. A finished game's ending entry is superseded by a
    correction on its log (which puts the game back in play) and the new result adjudicated;
    the tournament's log gets a ``result_corrected`` row superseding the game's previous one.
    Refused once the tournament is finished (its results and ratings are final) and, in a
    knockout, when it would change who won a match after the next round was paired.
    """
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    if tournament.status == Tournament.Status.FINISHED:
        raise WrongTournamentStatus("The tournament is finished: its results, and the ratings computed from them, "
                                    "are final.", details={"status": tournament.status})
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput.field("reason", "Say why the result is set (it goes on the log).")
    if result not in Game.Result.values:
        raise InvalidInput.field("result", "1-0 (Black won), 0-1 (White won) or 1/2-1/2.")
    game = Game.objects.select_for_update().filter(pk=game_id, round__tournament=tournament).first()
    if game is None:
        raise InvalidInput.field("game", f"Game {game_id} is not a game of this tournament.")
    before = game.result
    match_game = MatchGame.objects.filter(game=game).select_related("match__round").first()
    knockout_match = match_game.match if match_game and tournament.format == Tournament.Format.KNOCKOUT else None
    winner_before = _knockout_winner(tournament, knockout_match) if knockout_match else None
    termination = Termination.FORFEIT_ABSENCE if forfeit else None
    if game.status == Game.Status.FINISHED and game.result == result and (
            termination is None or game.termination == termination):
        raise RoundConflict(f"Game {game_id} already has the result {result}.")
    if forfeit and result == Game.Result.DRAW:
        raise InvalidInput.field("result", "A forfeit is won by one side: 1-0 or 0-1.")
    with result_recorded_by_service():  # the row below records both rulings
        if game.status == Game.Status.FINISHED:
            end = (LogEntry.objects.filter(game=game, kind=LogEntry.Kind.GAME_END, superseded_by__isnull=True)
                   .order_by("-seq").first())
            if end is not None:
                ruling_issue(acting_user=acting_user, game_id=game.pk, kind=LogEntry.Kind.CORRECTION, note=reason,
                             payload={"entry": end.seq, "reason": reason})
        ruling_issue(acting_user=acting_user, game_id=game.pk, kind=LogEntry.Kind.ADJUDICATE, note=reason,
                     payload={"result": result, "reason": reason}, termination=termination)
    game.refresh_from_db()
    previous = (TournamentLog.objects.filter(tournament=tournament, data__game=game.pk,
                                             kind__in=[TournamentLog.Kind.RESULT_RECORDED,
                                                       TournamentLog.Kind.RESULT_CORRECTED],
                                             superseded_by__isnull=True).order_by("-id").first())
    log_write(tournament=tournament, kind=TournamentLog.Kind.RESULT_CORRECTED if before else
              TournamentLog.Kind.RESULT_RECORDED, actor=acting_user, reason=reason, supersedes=previous,
              data={"game": game.pk, "before": before, "result": game.result, **({"forfeit": True} if forfeit else {})})
    if knockout_match is not None:
        _knockout_check_correction(tournament, knockout_match, winner_before, game)
        knockout_extend_tied(acting_user=acting_user, round_=knockout_match.round)
    return game


@transaction.atomic
def game_result_undo(*, acting_user: Any, tournament: Tournament, game_id: int, reason: str = "") -> Game:
    """Takes back a result a director entered, while its round is open: the game is played (or entered) again.

    The game's ending entry is superseded by a correction on its log, which puts the game back
    in play, and the tournament's log gets a ``result_corrected`` row with no result that
    supersedes the game's previous one; nothing is erased. Refused once the round is finished
    (the next round is paired) or the tournament is, for a result not entered by a director
    (a game ended at the board is corrected with a result instead), and in a knockout once the
    match was extended by a tie-break block.
    """
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    if tournament.status == Tournament.Status.FINISHED:
        raise WrongTournamentStatus("The tournament is finished: its results, and the ratings computed from them, "
                                    "are final.", details={"status": tournament.status})
    reason = (reason or "").strip() or "Undone from the results grid."
    game = Game.objects.select_for_update().select_related("round").filter(pk=game_id,
                                                                           round__tournament=tournament).first()
    if game is None:
        raise InvalidInput.field("game", f"Game {game_id} is not a game of this tournament.")
    if game.round.status == Round.Status.FINISHED:
        raise RoundConflict(f"Round {game.round.number} is closed (the next round is paired): game {game_id}'s "
                            "result is corrected, not undone.", details={"game": game_id, "round": game.round.number})
    end = (LogEntry.objects.filter(game=game, kind=LogEntry.Kind.GAME_END, superseded_by__isnull=True)
           .order_by("-seq").first())
    if game.status != Game.Status.FINISHED or end is None:
        raise RoundConflict(f"Game {game_id} has no result to undo.", details={"game": game_id})
    ruled = LogEntry.objects.filter(game=game, seq=end.seq - 1, kind=LogEntry.Kind.ADJUDICATE).exists()
    if not ruled:
        raise RoundConflict(f"Game {game_id}'s result was not entered by a director (it ended at the board): "
                            "correct it with a result and a reason instead.", details={"game": game_id})
    match_game = MatchGame.objects.filter(game=game).select_related("match").first()
    if (match_game is not None and tournament.format == Tournament.Format.KNOCKOUT
            and match_game.match.match_games.filter(number__gt=match_game.match.games_planned).exists()):
        raise RoundConflict(f"Game {game_id}: its match was extended by a tie-break block; correct the result "
                            "instead.", details={"game": game_id})
    before = game.result
    with result_recorded_by_service():
        ruling_issue(acting_user=acting_user, game_id=game.pk, kind=LogEntry.Kind.CORRECTION, note=reason,
                     payload={"entry": end.seq, "reason": reason})
    game.refresh_from_db()
    previous = (TournamentLog.objects.filter(tournament=tournament, data__game=game.pk,
                                             kind__in=[TournamentLog.Kind.RESULT_RECORDED,
                                                       TournamentLog.Kind.RESULT_CORRECTED],
                                             superseded_by__isnull=True).order_by("-id").first())
    log_write(tournament=tournament, kind=TournamentLog.Kind.RESULT_CORRECTED, actor=acting_user, reason=reason,
              supersedes=previous, data={"game": game.pk, "before": before, "result": None, "undone": True})
    return game


def _decided_before_its_last_block(outcome: Any) -> bool:
    """Tells whether a stage before the match's last one (regular games, then 2-game blocks) now decides it."""
    points = []
    for _game_id, black, _white, result in outcome.results:
        if result is None:
            break
        points.append(0.5 if result == Game.Result.DRAW else
                      1.0 if (black if result == Game.Result.BLACK_WINS else _white) == outcome.one else 0.0)
    for end in range(outcome.games_planned, outcome.games_total, 2):
        if end <= len(points) and sum(points[:end]) * 2 != end:
            return True
    return False


def _knockout_winner(tournament: Tournament, match: Match) -> int | None:
    outcome = match_outcomes(tournament, rounds=[match.round]).get(match.pk)
    return outcome.winner if outcome else None


def _knockout_check_correction(tournament: Tournament, match: Match, winner_before: int | None, game: Game) -> None:
    """Refuses (409, rolling the result back) a knockout result that changes who won a match once
    the next round is paired, or that decides a match before tie-break games already played."""
    outcome = match_outcomes(tournament, rounds=[match.round]).get(match.pk)
    if outcome is None:
        return
    board = f"board {match.board} of round {match.round.number}"
    if outcome.problem or _decided_before_its_last_block(outcome):
        raise RoundConflict(
            f"Game {game.pk}: this result would decide the match on {board} before its tie-break games, which "
            "were played because it was tied; it is refused.", details={"game": game.pk, "board": match.board})
    later = Round.objects.filter(tournament=tournament, number__gt=match.round.number).order_by("number").first()
    if later is not None and winner_before is not None and outcome.winner != winner_before:
        what = "its preview (discard it first)" if later.status == Round.Status.PREVIEW else "it is published"
        raise RoundConflict(
            f"Game {game.pk}: this result would change who won the match on {board}, but round {later.number} is "
            f"already paired ({what}); the knockout cannot go back.",
            details={"game": game.pk, "board": match.board, "round": later.number})


def _acting_director(tournament: Tournament) -> Any:
    """Returns a director of the tournament to create games on its behalf (the first by id), or None."""
    for user in tournament.directors.order_by("id"):
        if is_director(user):
            return user
    return None


@transaction.atomic
def match_game_finished(*, game_id: int) -> list[int]:
    """Follows up a finished game of a tournament: a tied knockout match gets its next 2-game block.

    Called after the commit of whatever finished the game (a move, a ruling, the clock, a
    director's result), through the ``game_finished`` signal and the ``tournaments.game_finished`` task (after the
    commit); idempotent, so a second call, or one
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
