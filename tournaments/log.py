"""The tournament log's hash chain: appending a row and verifying a tournament's chain.

Rows are numbered per tournament (``seq`` from 1). Each row's ``hash`` is the HMAC-SHA256 under
the record key (``core.chain``) of the canonical JSON of its content (tournament id, seq, kind,
actor id, from and to status, reason, data, the seq it supersedes, created_at in ISO 8601 UTC)
followed by ``prev_hash``, the hash of the row before (64 zeros for the first). The log never had
plain SHA-256 rows (tournaments 0006 chained the rows written before under the key), so every
row must be keyed; a row is appended only after a tail that verifies (409 ``record_broken``).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from arbitration.log import Verification, head_mismatch, kept_head_check
from core.chain import GENESIS_HASH, RecordBroken, chain_hash, hash_matches, tail_problem, unknown_key_reason
from core.live import publish_on_commit
from games.models import Game
from tournaments.models import Round, Tournament, TournamentLog
from tournaments.signals import tournament_entry_committed_on_commit

Kind = TournamentLog.Kind


def row_content(*, tournament_id: int, seq: int, kind: str, actor_id: int | None, from_status: str, to_status: str,
                reason: str, data: Any, supersedes_seq: int | None, created_at: datetime) -> str:
    """Returns the canonical JSON of a row's content (the text the hash covers)."""
    return json.dumps(
        {
            "tournament": tournament_id, "seq": seq, "kind": kind, "actor": actor_id, "from_status": from_status,
            "to_status": to_status, "reason": reason, "data": data, "supersedes": supersedes_seq,
            "created_at": created_at.astimezone(UTC).isoformat(timespec="microseconds"),
        },
        sort_keys=True, separators=(",", ":"), ensure_ascii=False,
    )


@transaction.atomic
def log_append(*, tournament: Tournament, kind: str, actor_id: int | None, reason: str, data: dict[str, Any],
               from_status: str, to_status: str, supersedes: TournamentLog | None) -> TournamentLog:
    """Appends a row to the tournament's chain and advances the chain head kept on the tournament row.

    The tournament row is locked so that rows are numbered in turn; the next row follows the head
    (``Tournament.log_seq``, ``log_head``), so rows deleted from the end leave a gap that
    ``tournament_log_verify`` reports. The chain is extended only from a last row that is the head
    and verifies under a configured key: else 409 ``record_broken`` and nothing is written.
    """
    head_seq, head_hash = Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list(
        "log_seq", "log_head").get()
    _tail_check(tournament.pk, head_seq, head_hash or GENESIS_HASH)
    seq, prev_hash = head_seq + 1, head_hash or GENESIS_HASH
    created_at = timezone.now()
    data = json.loads(json.dumps(data))  # as the JSON column will give it back
    content = row_content(
        tournament_id=tournament.pk, seq=seq, kind=kind, actor_id=actor_id, from_status=from_status,
        to_status=to_status, reason=reason, data=data, supersedes_seq=supersedes.seq if supersedes else None,
        created_at=created_at,
    )
    key_id, digest = chain_hash(content, prev_hash)
    publish_on_commit(lambda: {"type": "tournament", "tournament": tournament.pk, "seq": seq, "kind": kind,
                               "at": created_at.isoformat()})
    tournament_entry_committed_on_commit(tournament.pk, seq, kind)
    row = TournamentLog.objects.create(
        tournament=tournament, kind=kind, actor_id=actor_id, reason=reason, data=data, from_status=from_status,
        to_status=to_status, supersedes=supersedes, created_at=created_at, seq=seq, prev_hash=prev_hash,
        hash=digest, key_id=key_id,
    )
    Tournament.objects.filter(pk=tournament.pk).update(log_seq=seq, log_head=digest)
    tournament.log_seq, tournament.log_head = seq, digest
    return row


def _tail_check(tournament_id: int, head_seq: int, head_hash: str) -> None:
    """Refuses (409 ``record_broken``) to extend a chain whose last row is not the head or does not verify."""
    row = TournamentLog.objects.filter(tournament_id=tournament_id).order_by("-seq").values_list(
        "seq", "kind", "actor_id", "from_status", "to_status", "reason", "data", "supersedes__seq", "created_at",
        "prev_hash", "hash", "key_id").first()
    tail = content = None
    if row is not None:
        seq, kind, actor_id, from_status, to_status, reason, data, supersedes_seq, created_at, prev_hash, stored, \
            key_id = row
        tail = (seq, prev_hash, stored, key_id)
        content = row_content(tournament_id=tournament_id, seq=seq, kind=kind, actor_id=actor_id,
                              from_status=from_status, to_status=to_status, reason=reason, data=data,
                              supersedes_seq=supersedes_seq, created_at=created_at)
    problem = tail_problem(unit="row", owner="tournament", head_seq=head_seq, head_hash=head_hash, tail=tail,
                           content=content)
    if problem is not None:
        raise RecordBroken(
            f"The tournament's record does not verify ({problem}); nothing was written. An administrator runs "
            "verify_log and restores the record from a backup.", details={"tournament": tournament_id, "reason": problem})


