"""Games entered from paper: a director types or pastes a scoresheet's moves and result afterwards.

Many club events have no referee at the board: the players keep scoresheets and the director
enters them. The moves (PDN movetext, numbered or not, with or without tags) are read and
replayed through the rules engine *before* anything is written, from the game's own start (a
ballot opening's position included; a scoresheet that also writes the ballot's moves has them
recognised and skipped); the first move the engine refuses is reported at its move number, as
written, with the legal moves there. Then, in one transaction, the game's log says who entered
it from a scoresheet (a ``system`` entry), each move is recorded through the move service (so
every position, log entry and move row is the same as at a board), and the result is recorded
(a director's ruling, the game ended "Result from the scoresheet"), unless the moves themselves ended the game
(Law 23), when the result written must agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from arbitration.access import (
    acts_as_administrator,
    administrator_note,
    ensure_open,
    is_administrator,
    is_game_director,
)
from arbitration.clocks import clock_of
from arbitration.errors import GameNotFound, InvalidGameSetup, NotAllowed
from arbitration.lifecycle import save_game
from arbitration.log import log_append
from arbitration.models import LogEntry
from arbitration.moves import game_move_record
from arbitration.persistence import game_lock
from arbitration.rulings import ruling_issue
from core.api import AppError
from games.models import Game, Termination
from games.rules import GameState, Position
from games.rules.errors import PDNSyntaxError, RulesError
from games.rules.pdn import RESULTS, PDNGame, read_games, replay
from games.selectors import game_get

#: The longest scoresheet text read (a long game is some 3,000 characters).
MAX_SCORESHEET_CHARS = 20_000
#: The results a scoresheet may end with (PDN's forms are read too: 2-0, 1-1, 0-2, 1/2-1/2).
SCORESHEET_RESULTS = ("1-0", "0-1", "1/2-1/2")
#: The most plies of a ballot opening a scoresheet may write before the game's start position.
MAX_OPENING_PLIES = 6


class ScoresheetRefused(AppError):
    """A scoresheet whose moves the engine refuses (422), with the move, its number and the legal moves."""

    code = "scoresheet_refused"
    status_code = 422
    default_message = "The scoresheet's moves are not legal."


class ScoresheetConflict(AppError):
    code = "scoresheet_conflict"
    status_code = 409
    default_message = "The game cannot be entered from a scoresheet now."


@dataclass(frozen=True)
class Scoresheet:
    """A scoresheet read and checked: the moves to record (full PDN) and the result."""

    moves: list[str]
    result: str
    skipped_opening: int = 0


def scoresheet_read(text: str) -> PDNGame:
    """Reads one game's movetext (numbered or not; tags allowed); 400 with the line and column when it
    cannot be read."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidGameSetup("The scoresheet has no moves.", details={"fields": {"moves": ["Type the moves."]}})
    if len(text) > MAX_SCORESHEET_CHARS:
        raise InvalidGameSetup(f"A scoresheet is at most {MAX_SCORESHEET_CHARS} characters.",
                               details={"fields": {"moves": ["Too long."]}})
    try:
        games = read_games(text)
    except PDNSyntaxError as error:
        raise InvalidGameSetup(f"The scoresheet cannot be read: line {error.line}, column {error.column}: "
                               f"{error.message}", details={"fields": {"moves": [error.message]},
                                                            "line": error.line, "column": error.column}) from error
    if len(games) != 1:
        raise InvalidGameSetup(f"One game's moves are expected, not {len(games)} games.",
                               details={"fields": {"moves": ["One game."]}})
    return games[0]


def _result_of(game: PDNGame, result: str | None) -> str:
    given = RESULTS.get((result or "").strip(), (result or "").strip()) or None
    written = game.result if game.result in SCORESHEET_RESULTS else game.result_tag
    if given and written and given != written:
        raise InvalidGameSetup(f"The result given ({given}) is not the one the scoresheet writes ({written}).",
                               details={"fields": {"result": [f"The scoresheet says {written}."]}})
    final = given or written
    if final not in SCORESHEET_RESULTS:
        raise InvalidGameSetup("The scoresheet's result is needed: 1-0, 0-1 or 1/2-1/2.",
                               details={"fields": {"result": ["1-0, 0-1 or 1/2-1/2."]}})
    return final


def _label(game: PDNGame, index: int, start: Position) -> tuple[int, str]:
    """Returns the move number as written (or counted from the start) and the side of ``game.moves[index]``."""
    black_first = start.side_to_move.value == "black"
    offset = 0 if black_first else 1
    number = (index + offset) // 2 + 1
    for back in range(index, max(-1, index - 2), -1):
        written = game.moves[back].number
        if written is not None:
            number = written
            break
    side = "black" if (index + offset) % 2 == 0 else "white"
    return number, side


def _opening_skipped(moves: list[str], start: Position, rules: Any) -> int:
    """Returns how many first moves of the scoresheet are a ballot opening that leads from the initial
    position to the game's start (0 if the game starts at the initial position or they do not)."""
    initial = Position.initial()
    if start.fen() == initial.fen():
        return 0
    state = GameState(start=initial, rules=rules)
    for count, text in enumerate(moves[:MAX_OPENING_PLIES], start=1):
        try:
            state.push_pdn(text)
        except RulesError:
            return 0
        if state.position.fen() == start.fen():
            return count
    return 0


