"""A delivery whose retry's task was lost (a worker killed, the broker restarted empty) is sent by the
beat's sweep (integrations.deliveries_sweep), once; a delivery in its back-off, or just written, is left
to its own task."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.support.webhook_receiver import Receiver, verified

pytestmark = [pytest.mark.django_db(transaction=True)]


def failed_once(world, receiver):
    """A move delivered once with a 500: pending, its retry in the back-off. In process (eager) no retry
    task is sent at all: the delivery is as a lost task leaves it."""
    from arbitration.services import game_move_record
    from integrations import services
    from integrations.models import WebhookDelivery

    hook = services.webhook_create(acting_user=world["director"], tournament=world["tournament"], url=receiver.url,
                                   events=["move"])
    game_move_record(acting_user=world["referee"], game_id=world["games"][0].pk, move="11-15")
    receiver.wait_for(1)
    delivery = WebhookDelivery.objects.get(webhook=hook)
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("pending", 1, 500)
    assert delivery.next_attempt_at > timezone.now()
    return hook, delivery


def test_a_delivery_whose_retry_was_lost_is_sent_by_the_sweep_once(world, loopback_allowed, settings):
    from integrations.models import WebhookDelivery
    from integrations.tasks import deliveries_sweep

    settings.WEBHOOK_SWEEP_GRACE_SECONDS = 60
    with Receiver(statuses=[500]) as receiver:
        hook, delivery = failed_once(world, receiver)
        assert deliveries_sweep() == []  # in its back-off: its own task will send it
        WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now() - timedelta(seconds=30))
        assert deliveries_sweep() == []  # due, but not for long: its task may be on its way
        WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now() - timedelta(minutes=5))
        assert deliveries_sweep() == [delivery.stream_id]
        receiver.wait_for(2)
        assert deliveries_sweep() == [] and deliveries_sweep() == []
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("delivered", 2)
    bodies = [verified(hook.secret, request) for request in receiver.received]
    assert len(bodies) == 2 and bodies[0]["id"] == bodies[1]["id"] == str(delivery.event_id)


def test_the_sweep_leaves_a_stream_whose_oldest_delivery_waits_its_back_off_and_a_webhook_turned_off(
        world, loopback_allowed, settings):
    from arbitration.services import game_move_record
    from integrations import services
    from integrations.models import WebhookDelivery
    from integrations.tasks import deliveries_sweep

    settings.WEBHOOK_SWEEP_GRACE_SECONDS = 0
    with Receiver(statuses=[500]) as receiver:
        hook, first = failed_once(world, receiver)
        game_move_record(acting_user=world["referee"], game_id=world["games"][0].pk, move="23-19")
        second = WebhookDelivery.objects.exclude(pk=first.pk).get(webhook=hook)
        WebhookDelivery.objects.filter(pk=second.pk).update(next_attempt_at=timezone.now() - timedelta(minutes=5))
        assert deliveries_sweep() == []  # the second is due, but it goes after the first, which is not
        WebhookDelivery.objects.filter(pk=first.pk).update(next_attempt_at=timezone.now() - timedelta(minutes=5))
        services.webhook_update(acting_user=world["director"], webhook_id=hook.pk, active=False)
        assert deliveries_sweep() == []
        services.webhook_update(acting_user=world["director"], webhook_id=hook.pk, active=True)
        assert deliveries_sweep() == [first.stream_id]
        receiver.wait_for(3)
    assert list(WebhookDelivery.objects.filter(webhook=hook).order_by("seq").values_list("status", "attempts")) == [
        ("delivered", 2), ("delivered", 1)]
    assert [verified(hook.secret, r)["data"]["move"] for r in receiver.received] == ["11-15", "11-15", "23-19"]


def test_a_second_sender_of_a_stream_being_sent_does_nothing(world, loopback_allowed, settings):
    """The sweep's task and a retry's task for one stream at once: the stream's row lock lets one send."""
    import threading

    from django.db import connection, connections, transaction

    from integrations.delivery import stream_send_next
    from integrations.models import WebhookDelivery, WebhookStream

    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL")
    with Receiver(statuses=[500]) as receiver:
        hook, delivery = failed_once(world, receiver)
        WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now() - timedelta(minutes=5))
        outcome = []

        def second_sender() -> None:
            try:
                outcome.append(stream_send_next(delivery.stream_id))
            finally:
                connections.close_all()

        with transaction.atomic():
            WebhookStream.objects.select_for_update().get(pk=delivery.stream_id)  # a sender holds it
            thread = threading.Thread(target=second_sender)
            thread.start()
            thread.join()
        assert [o.what for o in outcome] == ["idle"] and len(receiver.received) == 1
        assert stream_send_next(delivery.stream_id).what == "sent"
        receiver.wait_for(2)
    assert WebhookDelivery.objects.get(pk=delivery.pk).status == "delivered"