def tournament_head_text(tournament: Tournament) -> str:
    """Returns the tournament's chain head as it is printed (its page, its exports): ``SEQ:HASH``."""
    return f"{tournament.log_seq}:{tournament.log_head}"


def round_published_head(tournament_id: int, number: int) -> str | None:
    """Returns ``SEQ:HASH`` of the row that published round ``number``: the tournament's chain head as it stood
    once the round was published (on its pairing sheet and in its API answer); None before. One query."""
    row = (TournamentLog.objects.filter(tournament_id=tournament_id, kind=Kind.ROUND_PUBLISHED, data__round=number)
           .order_by("seq").values_list("seq", "hash").first())
    return None if row is None else f"{row[0]}:{row[1]}"


def tournament_log_verify(tournament: Tournament) -> Verification:
    """Walks the tournament's chain and reports the first row that does not hold, with the reason.

    A row breaks the chain when its seq is not the next number, its ``prev_hash`` is not the hash
    of the row before, or its ``hash`` is not the HMAC of its content under the key its ``key_id``
    names. The last row must then be the chain head kept on the tournament row, so rows deleted
    from the end are found too. Last, the tournament's rows in the database must be those its log
    describes (``_record_mismatch``): its status, its rounds, the games of each round, a finished
    tournament's games finished, each game's result the one the log last gave it. Five queries;
    the tournament row is read afresh.
    """
    head = Tournament.objects.filter(pk=tournament.pk).values_list("log_seq", "log_head", "status").first()
    rows = list(TournamentLog.objects.filter(tournament_id=tournament.pk).order_by("seq").values_list(
        "id", "seq", "kind", "actor_id", "from_status", "to_status", "reason", "data", "supersedes_id",
        "created_at", "prev_hash", "hash", "key_id",
    ))
    seq_of_id = {row[0]: row[1] for row in rows}
    previous = GENESIS_HASH
    for index, row in enumerate(rows, start=1):
        (_id, seq, kind, actor_id, from_status, to_status, reason, data, supersedes_id, created_at,
         prev_hash, stored, key_id) = row
        if seq != index:
            return Verification(False, len(rows), seq, f"row #{seq} is out of sequence: #{index} was expected")
        if prev_hash != previous:
            return Verification(False, len(rows), seq, f"row #{seq}: prev_hash does not match the hash of row #{seq - 1}"
                                if seq > 1 else f"row #{seq}: prev_hash of the first row is not 64 zeros")
        content = row_content(
            tournament_id=tournament.pk, seq=seq, kind=kind, actor_id=actor_id, from_status=from_status,
            to_status=to_status, reason=reason, data=data, supersedes_seq=seq_of_id.get(supersedes_id),
            created_at=created_at,
        )
        if not key_id:
            return Verification(False, len(rows), seq, f"row #{seq} is hashed with plain SHA-256 (no key): the "
                                "tournament log never had plain rows (its migration chained every row under the key)")
        matches = hash_matches(content, prev_hash, key_id, stored)
        if matches is None:
            return Verification(False, len(rows), seq, unknown_key_reason(seq, key_id).replace("entry", "row"))
        if not matches:
            return Verification(False, len(rows), seq,
                                f"row #{seq}: the hash does not match the content (edited after it was written)")
        previous = stored
    if head is not None:
        broken = head_mismatch(last_seq=rows[-1][1] if rows else 0, last_hash=previous, head_seq=head[0],
                               head_hash=head[1] or GENESIS_HASH, owner="tournament", unit="row")
        if broken is None:
            broken = _record_mismatch(tournament.pk, head[2], rows)
        if broken is not None:
            return Verification(False, len(rows), *broken)
    return Verification(True, len(rows))


def _data(row: tuple) -> dict[str, Any]:
    return row[7] if isinstance(row[7], dict) else {}


