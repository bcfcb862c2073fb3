"""The game as PDN: tags, the moves on the current line, rulings as comments (games.rules.pdn)."""

from __future__ import annotations

from arbitration.models import LogEntry
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


def game_pdn(game: Game) -> str:
    """Returns the game in PDN; each ruling is a comment after the ply it followed. Two queries."""
    moves = list(Move.objects.filter(game=game, superseded_by__isnull=True).order_by("ply").values_list("ply", "pdn"))
    entries = LogEntry.objects.filter(game=game).exclude(kind__in=_SILENT).order_by("seq").values_list(
        "ply", "kind", "side", "law", "note", "data")
    comments: dict[int, list[str]] = {}
    for ply, kind, side, law, note, data in entries:
        comments.setdefault(ply, []).append(_ruling_text(kind, side, law, note, data))
    tags = {
        "Event": game.round.tournament.name if game.round_id and game.round else "?",
        "Site": "?",
        "Date": game.created_at.strftime("%Y.%m.%d"),
        "Round": str(game.round.number) if game.round_id else "-",
        "Black": game.black.name,
        "White": game.white.name,
        "Result": game.result or "*",
        "GameType": ENGLISH_DRAUGHTS,
    }
    if game.start_fen:
        tags["Setup"] = "1"
        tags["FEN"] = game.start_fen
    if game.termination:
        tags["Termination"] = game.termination
    tags["RuleSet"] = game.rule_set
    pdn = PDNGame(tags=tags, result=game.result or "*")
    for _ply, text in moves:
        pdn.moves.append(PDNMove(text=text))
    pre = comments.pop(0, None)
    if pre:
        pdn.pre_comment = "; ".join(pre)
    by_ply = {ply: index for index, (ply, _text) in enumerate(moves)}
    for ply, texts in sorted(comments.items()):
        index = by_ply.get(ply)
        if index is None:  # a ruling on a line since superseded: after the last move
            index = len(moves) - 1
        if index < 0:
            pdn.pre_comment = "; ".join(filter(None, [pdn.pre_comment, *texts]))
            continue
        move = pdn.moves[index]
        move.comment = "; ".join(filter(None, [move.comment, *texts]))
    return write_game(pdn)
