"""Webhooks delivered by a real Celery worker process to a real receiver on the loopback: the moves in
order, each signed; a receiver that answers 500 twice has the delivery on the third attempt; a receiver
that hangs holds neither the move path nor the order."""

from __future__ import annotations

import time

import pytest

from tests.support.webhook_receiver import Receiver, verified

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]

MOVES = ["11-15", "23-19", "8-11", "22-17", "9-13", "17-14"]


def register(world, client_as, url, events=("move",)):
    answer = client_as(world["director"]).post("/api/v1/webhooks/", {"tournament": "spring", "url": url,
                                                                      "events": list(events)}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def wait_delivered(webhook_id, count, timeout=60.0):
    from integrations.models import WebhookDelivery

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = list(WebhookDelivery.objects.filter(webhook_id=webhook_id).order_by("seq"))
        if len(rows) >= count and all(row.status == "delivered" for row in rows):
            return rows
        time.sleep(0.2)
    raise AssertionError(f"not delivered: {[(r.seq, r.status, r.attempts) for r in rows]}")


def test_a_receiver_gets_each_move_in_order_signed(world, client_as, celery_worker, loopback_allowed):
    from arbitration.services import game_move_record

    game = world["games"][0]
    with Receiver() as receiver:
        hook = register(world, client_as, receiver.url)
        for move in MOVES:
            game_move_record(acting_user=world["referee"], game_id=game.pk, move=move)
        bodies = [verified(hook["secret"], request) for request in receiver.wait_for(len(MOVES))]
    assert [body["data"]["move"] for body in bodies] == MOVES
    assert [body["data"]["ply"] for body in bodies] == list(range(1, len(MOVES) + 1))
    assert all(body["event"] == "move" and body["game"] == game.pk for body in bodies)
    assert [r["headers"]["x-draughts-delivery"] for r in receiver.received] == [b["id"] for b in bodies]
    rows = wait_delivered(hook["id"], len(MOVES))
    assert [row.attempts for row in rows] == [1] * len(MOVES)


def test_a_receiver_that_answers_500_twice_gets_it_on_the_third_attempt(world, client_as, celery_worker,
                                                                          loopback_allowed):
    from arbitration.services import game_move_record

    game = world["games"][0]
    with Receiver(statuses=[500, 500]) as receiver:
        hook = register(world, client_as, receiver.url)
        game_move_record(acting_user=world["referee"], game_id=game.pk, move="11-15")
        requests = receiver.wait_for(3)
        (row,) = wait_delivered(hook["id"], 1)
        time.sleep(1.5)  # nothing more comes: the third attempt was the last
        assert len(receiver.received) == 3
    assert len({r["headers"]["x-draughts-delivery"] for r in requests}) == 1  # the same delivery, the same id
    assert all(verified(hook["secret"], r)["data"]["move"] == "11-15" for r in requests)
    # Back-off: 0.5 s (WEBHOOK_RETRY_BASE_SECONDS in the tests), then twice that; a loaded machine only adds.
    first_wait, second_wait = requests[1]["at"] - requests[0]["at"], requests[2]["at"] - requests[1]["at"]
    assert first_wait >= 0.45 and second_wait >= 0.95
    assert (row.status, row.attempts, row.last_status_code) == ("delivered", 3, 200)


def test_a_hanging_receiver_holds_neither_the_moves_nor_the_order(world, client_as, celery_worker,
                                                                  loopback_allowed):
    from arbitration.services import game_move_record

    game = world["games"][0]
    with Receiver(hang_seconds=120) as receiver:
        hook = register(world, client_as, receiver.url)
        game_move_record(acting_user=world["referee"], game_id=game.pk, move=MOVES[0])
        receiver.wait_for(1)  # the worker's first delivery is held by the receiver from now on
        took = []
        for move in MOVES[1:]:
            started = time.monotonic()
            game_move_record(acting_user=world["referee"], game_id=game.pk, move=move)
            took.append(time.monotonic() - started)
        # The receiver still holds the first delivery; the moves did not wait for it (a move takes
        # milliseconds; one waiting on the receiver would take its time limit, 5 s, or its 120 s).
        assert not receiver.released.is_set()
        assert max(took) < 3.0, took
        # In order: nothing after the first move was sent while the first is not delivered.
        assert {r["headers"]["x-draughts-delivery"] for r in receiver.received} == {
            receiver.received[0]["headers"]["x-draughts-delivery"]}
        receiver.released.set()
        rows = wait_delivered(hook["id"], len(MOVES), timeout=90)
        first_seen = []
        for request in receiver.received:
            body = verified(hook["secret"], request)
            if body["id"] not in [b["id"] for b in first_seen]:
                first_seen.append(body)
    assert [b["data"]["move"] for b in first_seen] == MOVES
    assert [row.seq for row in rows] == sorted(row.seq for row in rows)
