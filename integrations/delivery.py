"""Webhooks' deliveries: turning committed log entries into deliveries, and sending them in order.

The logs are the change feed. Each webhook has one stream per game (``g:<id>``) and per
tournament (``t:<id>``) it is fed from; the stream's row keeps the last log seq turned into
deliveries. ``stream_collect`` reads the entries after it, under the stream's lock, and writes a
delivery for each event the webhook wants; ``stream_send_next`` sends the oldest delivery waiting
in a stream, under the same lock, so that a game's events reach a receiver in the order of its
log, each after the one before was delivered (or given up). A failed attempt is tried again after
an exponential back-off (``WEBHOOK_RETRY_BASE_SECONDS``, doubling, at most
``WEBHOOK_RETRY_MAX_DELAY``) until ``WEBHOOK_RETRY_FOR`` (a day) has passed; then it is given up and
the next one goes. Nothing here runs on the move path: the tasks (``integrations.tasks``) do.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import requests
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from arbitration.live import ENTRY_FIELDS, event_of_row
from arbitration.models import LogEntry
from games.models import Game
from integrations.addresses import AddressRefused, url_check
from integrations.models import Webhook, WebhookDelivery, WebhookStream
from tournaments.models import Match, Tournament, TournamentLog

Event = Webhook.Event
Kind = LogEntry.Kind
TKind = TournamentLog.Kind

#: Game log kinds that are not rulings: the rest (penalties, draws, corrections, clocks, appeals) are.
NOT_RULINGS = frozenset({Kind.GAME_CREATED, Kind.MOVE, Kind.GAME_END, Kind.SYSTEM, Kind.REFEREES_CHANGED,
                         Kind.RESULT_CONFIRMED})
#: Tournament log kinds after which the standings may read otherwise.
STANDINGS_KINDS = frozenset({TKind.RESULT_RECORDED, TKind.RESULT_CORRECTED, TKind.GAME_RULING,
                             TKind.APPEAL_DECIDED, TKind.ENTRY_WITHDRAWN, TKind.MATCH_EXTENDED})

SIGNATURE_HEADER = "X-Draughts-Signature"
TIMESTAMP_HEADER = "X-Draughts-Timestamp"
DELIVERY_HEADER = "X-Draughts-Delivery"
EVENT_HEADER = "X-Draughts-Event"
ANSWER_KEPT = 500


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """Returns the signature header's value: ``sha256=`` and the HMAC-SHA256 of ``timestamp.body``."""
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


#: The events a game's log gives (a tournament's gives ``round_published`` and ``standings_changed``).
GAME_EVENTS = frozenset({Event.MOVE, Event.RULING, Event.GAME_FINISHED, Event.STANDINGS_CHANGED})
TOURNAMENT_EVENTS = frozenset({Event.ROUND_PUBLISHED, Event.STANDINGS_CHANGED})


def hooks_for(tournament_id: int | None, events: frozenset[str]) -> list[Webhook]:
    """Returns the active webhooks fed from a tournament's logs (its own and those of every tournament) that
    want one of ``events``."""
    wanted = Q(tournament__isnull=True)
    if tournament_id is not None:
        wanted |= Q(tournament_id=tournament_id)
    return [hook for hook in Webhook.objects.filter(wanted, active=True) if events.intersection(hook.events)]


def _stream(webhook: Webhook, key: str, first_seq: Any) -> WebhookStream:
    """Returns the webhook's stream locked; a new one starts after what was logged before the webhook was made."""
    stream = WebhookStream.objects.select_for_update().filter(webhook=webhook, key=key).first()
    if stream is None:
        WebhookStream.objects.bulk_create([WebhookStream(webhook=webhook, key=key, last_seq=first_seq())],
                                          ignore_conflicts=True)
        stream = WebhookStream.objects.select_for_update().get(webhook=webhook, key=key)
    return stream


@dataclass(frozen=True)
class Item:
    seq: int
    event: str
    data: dict[str, Any]
    at: str


def _game_items(game: Game, tournament: Tournament | None, rows: list[tuple]) -> list[Item]:
    items = []
    for row in rows:
        entry = event_of_row(row)
        seq, kind, at = entry["seq"], entry["kind"], entry["at"]
        data = {key: entry[key] for key in ("kind", "side", "law", "ply", "fen")}
        if kind == Kind.MOVE:
            items.append(Item(seq, Event.MOVE, {**data, "move": entry["move"]}, at))
        elif kind == Kind.GAME_END:
            end = row[ENTRY_FIELDS.index("data")] or {}
            items.append(Item(seq, Event.GAME_FINISHED, {**data, "result": end.get("result"),
                                                         "termination": end.get("termination")}, at))
            if tournament is not None:
                items.append(Item(seq, Event.STANDINGS_CHANGED, {"cause": "game_finished", "game": game.pk}, at))
        elif kind not in NOT_RULINGS:
            items.append(Item(seq, Event.RULING, data, at))
    return items