def scoresheet_check(game: Game, text: str | PDNGame, *, result: str | None = None) -> Scoresheet:
    """Reads the scoresheet and replays it from the game's start; returns the moves to record.

    Refuses (422 ``scoresheet_refused``) at the first move the engine refuses, naming its
    number and side as written, with the legal moves there; a move after the game was over
    (Law 23) too. Pure reading and the engine: no database.
    """
    pdn = text if isinstance(text, PDNGame) else scoresheet_read(text)
    final = _result_of(pdn, result)
    rules = game.engine_rules()
    start = Position.from_fen(game.initial_fen)
    texts = [move.text for move in pdn.moves]
    skipped = _opening_skipped(texts, start, rules)
    # The engine's PDN replay, as for the archives: a plain move written with x (29x25) read as one, a
    # short-form capture the later moves settle (games.rules.pdn.replay).
    replayed = replay(PDNGame(tags={"FEN": game.initial_fen}, moves=pdn.moves[skipped:]), rules)
    state = replayed.state
    if not replayed.ok:
        index = skipped + replayed.error_index
        number, side = _label(pdn, index, Position.initial() if skipped else start)
        move = pdn.moves[index]
        where = {"index": index, "move_number": number, "side": side, "move": move.text, "line": move.line,
                 "column": move.column}
        if state.is_over:
            raise ScoresheetRefused(f"Move {number} ({side}, {move.text}): the game was already over: {side} had "
                                    "no legal move (Law 23).", details={**where, "legal_moves": [],
                                    "reason": f"the game was already over: {side} had no legal move (Law 23)"})
        legal = sorted(candidate.pdn() for candidate in state.position.legal_moves(rules))
        # the engine's reason without the replay's "move 9 (8-12): 8-12 is not legal: " before it
        reason = replayed.reason or "not legal"
        reason = reason.split(" is not legal: ", 1)[1] if " is not legal: " in reason else reason.split(": ", 1)[-1]
        raise ScoresheetRefused(f"Move {number} ({side}, {move.text}) is not legal here: {reason}. Legal: "
                                f"{', '.join(legal) or 'none'}.", details={**where, "legal_moves": legal, "reason": reason})
    played = [move.pdn() for move in state.moves]
    if not played:
        raise InvalidGameSetup("The scoresheet has no moves of this game.", details={"fields": {"moves": ["No moves."]}})
    if state.is_over:
        winner = "1-0" if state.position.side_to_move.value == "white" else "0-1"
        if final != winner:
            raise InvalidGameSetup(f"After the last move the side to move has no legal move (Law 23): the result is "
                                   f"{winner}, not {final}.", details={"fields": {"result": [f"It is {winner}."]}})
    return Scoresheet(moves=played, result=final, skipped_opening=skipped)


def _authorise(game: Game, user: Any) -> None:
    if not (is_game_director(game, user) or is_administrator(user)):
        raise NotAllowed("Only a director of this game's tournament may enter it from a scoresheet."
                         if game.round_id else "Only the director who created this game may enter it from a scoresheet.")


def game_scoresheet_enter(*, acting_user: Any, game_id: int, moves: str | PDNGame, result: str | None = None,
                          note: str = "", checked: Scoresheet | None = None) -> Game:
    """Enters a whole game from its scoresheet: checks every move first, then records them and the result.

    A director of the game (its tournament's, or its creator) or an administrator; the game has
    no move yet and no running clock (409 ``scoresheet_conflict``); a finished tournament's game
    is refused (409). All or nothing: a refused move writes nothing. ``moves``: the movetext, or
    a game already read from a PDN text (a round pasted whole); ``checked``: its check, when the
    caller made it already. The engine's work is done before the game is locked (it needs only
    the game's start, which no one changes while it has no move); the writes follow in one
    transaction.
    """
    try:
        game = game_get(int(game_id))
    except (TypeError, ValueError, Game.DoesNotExist) as error:
        raise GameNotFound(f"There is no game {game_id}.") from error
    _authorise(game, acting_user)
    sheet = checked or scoresheet_check(game, moves, result=result)
    return _scoresheet_write(acting_user=acting_user, game_id=game.pk, sheet=sheet, start_fen=game.initial_fen,
                             note=note)


@transaction.atomic
def _scoresheet_write(*, acting_user: Any, game_id: int, sheet: Scoresheet, start_fen: str, note: str) -> Game:
    game = game_lock(game_id)
    _authorise(game, acting_user)
    ensure_open(game, acting_user)
    if game.is_finished or game.ply > 0 or game.initial_fen != start_fen:
        raise ScoresheetConflict(f"The game already has {'a result' if game.is_finished else f'{game.ply} plies'}: "
                                 "a scoresheet is entered into a game with no move yet.",
                                 details={"status": game.status, "ply": game.ply})
    clock = clock_of(game)
    if clock is not None and clock.deadline is not None:
        raise ScoresheetConflict("The game's clock is running: it is being played at a board, not from paper.")
    by = "a federation administrator" if acts_as_administrator(game, acting_user) else acting_user.get_username()
    log_append(game=game, kind=LogEntry.Kind.SYSTEM, actor=acting_user,
               note=administrator_note(game, acting_user, note or f"Entered from the scoresheet by {by}"),
               data={"scoresheet": {"plies": len(sheet.moves), "result": sheet.result,
                                    "opening_plies_skipped": sheet.skipped_opening}})
    save_game(game)
    for ply, text in enumerate(sheet.moves, start=1):
        game_move_record(acting_user=acting_user, game_id=game.pk, move=text, ply=ply, note="from the scoresheet")
    finished = Game.objects.filter(pk=game.pk).values_list("status", "result").get()
    if finished[0] != Game.Status.FINISHED:
        ruling_issue(acting_user=acting_user, game_id=game.pk, kind="adjudicate", termination=Termination.SCORESHEET,
                     payload={"result": sheet.result, "reason": f"Result from the scoresheet, entered by {by}"})
    return Game.objects.get(pk=game.pk)
