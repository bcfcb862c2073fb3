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


def test_results_change_the_standings_and_a_new_round_is_published_with_its_pairings(world, loopback_allowed):
    from integrations import services
    from tournaments import services as tournaments

    director, tournament, games = world["director"], world["tournament"], world["games"]
    with Receiver() as receiver:
        hook = services.webhook_create(acting_user=director, tournament=tournament, url=receiver.url,
                                       events=["round_published", "standings_changed"])
        for game in games:
            tournaments.game_result_set(acting_user=director, tournament=tournament, game_id=game.pk,
                                        result="1/2-1/2", reason="Agreed at the board")
        number = tournaments.round_pair(acting_user=director, tournament=tournament).number
        tournaments.round_publish(acting_user=director, tournament=tournament, number=number)
        receiver.wait_for(1)
        bodies = [verified(hook.secret, request) for request in receiver.received]
    events = [body["event"] for body in bodies]
    assert set(events) == {"standings_changed", "round_published"} and events[-1] == "round_published"
    published = bodies[-1]
    assert published["round"] == 2 and len(published["data"]["pairings"]) == 2
    assert {p["player_one"] for p in published["data"]["pairings"]} <= {
        "Agnes Calder", "Bram Okafor", "Cora Dunn", "Dev Rao"}
    last_standings = [b for b in bodies if b["event"] == "standings_changed"][-1]["data"]["standings"]
    assert sorted(row["points"] for row in last_standings) == [1, 1, 1, 1]  # every match drawn: a point each
    assert all(body["tournament"]["slug"] == "spring" for body in bodies)


def test_a_webhook_of_another_tournament_hears_nothing_of_this_one(world, loopback_allowed):
    from arbitration.services import game_move_record
    from integrations import services
    from integrations.models import WebhookDelivery
    from tournaments.models import Tournament

    with Receiver() as receiver:
        services.webhook_create(acting_user=world["other"], tournament=Tournament.objects.get(slug="other"),
                                url=receiver.url, events=["move"])
        game_move_record(acting_user=world["referee"], game_id=world["games"][0].pk, move="11-15")
    assert receiver.received == [] and not WebhookDelivery.objects.exists()


def test_send_again_delivers_a_given_up_delivery(world, client_as, loopback_allowed):
    """(Here, not beside the webhooks' other access tests: the resend is queued on the commit.)"""
    from integrations import services
    from integrations.models import WebhookDelivery
    from tests.support.integrations_world import given_up_delivery

    with Receiver() as receiver:
        hook = services.webhook_create(acting_user=world["director"], tournament=world["tournament"],
                                       url=receiver.url, events=["move"])
        delivery = given_up_delivery(hook)
        answer = client_as(world["director"]).post(f"/api/v1/webhook-deliveries/{delivery.pk}/resend")
        assert answer.status_code == 202, answer.content
        (request,) = receiver.wait_for(1)
    assert request["headers"]["x-draughts-delivery"] == str(delivery.event_id)
    assert verified(hook.secret, request) == {}
    delivery = WebhookDelivery.objects.get(pk=delivery.pk)
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("delivered", 10, 200)
