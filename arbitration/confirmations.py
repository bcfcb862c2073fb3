"""Players confirm a finished game's result: the digital form of signing the scoresheet.

Each player (the account linked to the game's black or white player) confirms the result in
force once; the confirmation goes on the game's log (``result_confirmed``, his side, the result
and the ``game_end`` entry it confirms). A result changed afterwards (a correction, an appeal
decided) needs confirming again: only confirmations after the ending in force count. A player
who disagrees does not confirm: he files an appeal (Law 28) on the game's ending.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from arbitration.access import ensure_open, player_side
from arbitration.errors import GameNotFinished, NotAllowed
from arbitration.lifecycle import save_game
from arbitration.log import log_append
from arbitration.models import LogEntry
from arbitration.persistence import game_lock
from arbitration.rulings.corrections import live_ending
from games.models import Game

Kind = LogEntry.Kind
SIDES = ("black", "white")


def _signatures(rows: Any) -> dict[int, dict[str, dict[str, Any] | None]]:
    """Folds log rows ``(game_id, kind, side, seq, created_at)`` in seq order, ``game_end`` (in force) and
    ``result_confirmed`` ones, into who confirmed each game's result in force: a new ending wipes what
    was confirmed before it."""
    signed: dict[int, dict[str, dict[str, Any] | None]] = {}
    for game_id, kind, side, seq, created_at in rows:
        if kind == Kind.GAME_END or game_id not in signed:
            signed[game_id] = dict.fromkeys(SIDES)
        if kind == Kind.RESULT_CONFIRMED and side in SIDES and signed[game_id][side] is None:
            signed[game_id][side] = {"seq": seq, "at": created_at.isoformat()}
    return signed


def _signature_rows(game_ids: Any) -> Any:
    return (LogEntry.objects.filter(game_id__in=game_ids, kind__in=(Kind.GAME_END, Kind.RESULT_CONFIRMED),
                                    superseded_by__isnull=True)
            .order_by("game_id", "seq").values_list("game_id", "kind", "side", "seq", "created_at"))


def result_confirmations(game: Game) -> dict[str, dict[str, Any] | None]:
    """Returns who confirmed the result in force: ``{"black": {"seq", "at"} | None, "white": ...}``.

    One query, for a finished game only (an unfinished game has no result to confirm).
    """
    if not game.is_finished:
        return dict.fromkeys(SIDES)
    return _signatures(_signature_rows([game.pk])).get(game.pk, dict.fromkeys(SIDES))


@transaction.atomic
def result_confirm(*, acting_user: Any, game_id: int) -> Game:
    """Records that the acting user, a player of the finished game, confirms its result; returns the game.

    403 for anyone but the game's two players (their linked accounts), 409 ``game_not_finished``
    before the end, 409 ``tournament_finished`` once the tournament is finished. Confirming twice
    is the same as once (nothing more is written).
    """
    game = game_lock(game_id)
    side = player_side(game, acting_user)
    if side is None:
        raise NotAllowed("Only a player of this game (the account linked to him) may confirm its result.")
    if not game.is_finished:
        raise GameNotFinished("The game is not finished: there is no result to confirm yet.")
    ensure_open(game, acting_user)
    if result_confirmations(game)[side] is not None:
        return game
    ending = live_ending(game)
    log_append(game=game, kind=Kind.RESULT_CONFIRMED, side=side, actor=acting_user,
               data={"result": game.result, "termination": game.termination,
                     "game_end": ending.seq if ending is not None else None})
    save_game(game)
    return game


def unconfirmed_results(games: list[Game]) -> list[tuple[Game, list[str]]]:
    """Returns the finished games among ``games`` whose result a player has not confirmed, with the sides
    missing (a director's view of the scoresheets not signed). One query for all of them."""
    finished = {game.pk: game for game in games if game.is_finished}
    if not finished:
        return []
    signed = _signatures(_signature_rows(list(finished)))
    missing = {pk: [side for side, mark in signed.get(pk, dict.fromkeys(SIDES)).items() if mark is None]
               for pk in finished}
    return [(finished[pk], missing[pk]) for pk in sorted(finished) if missing[pk]]