def _record_mismatch(tournament_id: int, status: str, rows: list[tuple]) -> tuple[int, str] | None:
    """Cross-checks the tournament's rows in the database against its log; returns (row, reason) of the first
    that differs.

    The log says the tournament's status (its last ``created`` / ``status_changed`` row), which
    rounds exist (``round_paired`` for a preview, ``round_published`` for the others), how many
    games each round holds (``round_published``'s ``games``, plus two per ``match_extended``),
    and the result each game was last given by a row (``game_ruling``, ``result_recorded``,
    ``result_corrected``, ``scoresheets_entered``). So a rollback of the log's last rows with the
    head set back shows when the database still holds what those rows wrote (a round, a finished
    status), and a rollback of a game's log shows when the tournament's log gave it a result (or
    the tournament is finished and the game is not). What the database and the log both lost is
    found only against a head kept outside (docs/security.md).
    """
    last_seq = rows[-1][1] if rows else 0
    logged_status: tuple[int, str] | None = None
    previews: dict[int, int] = {}
    published: dict[int, tuple[int, Any]] = {}
    extended: dict[int, int] = {}
    results: dict[int, tuple[int, Any]] = {}
    for row in rows:
        seq, kind, data = row[1], row[2], _data(row)
        number = data.get("round")
        if kind in (Kind.CREATED, Kind.STATUS_CHANGED) and row[5]:
            logged_status = (seq, row[5])
        elif kind == Kind.ROUND_PAIRED:
            previews[number] = seq
        elif kind == Kind.PAIRING_EDITED and data.get("discarded"):
            previews.pop(number, None)
        elif kind == Kind.ROUND_PUBLISHED:
            published[number] = (seq, data.get("games"))
        elif kind == Kind.MATCH_EXTENDED:
            extended[number] = extended.get(number, 0) + len(data.get("games") or [])
        elif kind in (Kind.GAME_RULING, Kind.RESULT_RECORDED, Kind.RESULT_CORRECTED) and "game" in data:
            results[data["game"]] = (seq, data.get("result"))
        elif kind == Kind.SCORESHEETS_ENTERED:
            for entered in data.get("games") or []:
                if isinstance(entered, dict) and "game" in entered:
                    results[entered["game"]] = (seq, entered.get("result"))
    if logged_status is not None and logged_status[1] != status:
        return logged_status[0], (f"the tournament row says {status} but row #{logged_status[0]} made it "
                                  f"{logged_status[1]} and no later row changed it")
    rounds = dict(Round.objects.filter(tournament_id=tournament_id).values_list("number", "status"))
    for number, round_status in sorted(rounds.items()):
        known = previews if round_status == Round.Status.PREVIEW else published
        if number not in known and number not in published:
            return last_seq, (f"round {number} ({round_status}) is in the database but no row of the log "
                              f"{'paired' if round_status == Round.Status.PREVIEW else 'published'} it (rows deleted "
                              "from the end with the head set back, or the round written by hand)")
    for number, (seq, _games) in sorted(published.items()):
        if rounds.get(number, Round.Status.PREVIEW) == Round.Status.PREVIEW:
            return seq, f"row #{seq} published round {number}, which the database does not hold as published"
    games = list(Game.objects.filter(round__tournament_id=tournament_id).order_by("id").values_list(
        "id", "round__number", "status", "result"))
    held: dict[int, int] = {}
    for _id, number, _status, _result in games:
        held[number] = held.get(number, 0) + 1
    for number, (seq, planned) in sorted(published.items()):
        if isinstance(planned, int) and held.get(number, 0) != planned + extended.get(number, 0):
            return seq, (f"round {number} holds {held.get(number, 0)} games but the log created "
                         f"{planned + extended.get(number, 0)} (row #{seq} and the extensions after it)")
    for game_id, number, game_status, result in games:
        if status == Tournament.Status.FINISHED and game_status != Game.Status.FINISHED:
            return last_seq, f"the tournament is finished but game {game_id} (round {number}) is {game_status}"
        seq, logged = results.get(game_id, (None, None))
        if logged is not None and (game_status, result) != (Game.Status.FINISHED, logged):
            return seq, (f"row #{seq} gave game {game_id} the result {logged} but the game row says {game_status} "
                         f"({result}): the game's record was rolled back or edited")
    return None


def tournament_log_verify_head(tournament: Tournament, kept: str) -> Verification:
    """Checks the tournament's chain, then that it still leads to a head kept outside (``SEQ:HASH`` or ``HASH``).

    The head printed on a finished tournament's page and in its exports (standings, crosstable)
    is the hash of a row of the chain; later rows (a correction after the end) do not matter.
    """
    outcome = tournament_log_verify(tournament)
    if not outcome.valid:
        return outcome
    rows = TournamentLog.objects.filter(tournament_id=tournament.pk)
    return kept_head_check(outcome, kept, unit="row",
                           hash_at=lambda seq: rows.filter(seq=seq).values_list("hash", flat=True).first(),
                           hash_exists=lambda digest: rows.filter(hash=digest).exists())
