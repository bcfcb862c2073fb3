"""The arbitration log's hash chain: appending an entry and verifying a game's chain.

Each entry's ``hash`` is the HMAC-SHA256, under the record key (``DJANGO_LOG_KEY``, named by the
entry's ``key_id``; see ``core.chain``), of the canonical JSON of its content (game id, seq, kind,
side, law, note, data, actor id, created_at in ISO 8601 UTC, ply, fen, the seq it supersedes)
followed by ``prev_hash``, the hash of the entry before it (64 zeros for the first). Entries
written before the record had a key carry an empty ``key_id`` and a plain SHA-256; they hold only
as the first entries of a chain followed at once by the keyed seal the migration that brought
keys wrote (arbitration 0005: a ``system`` entry with ``{"sealed": true, "plain_entries": N}``),
never after a keyed entry; and no entry is appended after a tail that does not verify under a
configured key (``log_append`` refuses: 409 ``record_broken``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.utils import timezone

from arbitration.live import publish_entry_on_commit
from arbitration.models import LogEntry
from arbitration.signals import entry_committed_on_commit
from core.chain import (
    GENESIS_HASH,
    LEGACY_KEY_ID,
    RecordBroken,
    chain_hash,
    hash_matches,
    legacy_tail_reason,
    tail_problem,
    unknown_key_reason,
)
from games.models import Game, Move
from games.rules import Position

__all__ = ["GENESIS_HASH", "Verification", "entry_content", "entry_id_sql", "head_mismatch", "head_text",
           "kept_head_check", "log_append", "log_verify", "log_verify_head"]


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def entry_content(
    *, game_id: int, seq: int, kind: str, side: str, law: str, note: str, data: Any,
    actor_id: int | None, created_at: datetime, ply: int, fen: str, supersedes_seq: int | None,
) -> str:
    """Returns the canonical JSON of an entry's content (the text the hash covers)."""
    return json.dumps(
        {
            "game": game_id, "seq": seq, "kind": kind, "side": side, "law": law, "note": note,
            "data": data, "actor": actor_id, "created_at": _iso(created_at), "ply": ply, "fen": fen,
            "supersedes": supersedes_seq,
        },
        sort_keys=True, separators=(",", ":"), ensure_ascii=False,
    )


def log_append(
    *, game: Any, kind: str, side: str = "", law: str = "", note: str = "", data: dict | None = None,
    actor: Any = None, ply: int | None = None, fen: str | None = None, supersedes: LogEntry | None = None,
    at: datetime | None = None, pk_later: bool = False,
) -> LogEntry:
    """Appends an entry to the game's log and advances the game's chain head.

    The caller holds the game row locked (``select_for_update``) and saves ``log_seq`` and
    ``log_head`` with its other changes in the same transaction. ``ply`` and ``fen`` default to
    the game's current ones; ``at`` (the entry's time) defaults to now (clock events pass the
    database's time). With ``pk_later`` inside ``sqlrows.pipeline``, the entry's id is set when
    the pipeline ends; a row that refers to it meanwhile uses ``entry_id_sql``.

    The chain is extended only from a tail that verifies (``tail_check``): else 409
    ``record_broken`` and, the transaction rolled back, nothing is written.
    """
    tail_check(game)
    seq = game.log_seq + 1
    prev_hash = game.log_head or GENESIS_HASH
    created_at = at or timezone.now()
    data = data or {}
    ply = game.ply if ply is None else ply
    fen = game.fen if fen is None else fen
    actor_id = actor.pk if actor is not None and getattr(actor, "is_authenticated", False) else None
    content = entry_content(
        game_id=game.pk, seq=seq, kind=kind, side=side, law=law, note=note, data=data, actor_id=actor_id,
        created_at=created_at, ply=ply, fen=fen, supersedes_seq=supersedes.seq if supersedes else None,
    )
    key_id, digest = chain_hash(content, prev_hash)
    entry = LogEntry(
        game=game, seq=seq, kind=kind, side=side, law=law, note=note, data=data, actor_id=actor_id,
        created_at=created_at, ply=ply, fen=fen, supersedes=supersedes, prev_hash=prev_hash,
        hash=digest, key_id=key_id,
    )
    entry.save(pk_later=pk_later)
    game.log_seq = seq
    game.log_head = entry.hash
    game._log_tail_checked = (seq, entry.hash)
    publish_entry_on_commit(game, entry)
    entry_committed_on_commit(game, seq, kind)
    return entry


#: The fields of the last entry that ``tail_check`` reads (``arbitration.persistence.game_lock`` reads them too).
TAIL_FIELDS = ("seq", "kind", "side", "law", "note", "data", "actor_id", "created_at", "ply", "fen",
               "supersedes__seq", "prev_hash", "hash", "key_id")


