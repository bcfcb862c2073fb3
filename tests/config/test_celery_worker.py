"""A task sent over the real Redis is run by a real worker process."""

import pytest

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def test_a_task_sent_to_the_real_worker_returns(celery_worker):
    from config.celery import ping

    result = ping.delay("hello")
    answer = result.get(timeout=20)
    assert answer["payload"] == "hello"
    assert answer["pid"] != str(__import__("os").getpid())  # it ran in another process


def test_health_counts_the_running_worker(celery_worker, client):
    body = client.get("/healthz").json()
    assert body["broker"] == "ok"
    assert body["workers"] >= 1
