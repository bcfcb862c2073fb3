"""The game as PDN: tags, the moves on the current line, rulings as comments (games.rules.pdn)."""

from __future__ import annotations

from accounts.privacy import note_hidden
from arbitration.log import head_text
from arbitration.models import LogEntry
from arbitration.selectors import game_opening
from games.models import Game, Move
from games.rules.pdn import ENGLISH_DRAUGHTS, PDNGame, PDNMove, write_game

#: Log entries that are not rulings worth a comment.
_SILENT = {LogEntry.Kind.MOVE, LogEntry.Kind.GAME_CREATED}


def _ruling_text(kind: str, side: str, law: str, note: str, data: dict) -> str:
    words = [kind.replace("_", " ")]
    if side:
        words.append(f"({side})")
    if law:
        words.append(f"Law {law}")
    detail = note or ""
    if not detail and isinstance(data, dict):
        for key in ("move", "outcome", "result", "square", "decision", "statement"):
            if data.get(key) not in (None, ""):
                detail = f"{key} {data[key]}"
                break
    text = " ".join(words)
    return f"{text}: {detail}" if detail else text


def _comments_on_the_line(entries: list[tuple]) -> dict[int, list[str]]:
    """Places each ruling after a move of the current line; returns the texts by ply (0: before the moves).

    An entry follows the move of its ply on the line it was made on. That move is still on the
    current line unless play was later put back (Law 15, a compelled capture, a corrected move:
    an entry with ``to_ply``) to an earlier ply; then the entry's line is gone from that ply
    on, and it is shown after the move play was put back to, marked as such. So a ruling made
    on a line since superseded never attaches to a later move of the same ply.
    """
    placed: list[tuple[int, str]] = []
    put_back_to: int | None = None  # the lowest ply play was put back to after the entry
    for ply, kind, side, law, note, data in reversed(entries):
        text = _ruling_text(kind, side, law, note_hidden(note, data, kind), data)  # the export is public
        at = ply if put_back_to is None else min(ply, put_back_to)
        if at < ply:
            text = f"{text} (at ply {ply}, on a line since put back)"
        placed.append((at, text))
        if isinstance(data, dict) and isinstance(data.get("to_ply"), int):
            put_back_to = data["to_ply"] if put_back_to is None else min(put_back_to, data["to_ply"])
    comments: dict[int, list[str]] = {}
    for at, text in reversed(placed):
        comments.setdefault(at, []).append(text)
    return comments


def game_pdn(game: Game) -> str:
    """Returns the game in PDN; each ruling is a comment after the move it followed on the current line.

    A game played from a ballot is written from the initial position, the ballot's moves first,
    numbered as the printed scoresheet and the archives number them (``1. 10-14 22-18 2. 11-15
    18x11``), with no FEN; a position set up without its opening keeps its FEN, and White's first
    move is ``1... 18-14``. Two queries (three with a ballot).
    """
    moves = list(Move.objects.filter(game=game, superseded_by__isnull=True).order_by("ply").values_list("ply", "pdn"))
    entries = list(LogEntry.objects.filter(game=game).exclude(kind__in=_SILENT).order_by("seq").values_list(
        "ply", "kind", "side", "law", "note", "data"))
    comments = _comments_on_the_line(entries)
    opening = game_opening(game)
    tournament = game.round.tournament if game.round_id and game.round else None
    tags = {
        "Event": tournament.name if tournament else "?",
        "Site": (tournament.venue or "?") if tournament else "?",
        "Date": game.created_at.strftime("%Y.%m.%d"),
        "Round": str(game.round.number) if game.round_id else "-",
        "Black": game.black.name,
        "White": game.white.name,
        "Result": game.result or "*",
        "GameType": ENGLISH_DRAUGHTS,
    }
    if game.start_fen and not opening:
        tags["Setup"] = "1"
        tags["FEN"] = game.start_fen
    if game.termination:
        tags["Termination"] = game.termination
    tags["RuleSet"] = game.rule_set
    # The arbitration log's chain head (a running game's too): a copy kept outside is checked by
    # `verify_log --head`, so that the record cannot later be rolled back behind it unseen.
    tags["LogHead"] = head_text(game)
    pdn = PDNGame(tags=tags, result=game.result or "*")
    pdn.moves.extend(PDNMove(text=text) for text in opening)
    for _ply, text in moves:
        pdn.moves.append(PDNMove(text=text))
    pre = comments.pop(0, None)
    if pre and opening:
        pdn.moves[len(opening) - 1].comment = "; ".join(pre)
    elif pre:
        pdn.pre_comment = "; ".join(pre)
    by_ply = {ply: len(opening) + index for index, (ply, _text) in enumerate(moves)}
    for ply, texts in sorted(comments.items()):
        index = by_ply.get(ply)
        if index is None:  # not on the line (a log written before put-backs carried to_ply): at the end
            index = len(pdn.moves) - 1
        if index < 0:
            pdn.pre_comment = "; ".join(filter(None, [pdn.pre_comment, *texts]))
            continue
        move = pdn.moves[index]
        move.comment = "; ".join(filter(None, [move.comment, *texts]))
    return write_game(pdn)