def tail_from_json(value: Any) -> tuple | None:
    """Returns the last entry as ``TAIL_FIELDS`` from the JSON array the game's lock reads (None: no entry)."""
    if isinstance(value, str | bytes):
        value = json.loads(value)
    if not value:
        return None
    row = list(value)
    moment = datetime.fromisoformat(row[7])
    row[7] = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    if isinstance(row[5], str | bytes):  # SQLite may hand the JSON column back as text
        row[5] = json.loads(row[5])
    return tuple(row)


def _tail_problem(game: Any, row: tuple | None) -> str | None:
    tail = content = None
    if row is not None:
        (seq, kind, side, law, note, data, actor_id, created_at, ply, fen, supersedes_seq, prev_hash, stored,
         key_id) = row
        tail = (seq, prev_hash, stored, key_id)
        content = entry_content(game_id=game.pk, seq=seq, kind=kind, side=side, law=law, note=note, data=data,
                                actor_id=actor_id, created_at=created_at, ply=ply, fen=fen,
                                supersedes_seq=supersedes_seq)
    return tail_problem(unit="entry", owner="game", head_seq=game.log_seq, head_hash=game.log_head or GENESIS_HASH,
                        tail=tail, content=content)


def tail_check(game: Any) -> None:
    """Refuses (409 ``record_broken``) to extend the game's chain unless its last entry is the game's head,
    hashed under a configured key and unchanged.

    A plain SHA-256 tail is refused: the hash of a keyed entry appended after it would cover a
    chain anyone with the database could have rewritten (a forged result "sealed" by a player's
    confirmation or the next move). Once per game object and transaction: the entries this
    object appended since are known. The entry ``game_lock`` read with the row serves; else (or
    when it does not hold: it may predate the lock) one query reads it.
    """
    if getattr(game, "_log_tail_checked", None) == (game.log_seq, game.log_head):
        return
    problem = "unread"
    if hasattr(game, "_log_tail"):
        problem = _tail_problem(game, game._log_tail)
    if problem is not None:
        row = LogEntry.objects.filter(game_id=game.pk).order_by("-seq").values_list(*TAIL_FIELDS).first()
        problem = _tail_problem(game, row)
    if problem is not None:
        raise RecordBroken(
            f"The record of game {game.pk} does not verify ({problem}); nothing was written. An administrator "
            "runs verify_log and restores the record from a backup.",
            details={"game": game.pk, "reason": problem})
    game._log_tail_checked = (game.log_seq, game.log_head)


def entry_id_sql(game_id: int, seq: int) -> tuple[str, list[int]]:
    """Returns the SQL, with its parameters, of the id of the game's entry ``seq`` (for ``sqlrows.row_insert``)."""
    meta = LogEntry._meta
    game_column, seq_column = meta.get_field("game").column, meta.get_field("seq").column
    return (f'(SELECT "{meta.pk.column}" FROM "{meta.db_table}" WHERE "{game_column}" = %s AND "{seq_column}" = %s)',
            [game_id, seq])


@dataclass(frozen=True)
class Verification:
    """The outcome of a chain check: valid, how many entries, and where and why it breaks."""

    valid: bool
    entries: int
    broken_at: int | None = None
    reason: str | None = None

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"valid": self.valid, "entries": self.entries}
        if not self.valid:
            body["broken_at"] = self.broken_at
            body["reason"] = self.reason
        return body