def _tournament_items(tournament: Tournament, rows: list[tuple]) -> list[Item]:
    items = []
    for seq, kind, data, at in rows:
        if kind == TKind.ROUND_PUBLISHED:
            number = (data or {}).get("round")
            items.append(Item(seq, Event.ROUND_PUBLISHED, {"round": number, "pairings": _pairings(tournament, number)},
                              at.isoformat()))
        elif kind in STANDINGS_KINDS:
            items.append(Item(seq, Event.STANDINGS_CHANGED, {"cause": kind}, at.isoformat()))
    return items


def _pairings(tournament: Tournament, number: Any) -> list[dict[str, Any]]:
    matches = Match.objects.filter(round__tournament=tournament, round__number=number).select_related(
        "player_one", "player_two").order_by("board")
    return [{"board": m.board, "player_one": m.player_one.name,
             "player_two": m.player_two.name if m.player_two else None, "kind": m.kind} for m in matches]


def _standings(tournament: Tournament) -> list[dict[str, Any]]:
    from tournaments.selectors import standings

    return [{"rank": row.rank, "player": row.player.name, "points": row.points, "game_points": row.game_points}
            for row in standings(tournament)]


def _body(webhook: Webhook, delivery: WebhookDelivery, item: Item, subject: dict[str, Any]) -> str:
    return json.dumps({"id": str(delivery.event_id), "event": item.event, "at": item.at, **subject,
                       "seq": item.seq, "data": item.data}, separators=(",", ":"), sort_keys=True, default=str)


def _deliveries_write(webhook: Webhook, stream: WebhookStream, items: list[Item], subject: dict[str, Any],
                      tournament: Tournament | None) -> int:
    now = timezone.now()
    give_up = now + timedelta(seconds=settings.WEBHOOK_RETRY_FOR)
    rows, standings = [], None
    for item in items:
        if item.event not in webhook.events:
            continue
        if item.event == Event.STANDINGS_CHANGED and tournament is not None:
            standings = standings if standings is not None else _standings(tournament)
            item = Item(item.seq, item.event, {**item.data, "standings": standings}, item.at)
        delivery = WebhookDelivery(webhook=webhook, stream=stream, seq=item.seq, event=item.event,
                                   next_attempt_at=now, give_up_at=give_up)
        delivery.body = _body(webhook, delivery, item, subject)
        rows.append(delivery)
    WebhookDelivery.objects.bulk_create(rows)
    return len(rows)


def _subject(tournament: Tournament | None, round_number: int | None, game_id: int | None) -> dict[str, Any]:
    return {"tournament": {"id": tournament.pk, "slug": tournament.slug, "name": tournament.name}
            if tournament is not None else None, "round": round_number, "game": game_id}


def game_collect(game_id: int) -> list[int]:
    """Writes the deliveries of a game's new log entries for every webhook that wants them; returns the
    ids of the streams that have something to send."""
    game = Game.objects.filter(pk=game_id).select_related("round__tournament").first()
    if game is None:
        return []
    tournament = game.round.tournament if game.round_id else None
    subject = _subject(tournament, game.round.number if game.round_id else None, game.pk)
    touched = []
    for webhook in hooks_for(tournament.pk if tournament else None, GAME_EVENTS):
        with transaction.atomic():
            def first_seq(webhook: Webhook = webhook) -> int:
                return (LogEntry.objects.filter(game_id=game_id, created_at__lt=webhook.created_at)
                        .order_by("-seq").values_list("seq", flat=True).first() or 0)

            stream = _stream(webhook, f"g:{game_id}", first_seq)
            rows = list(LogEntry.objects.filter(game_id=game_id, seq__gt=stream.last_seq).order_by("seq")
                        .values_list(*ENTRY_FIELDS))
            if not rows:
                continue
            if _deliveries_write(webhook, stream, _game_items(game, tournament, rows), subject, tournament):
                touched.append(stream.pk)
            stream.last_seq = rows[-1][ENTRY_FIELDS.index("seq")]
            stream.save(update_fields=["last_seq"])
    return touched


