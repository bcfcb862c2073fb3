"""A round's games entered from the players' scoresheets, pasted whole as one PDN text.

Each game of the text is matched to the round's game by its ``Black`` and ``White`` tags (the
players' names, as the pairing sheet prints them; case and spacing do not matter). Every game is
checked by the engine before any is written; the first that is refused is named (its place in
the text, its players, the move and the legal moves there) and nothing is entered. Then each is
entered through ``arbitration``'s scoresheet service (its log says from a scoresheet, by whom),
and the tournament's log has one ``scoresheets_entered`` row naming the games.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from arbitration.scoresheets import MAX_SCORESHEET_CHARS, game_scoresheet_enter, scoresheet_check
from core.api import AppError
from games.models import Game
from games.rules.errors import PDNSyntaxError
from games.rules.pdn import PDNGame, read_games
from tournaments.models import Round, Tournament, TournamentLog
from tournaments.services.access import authorise_director, log_write
from tournaments.services.errors import InvalidInput, RoundNotFound

#: A round pasted whole: up to this many characters (some 60 long games).
MAX_ROUND_PDN_CHARS = 60 * MAX_SCORESHEET_CHARS // 4


def _name(text: str) -> str:
    return " ".join((text or "").split()).casefold()


def _match_games(round_: Round, games: list[PDNGame]) -> list[tuple[PDNGame, Game]]:
    """Pairs each PDN game with the round's game of the same Black and White (the first not yet taken)."""
    candidates = list(Game.objects.filter(round=round_).select_related("black", "white").order_by("id"))
    taken: set[int] = set()
    pairs = []
    for number, pdn in enumerate(games, start=1):
        black, white = _name(pdn.tags.get("Black", "")), _name(pdn.tags.get("White", ""))
        found = next((g for g in candidates if g.pk not in taken and _name(g.black.name) == black
                      and _name(g.white.name) == white and g.ply == 0 and not g.is_finished), None)
        if found is None:
            where = f"Game {number} of the text (line {pdn.line}), Black {pdn.tags.get('Black', '?')!r} v White " \
                    f"{pdn.tags.get('White', '?')!r}"
            raise InvalidInput(f"{where}: round {round_.number} has no game between them with those colours that "
                               "is still to be entered (the Black and White tags must name the players as the "
                               "pairing sheet does).", details={"fields": {"pdn": [where]}, "game": number,
                                                                  "line": pdn.line})
        taken.add(found.pk)
        pairs.append((pdn, found))
    return pairs


def round_scoresheets_enter(*, acting_user: Any, tournament: Tournament, number: int, pdn: str) -> list[Game]:
    """Enters a round's games from one PDN text of scoresheets; returns the games entered. All or nothing."""
    if not isinstance(pdn, str) or not pdn.strip():
        raise InvalidInput.field("pdn", "Paste the round's games (PDN).")
    if len(pdn) > MAX_ROUND_PDN_CHARS:
        raise InvalidInput.field("pdn", f"At most {MAX_ROUND_PDN_CHARS} characters.")
    try:
        games = read_games(pdn)
    except PDNSyntaxError as error:
        raise InvalidInput(f"The text cannot be read: line {error.line}, column {error.column}: {error.message}",
                           details={"fields": {"pdn": [error.message]}, "line": error.line,
                                    "column": error.column}) from error
    if not games:
        raise InvalidInput.field("pdn", "No game in the text.")
    # No tournament lock first: the games are locked before the tournament row (as every ruling does,
    # whose tournament log row locks it), so that the two never wait on each other in turn.
    authorise_director(tournament, acting_user)
    round_ = Round.objects.filter(tournament=tournament, number=number).exclude(status=Round.Status.PREVIEW).first()
    if round_ is None:
        raise RoundNotFound(f"Round {number} of {tournament.name} is not published.")
    pairs = _match_games(round_, games)
    sheets = []
    for index, (pdn_game, game) in enumerate(pairs, start=1):  # the engine's work first, nothing locked
        try:
            sheets.append(scoresheet_check(game, pdn_game))
        except AppError as error:
            error.message = f"Game {index} of the text ({game.black} v {game.white}): {error.message}"
            error.details = {**error.details, "game": index, "game_id": game.pk,
                             "players": f"{game.black} v {game.white}"}
            raise
    return _write(acting_user=acting_user, tournament=tournament, number=number,
                  entries=[(game, pdn_game, sheet) for (pdn_game, game), sheet in zip(pairs, sheets, strict=True)])


@transaction.atomic
def _write(*, acting_user: Any, tournament: Tournament, number: int,
           entries: list[tuple[Game, PDNGame, Any]]) -> list[Game]:
    entered = [game_scoresheet_enter(acting_user=acting_user, game_id=game.pk, moves=pdn_game, checked=sheet)
               for game, pdn_game, sheet in entries]
    log_write(tournament=tournament, kind=TournamentLog.Kind.SCORESHEETS_ENTERED, actor=acting_user,
              data={"round": number, "games": [{"game": g.pk, "result": g.result} for g in entered]})
    return entered