def log_verify(game: Any) -> Verification:
    """Walks the game's chain and reports the first entry that does not hold, with the reason.

    An entry breaks the chain when its seq is not the next number, its ``prev_hash`` is not the
    hash of the entry before, or its ``hash`` is not the HMAC of its content under the key its
    ``key_id`` names (an entry whose key is not configured cannot be checked: it breaks too). A
    plain SHA-256 entry (before keys) holds only as one of the first N entries followed at once
    by the record key's seal of N plain entries (``_seal_mismatch``), and a chain must not end
    with one. The last entry must
    then be the game's chain head (``Game.log_seq`` and ``Game.log_head``, written with every
    entry), so entries deleted from the end are found too. Last, the game row's cached status,
    result and termination must be those of the ``game_end`` entry in force (the last one not
    superseded), or of no ending when there is none. Last, every ``Move`` row (what the game page
    and the PDN show) must be its move entry's: same ply, side, PDN, path, captures, crowning,
    position after, who and when, and superseded by the entry that put play back past it, if any;
    every move entry must have its row (``_moves_mismatch``). Three queries; the game row is read
    afresh.
    """
    head = Game.objects.filter(pk=game.pk).values("log_seq", "log_head", "status", "result", "termination").first()
    rows = list(
        LogEntry.objects.filter(game_id=game.pk).order_by("seq").values_list(
            "id", "seq", "kind", "side", "law", "note", "data", "actor_id", "created_at", "ply", "fen",
            "supersedes_id", "prev_hash", "hash", "key_id",
        )
    )
    seq_of_id = {row[0]: row[1] for row in rows}
    superseded = {row[11] for row in rows if row[11] is not None}
    previous = GENESIS_HASH
    keyed = False  # a keyed entry was seen: no plain SHA-256 entry may follow
    plain = 0  # how many plain SHA-256 entries open the chain (before the seal)
    ending: tuple[int, Any] | None = None  # (seq, data) of the last game_end entry not superseded
    for index, row in enumerate(rows, start=1):
        (entry_id, seq, kind, side, law, note, data, actor_id, created_at, ply, fen,
         supersedes_id, prev_hash, stored_hash, key_id) = row
        if seq != index:
            return Verification(False, len(rows), seq, f"entry #{seq} is out of sequence: #{index} was expected")
        if prev_hash != previous:
            return Verification(
                False, len(rows), seq, f"entry #{seq}: prev_hash does not match the hash of entry #{seq - 1}"
                if seq > 1 else f"entry #{seq}: prev_hash of the first entry is not 64 zeros",
            )
        content = entry_content(
            game_id=game.pk, seq=seq, kind=kind, side=side, law=law, note=note, data=data, actor_id=actor_id,
            created_at=created_at, ply=ply, fen=fen,
            supersedes_seq=seq_of_id.get(supersedes_id) if supersedes_id else None,
        )
        if key_id == LEGACY_KEY_ID and keyed:
            return Verification(False, len(rows), seq, f"entry #{seq} is hashed with plain SHA-256 after keyed entries")
        if key_id != LEGACY_KEY_ID and plain and not keyed:
            broken = _seal_mismatch(rows, plain, row)
            if broken is not None:
                return Verification(False, len(rows), *broken)
        matches = hash_matches(content, prev_hash, key_id, stored_hash)
        if matches is None:
            return Verification(False, len(rows), seq, unknown_key_reason(seq, key_id))
        if not matches:
            return Verification(
                False, len(rows), seq, f"entry #{seq}: the hash does not match the content (edited after it was written)"
            )
        keyed = keyed or key_id != LEGACY_KEY_ID
        plain += key_id == LEGACY_KEY_ID
        if kind == LogEntry.Kind.GAME_END and entry_id not in superseded:
            ending = (seq, data)
        previous = stored_hash
    if rows and not keyed:
        return Verification(False, len(rows), rows[-1][1], legacy_tail_reason(rows[-1][1]))
    if head is None:
        return Verification(True, len(rows))
    broken = _head_mismatch(rows, head)
    if broken is None:
        broken = _ending_mismatch(ending, head, len(rows))
    if broken is None:
        broken = _moves_mismatch(game.pk, rows)
    if broken is not None:
        return Verification(False, len(rows), *broken)
    return Verification(True, len(rows))


def _seal_mismatch(rows: list[tuple], plain: int, first_keyed: tuple) -> tuple[int, str] | None:
    """Checks that the plain SHA-256 entries opening a chain are those the record key's migration sealed.

    That migration (arbitration 0005) appended to every chain written before keys a keyed
    ``system`` entry, ``{"sealed": true, "plain_entries": N}``, right after its N plain entries;
    plain entries anywhere else, or written after the seal, are a forgery (a chain rewritten as
    plain SHA-256 and then extended by a keyed entry).
    """
    seq, kind, data, created_at = first_keyed[1], first_keyed[2], first_keyed[6], first_keyed[8]
    sealed = (kind == LogEntry.Kind.SYSTEM and isinstance(data, dict) and data.get("sealed") is True
              and data.get("plain_entries") == plain)
    if not sealed:
        return 1, (f"entries #1 to #{plain} are hashed with plain SHA-256 (no key) but entry #{seq} is not the seal "
                   "the record key's migration wrote after them: plain entries are valid only where it sealed "
                   "them (rewritten without the key?)")
    late = next((row[1] for row in rows[:plain] if row[8] > created_at), None)
    if late is not None:
        return late, f"entry #{late} is hashed with plain SHA-256 but was written after the seal (entry #{seq})"
    return None


def head_text(game: Any) -> str:
    """Returns the game's chain head as it is printed (page, PDN): ``SEQ:HASH``."""
    return f"{game.log_seq}:{game.log_head}"