def tournament_collect(tournament_id: int) -> list[int]:
    """Writes the deliveries of a tournament's new log rows for every webhook that wants them; returns the
    ids of the streams that have something to send."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return []
    touched = []
    for webhook in hooks_for(tournament.pk, TOURNAMENT_EVENTS):
        with transaction.atomic():
            def first_seq(webhook: Webhook = webhook) -> int:
                return (TournamentLog.objects.filter(tournament=tournament, created_at__lt=webhook.created_at)
                        .order_by("-seq").values_list("seq", flat=True).first() or 0)

            stream = _stream(webhook, f"t:{tournament_id}", first_seq)
            rows = list(TournamentLog.objects.filter(tournament=tournament, seq__gt=stream.last_seq).order_by("seq")
                        .values_list("seq", "kind", "data", "created_at"))
            if not rows:
                continue
            items = _tournament_items(tournament, rows)
            for item in items:
                if item.event == Event.ROUND_PUBLISHED:
                    subject = _subject(tournament, item.data["round"], None)
                    break
            else:
                subject = _subject(tournament, None, None)
            if _deliveries_write(webhook, stream, items, subject, tournament):
                touched.append(stream.pk)
            stream.last_seq = rows[-1][0]
            stream.save(update_fields=["last_seq"])
    return touched


@dataclass(frozen=True)
class Outcome:
    """What ``stream_send_next`` did: ``sent`` (look for the next), ``retry`` (after ``delay`` seconds), ``idle``."""

    what: str
    delay: float = 0.0


def backoff(attempts: int) -> float:
    """Returns the wait before the next attempt after ``attempts`` failed ones (exponential, capped)."""
    return min(settings.WEBHOOK_RETRY_BASE_SECONDS * 2 ** max(attempts - 1, 0), settings.WEBHOOK_RETRY_MAX_DELAY)


def post(webhook: Webhook, delivery: WebhookDelivery) -> tuple[int | None, str]:
    """POSTs a delivery, signed, once; returns the answer's status (None: no answer) and its start or the error."""
    try:
        url_check(webhook.url, allow_private=webhook.allow_private)
    except AddressRefused as error:
        return None, f"refused: {error}"
    body = delivery.body.encode()
    timestamp = str(int(time.time()))
    headers = {"Content-Type": "application/json", "User-Agent": "draughts-webhooks/1",
               EVENT_HEADER: delivery.event, DELIVERY_HEADER: str(delivery.event_id), TIMESTAMP_HEADER: timestamp,
               SIGNATURE_HEADER: signature(webhook.secret, timestamp, body)}
    try:
        answer = requests.post(webhook.url, data=body, headers=headers, allow_redirects=False,
                               timeout=(settings.WEBHOOK_TIMEOUT, settings.WEBHOOK_TIMEOUT), stream=True)
        try:
            text = answer.raw.read(ANSWER_KEPT, decode_content=True).decode("utf-8", "replace")
        finally:
            answer.close()
        return answer.status_code, text
    except requests.RequestException as error:
        return None, f"error: {type(error).__name__}: {str(error)[:ANSWER_KEPT]}"


def stream_send_next(stream_id: int) -> Outcome:
    """Sends the oldest delivery waiting in the stream, if it is due, under the stream's lock.

    Another sender holding the lock: ``idle`` (it looks again for what is waiting when it is done).
    """
    with transaction.atomic():
        stream = (WebhookStream.objects.select_for_update(skip_locked=True).select_related("webhook")
                  .filter(pk=stream_id).first())
        if stream is None or not stream.webhook.active:
            return Outcome("idle")
        delivery = (WebhookDelivery.objects.filter(stream=stream, status=WebhookDelivery.Status.PENDING)
                    .order_by("seq", "id").first())
        if delivery is None:
            return Outcome("idle")
        now = timezone.now()
        if delivery.next_attempt_at > now:  # its retry is scheduled already (or comes with the next event)
            return Outcome("idle")
        code, text = post(stream.webhook, delivery)
        now = timezone.now()
        delivery.attempts += 1
        delivery.last_attempt_at = now
        delivery.last_status_code = code
        delivery.last_answer = text
        if code is not None and 200 <= code < 300:
            delivery.status = WebhookDelivery.Status.DELIVERED
            delivery.delivered_at = now
            outcome = Outcome("sent")
        elif now >= delivery.give_up_at:
            delivery.status = WebhookDelivery.Status.FAILED
            outcome = Outcome("sent")
        else:
            delay = backoff(delivery.attempts)
            delivery.next_attempt_at = now + timedelta(seconds=delay)
            outcome = Outcome("retry", delay)
        delivery.save(update_fields=["attempts", "last_attempt_at", "last_status_code", "last_answer", "status",
                                     "delivered_at", "next_attempt_at"])
        return outcome



def streams_due(grace_seconds: float = 0.0) -> list[int]:
    """Returns the ids of the streams whose oldest waiting delivery has been due for over ``grace_seconds``.

    The sweep's question (``integrations.tasks.deliveries_sweep``): a retry is a task sent with a countdown,
    which a worker killed or a broker restarted empty loses; the delivery stays pending, due, and nothing
    would send it. A stream whose oldest waiting delivery is still in its back-off is not due (its sender
    would do nothing), whatever waits behind it; a stream of a webhook turned off neither.
    """
    now = timezone.now()
    waiting = WebhookDelivery.Status.PENDING
    earlier_not_due = WebhookDelivery.objects.filter(
        Q(seq__lt=OuterRef("seq")) | Q(seq=OuterRef("seq"), id__lt=OuterRef("id")),
        stream=OuterRef("stream"), status=waiting, next_attempt_at__gt=now)
    return list(WebhookDelivery.objects.filter(status=waiting, webhook__active=True,
                                               next_attempt_at__lte=now - timedelta(seconds=grace_seconds))
                .exclude(Exists(earlier_not_due)).order_by("stream_id").values_list("stream_id", flat=True)
                .distinct())
