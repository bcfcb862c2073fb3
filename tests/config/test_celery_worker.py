"""A task sent over the real Redis is run by a real worker process."""

import pytest

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def test_a_task_sent_to_the_real_worker_returns(celery_worker):
    from config.celery import ping

    result = ping.delay("hello")
    answer = result.get(timeout=20)
    assert answer["payload"] == "hello"
    assert answer["pid"] != str(__import__("os").getpid())  # it ran in another process


def test_the_running_worker_beats_and_health_counts_it(celery_worker, client, director):
    """The real worker writes its heartbeat row; /healthz (as a director) counts it."""
    import time

    from core.models import WorkerHeartbeat

    deadline = time.monotonic() + 30
    while not WorkerHeartbeat.objects.filter(name=celery_worker.node_name).exists():
        assert time.monotonic() < deadline, "the worker wrote no heartbeat"
        time.sleep(0.2)
    first = WorkerHeartbeat.objects.get(name=celery_worker.node_name)
    assert first.pid == celery_worker.process.pid  # the worker's main process beats
    while WorkerHeartbeat.objects.get(name=celery_worker.node_name).beat_at == first.beat_at:
        assert time.monotonic() < deadline + 10, "the worker's heartbeat is not refreshed"
        time.sleep(0.2)
    client.force_login(director)
    body = client.get("/healthz").json()
    assert body["broker"] == "ok" and body["database"] == "ok"
    assert body["workers"] >= 1 and body["last_heartbeat_age"] is not None