def log_verify_head(game: Any, kept: str) -> Verification:
    """Checks the game's chain, then that it still leads to a head kept outside (``SEQ:HASH`` or ``HASH``).

    The head printed on a finished game's page and in its PDN is the hash of an entry of the
    chain; whoever kept a copy can later ask whether the record in the database still holds
    that entry with that hash (later entries, e.g. a correction, do not matter). Without the
    seq, any entry with that hash will do.
    """
    outcome = log_verify(game)
    if not outcome.valid:
        return outcome
    rows = LogEntry.objects.filter(game_id=game.pk)
    return kept_head_check(outcome, kept, hash_at=lambda seq: rows.filter(seq=seq).values_list("hash", flat=True)
                           .first(), hash_exists=lambda digest: rows.filter(hash=digest).exists())


def kept_head_check(outcome: Verification, kept: str, *, hash_at: Any, hash_exists: Any,
                    unit: str = "entry") -> Verification:
    """Checks that a verified chain still leads to a head kept outside (``SEQ:HASH`` or ``HASH``).

    ``hash_at(seq)`` gives the hash of the chain's row with that seq (None if there is none),
    ``hash_exists(hash)`` whether any row has that hash; ``unit`` names a row ("entry", "row").
    """
    seq_text, _, hash_text = kept.strip().rpartition(":")
    hash_text = hash_text.lower()
    if seq_text:
        if not (seq_text.isascii() and seq_text.isdigit()):
            return Verification(False, outcome.entries, None, f"the head {kept!r} is not SEQ:HASH")
        seq = int(seq_text)
        found = hash_at(seq)
        if found is None:
            return Verification(False, outcome.entries, seq, f"{unit} #{seq} of the head kept is not in the log "
                                f"(it ends at {unit} #{outcome.entries})")
        if found != hash_text:
            return Verification(False, outcome.entries, seq, f"{unit} #{seq}'s hash is {found}, not the head kept "
                                f"({hash_text}): the record was rewritten since")
        return outcome
    if not hash_exists(hash_text):
        return Verification(False, outcome.entries, None,
                            f"no {unit} of the log has the hash kept ({hash_text}): the record was rewritten since")
    return outcome


def _head_mismatch(rows: list[tuple], head: dict[str, Any]) -> tuple[int, str] | None:
    """Compares the last entry with the game's chain head; returns (entry, reason) when they differ."""
    return head_mismatch(last_seq=rows[-1][1] if rows else 0, last_hash=rows[-1][13] if rows else GENESIS_HASH,
                         head_seq=head["log_seq"], head_hash=head["log_head"] or GENESIS_HASH)


def head_mismatch(*, last_seq: int, last_hash: str, head_seq: int, head_hash: str, owner: str = "game",
                  unit: str = "entry") -> tuple[int, str] | None:
    """Compares a chain's last row with the head cached on its owner's row; returns (row, reason) when they differ."""
    units = "entries" if unit == "entry" else f"{unit}s"
    if last_seq < head_seq:
        missing = f"{unit} #{head_seq} is" if last_seq + 1 == head_seq else f"{units} #{last_seq + 1} to #{head_seq} are"
        return last_seq + 1, (
            f"{missing} missing: the {owner}'s chain head is {unit} #{head_seq} but the log ends at "
            f"{f'{unit} #{last_seq}' if last_seq else f'no {unit}'} (deleted from the end)"
        )
    if last_seq > head_seq:
        return head_seq + 1, (
            f"{unit} #{head_seq + 1} is beyond the {owner}'s chain head ({unit} #{head_seq}): written outside the "
            "services"
        )
    if last_hash != head_hash:
        return last_seq, (
            f"{unit} #{last_seq}: its hash is not the {owner}'s chain head (the {unit} was replaced or the head edited)"
        )
    return None


def _ending_mismatch(ending: tuple[int, Any] | None, head: dict[str, Any], entries: int) -> tuple[int, str] | None:
    """Compares the game row's status, result and termination with the game_end entry in force."""
    status, result, termination = head["status"], head["result"], head["termination"]
    if ending is None:
        if status == "finished" or result is not None or termination is not None:
            return entries, (
                f"the game row says {status} ({result}, {termination}) but no game_end entry is in force "
                f"(last entry #{entries})"
            )
        return None
    seq, data = ending
    data = data if isinstance(data, dict) else {}
    logged = (data.get("result"), data.get("termination"))
    if status != "finished" or (result, termination) != logged:
        return seq, (
            f"entry #{seq} (game_end) says {logged[0]} by {logged[1]} but the game row says "
            f"{status} ({result}, {termination})"
        )
    return None


