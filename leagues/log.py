"""The league log's hash chain (like ``tournaments.log``): appending a row, verifying a league's chain."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils import timezone

from core.chain import GENESIS_HASH, RecordBroken, chain_hash, hash_matches, tail_problem
from leagues.models import Fixture, League, LeagueLog
from leagues.signals import league_logged_on_commit


def row_content(*, league_id: int, seq: int, kind: str, actor_id: int | None, reason: str, data: Any,
                created_at: datetime) -> str:
    """Returns the canonical JSON of a row's content (the text the hash covers)."""
    return json.dumps(
        {"league": league_id, "seq": seq, "kind": kind, "actor": actor_id, "reason": reason, "data": data,
         "created_at": created_at.astimezone(UTC).isoformat(timespec="microseconds")},
        sort_keys=True, separators=(",", ":"), ensure_ascii=False,
    )


@transaction.atomic
def log_append(*, league: League, kind: str, actor: Any, reason: str = "", data: dict[str, Any] | None = None
               ) -> LeagueLog:
    """Appends a row to the league's chain under the record key and advances the head kept on the league row.

    The league row is locked, so rows are numbered in turn; a chain whose tail is not the head or
    does not verify is not extended (409 ``record_broken``).
    """
    head_seq, head_hash = League.objects.select_for_update().filter(pk=league.pk).values_list(
        "log_seq", "log_head").get()
    last = LeagueLog.objects.filter(league_id=league.pk).order_by("-seq").values_list(
        "seq", "kind", "actor_id", "reason", "data", "created_at", "prev_hash", "hash", "key_id").first()
    tail = content = None
    if last is not None:
        tail = (last[0], last[6], last[7], last[8])
        content = row_content(league_id=league.pk, seq=last[0], kind=last[1], actor_id=last[2], reason=last[3],
                              data=last[4], created_at=last[5])
    problem = tail_problem(unit="row", owner="league", head_seq=head_seq, head_hash=head_hash or GENESIS_HASH,
                           tail=tail, content=content)
    if problem is not None:
        raise RecordBroken(f"The league's record does not verify ({problem}); nothing was written.",
                           details={"league": league.pk, "reason": problem})
    seq, prev_hash = head_seq + 1, head_hash or GENESIS_HASH
    created_at = timezone.now()
    data = json.loads(json.dumps(data or {}, default=str))
    actor_id = actor.pk if getattr(actor, "is_authenticated", False) else None
    key_id, digest = chain_hash(row_content(league_id=league.pk, seq=seq, kind=kind, actor_id=actor_id,
                                            reason=reason, data=data, created_at=created_at), prev_hash)
    row = LeagueLog.objects.create(league=league, kind=kind, actor_id=actor_id, reason=reason, data=data,
                                   created_at=created_at, seq=seq, prev_hash=prev_hash, hash=digest, key_id=key_id)
    League.objects.filter(pk=league.pk).update(log_seq=seq, log_head=digest)
    league.log_seq, league.log_head = seq, digest
    league_logged_on_commit(row)
    return row


def league_log_verify(league: League) -> tuple[bool, int, str]:
    """Walks the league's chain; returns (valid, rows, the first problem found or "")."""
    head = League.objects.filter(pk=league.pk).values_list("log_seq", "log_head").get()
    previous, count = GENESIS_HASH, 0
    for row in LeagueLog.objects.filter(league_id=league.pk).order_by("seq").values_list(
            "seq", "kind", "actor_id", "reason", "data", "created_at", "prev_hash", "hash", "key_id").iterator():
        count += 1
        seq = row[0]
        if seq != count:
            return False, count, f"row #{seq} is out of sequence: #{count} was expected"
        if row[6] != previous:
            return False, count, f"row #{seq}: prev_hash does not match the hash of the row before"
        content = row_content(league_id=league.pk, seq=seq, kind=row[1], actor_id=row[2], reason=row[3],
                              data=row[4], created_at=row[5])
        if not hash_matches(content, row[6], row[8], row[7]):
            return False, count, f"row #{seq}: the hash does not match the content (edited after it was written)"
        previous = row[7]
    if (count, previous) != (head[0], head[1] or GENESIS_HASH):
        return False, count, f"the log ends at row #{count} but the league's chain head is row #{head[0]}"
    mismatch = _results_mismatch(league)
    if mismatch:
        return False, count, mismatch
    return True, count, ""


def _points(text: str) -> Decimal | None:
    try:
        return Decimal(text)
    except (InvalidOperation, ValueError):
        return None


#: The rows that give a fixture its counted result (a ``card_corrected`` row of a counted match gives it anew).
RESULT_KINDS = (LeagueLog.Kind.CARD_CONFIRMED, LeagueLog.Kind.DISPUTE_DECIDED, LeagueLog.Kind.MATCH_DEFAULTED,
                LeagueLog.Kind.CARD_CORRECTED)


def _results_mismatch(league: League) -> str:
    """Returns how the league's counted results differ from what its log last gave them ("" when they agree):
    a fixture counted in a table with no row that gave it its points, or with other points than the row's."""
    logged: dict[int, tuple[str, str, int]] = {}
    for seq, data in LeagueLog.objects.filter(league_id=league.pk, kind__in=RESULT_KINDS).order_by("seq").values_list(
            "seq", "data"):
        if isinstance(data, dict) and "fixture" in data and "home_points" in data:
            logged[data["fixture"]] = (str(data.get("home_points")), str(data.get("away_points")), seq)
    counted = Fixture.objects.filter(season__league_id=league.pk, status__in=("result", "defaulted")).values_list(
        "pk", "home_points", "away_points")
    for pk, home, away in counted:
        row = logged.get(pk)
        if row is None:
            return f"fixture {pk} counts {home}-{away} but no row of the log gave it a result"
        if _points(row[0]) != home or _points(row[1]) != away:
            return (f"fixture {pk} counts {home}-{away} but row #{row[2]} gave it {row[0]}-{row[1]} (the result "
                    "was edited outside the services)")
    return ""
