"""Webhooks without a worker: what is delivered for a move, a ruling, the end, a round; the signature;
the addresses refused; the back-off."""

from __future__ import annotations

import pytest

from tests.support.webhook_receiver import Receiver, verified

pytestmark = [pytest.mark.django_db(transaction=True)]

OPENING = ["11-15", "23-19", "8-11", "22-17"]


def test_a_move_a_resignation_and_the_end_are_delivered_signed_in_order(world, loopback_allowed):
    from arbitration.services import game_move_record, ruling_issue
    from integrations import services
    from integrations.models import WebhookDelivery

    game = world["games"][0]
    with Receiver() as receiver:
        hook = services.webhook_create(acting_user=world["director"], tournament=world["tournament"],
                                       url=receiver.url, events=["move", "ruling", "game_finished"])
        for move in OPENING[:2]:
            game_move_record(acting_user=world["referee"], game_id=game.pk, move=move)
        ruling_issue(acting_user=world["referee"], game_id=game.pk, kind="resign", side="black")
        bodies = [verified(hook.secret, request) for request in receiver.wait_for(4)]
    assert [(b["event"], b["data"].get("move")) for b in bodies] == [
        ("move", "11-15"), ("move", "23-19"), ("ruling", None), ("game_finished", None)]
    assert bodies[2]["data"]["kind"] == "resign" and bodies[3]["data"]["result"] == "0-1"
    assert [b["seq"] for b in bodies] == sorted(b["seq"] for b in bodies)
    assert bodies[0]["tournament"]["slug"] == "spring" and bodies[0]["game"] == game.pk
    assert len({b["id"] for b in bodies}) == len(bodies)
    assert WebhookDelivery.objects.filter(webhook=hook, status="delivered").count() == len(bodies)