_MOVE_COLUMNS = ("id", "ply", "side", "pdn", "entered", "path", "captures", "crowns", "fen_after", "recorded_by_id",
                 "recorded_at", "log_entry_id", "superseded_by_id", "moved_man")


def _moves_mismatch(game_id: int, rows: list[tuple]) -> tuple[int, str] | None:
    """Checks the game's ``Move`` rows against their move entries; returns (entry, reason) of the first that differs.

    A move row is superseded by the first later entry that put play back (``data.to_ply``) below
    its ply, and by none if there is none (an entry of an old log that put play back without
    ``to_ply`` is accepted as the superseding one).
    """
    by_id = {row[0]: row for row in rows}
    put_backs = [(row[1], row[6]["to_ply"], row[0]) for row in rows
                 if isinstance(row[6], dict) and isinstance(row[6].get("to_ply"), int)]
    moves = list(Move.objects.filter(game_id=game_id).order_by("id").values_list(*_MOVE_COLUMNS))
    owner: dict[int, tuple] = {}
    last_seq = rows[-1][1] if rows else 0
    for move in moves:
        entry = by_id.get(move[11])
        if entry is None or entry[2] != LogEntry.Kind.MOVE:
            return last_seq, (f"the move row of ply {move[1]} ({move[3]}) has no move entry in the log "
                              "(written outside the services)")
        owner[entry[0]] = move
    for row in rows:
        if row[2] != LogEntry.Kind.MOVE:
            continue
        move = owner.get(row[0])
        if move is None:
            return row[1], f"entry #{row[1]} (move {_logged(row[6], 'move')}) has no move row (deleted by hand)"
        reason = _move_differs(row, move, put_backs, by_id)
        if reason is not None:
            return row[1], f"entry #{row[1]}: the move row of ply {move[1]} {reason}"
    return None


def _logged(data: Any, key: str) -> Any:
    return data.get(key) if isinstance(data, dict) else None


def _man_moved(fen: str, path: Any, crowns: Any) -> bool | None:
    """Tells from the entry whether a man made the move (a man that crowned, or a man on the landing square
    after it); None when the entry cannot say (an old or damaged entry: its hash is checked apart)."""
    if crowns is True:
        return True
    if not isinstance(path, list) or not path or not isinstance(path[-1], int):
        return None
    try:
        piece = Position.from_fen(fen).piece_at(path[-1])
    except (ValueError, IndexError):
        return None
    return None if piece is None else piece in ("b", "w")


def _move_differs(entry: tuple, move: tuple, put_backs: list[tuple[int, int, int]],
                  by_id: dict[int, tuple]) -> str | None:
    """Returns how a move row differs from its entry, or None."""
    (_id, seq, _kind, side, _law, _note, data, actor_id, created_at, ply, fen, *_rest) = entry
    (_mid, m_ply, m_side, pdn, entered, path, captures, crowns, fen_after, recorded_by_id, recorded_at,
     _entry_id, superseded_by_id, moved_man) = move
    expected = {
        "ply": (m_ply, ply), "side": (m_side, side), "pdn": (pdn, _logged(data, "move")),
        "path": (path, _logged(data, "path")), "captures": (captures, _logged(data, "captures")),
        "crowns": (crowns, _logged(data, "crowns")), "fen_after": (fen_after, fen),
        "entered": (entered, (_logged(data, "entered") or "")[:80]),
        "recorded_by": (recorded_by_id, actor_id), "recorded_at": (recorded_at, created_at),
    }
    for name, (row_value, logged) in expected.items():
        if row_value != logged:
            return f"says {name} {row_value!r} but the entry says {logged!r} (edited by hand)"
    man_moved = _man_moved(fen, _logged(data, "path"), _logged(data, "crowns"))
    if man_moved is not None and moved_man != man_moved:
        return (f"says moved_man {moved_man!r} but the entry's move was made by a {'man' if man_moved else 'king'} "
                "(edited by hand)")
    superseding = next((pid for pseq, to_ply, pid in put_backs if pseq > seq and to_ply < ply), None)
    if superseded_by_id == superseding:
        return None
    if superseding is None and superseded_by_id in by_id:
        other = by_id[superseded_by_id]
        if other[1] > seq and not isinstance(_logged(other[6], "to_ply"), int):
            return None  # an old log's put-back, before entries carried to_ply
    said = "live" if superseded_by_id is None else (
        f"superseded by entry #{by_id[superseded_by_id][1]}" if superseded_by_id in by_id else "superseded")
    logged = "live" if superseding is None else f"superseded by entry #{by_id[superseding][1]}"
    return f"is {said} but the log says it is {logged} (edited by hand)"
