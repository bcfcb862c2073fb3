"""GET /healthz answers from the workers' heartbeats: up/down for anyone, the detail for staff.

It asks neither the broker nor the workers: one database query per anonymous call.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.heartbeat import beat, forget
from core.models import WorkerHeartbeat

pytestmark = pytest.mark.django_db


def _no_broker_nor_worker(monkeypatch):
    """Makes any broker connection or worker ping fail the test."""
    import kombu

    from config.celery import app

    def refuse(*_args, **_kwargs):
        raise AssertionError("/healthz must not talk to the broker or the workers")

    monkeypatch.setattr(kombu.Connection, "ensure_connection", refuse)
    monkeypatch.setattr(kombu.Connection, "connect", refuse)
    monkeypatch.setattr(app.control, "ping", refuse)
    monkeypatch.setattr(app, "connection_for_write", refuse)


@pytest.mark.smoke
def test_anonymous_callers_get_up_and_nothing_more(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "up"}


@pytest.mark.smoke
def test_an_anonymous_call_is_one_query_and_no_broker_round_trip(client, monkeypatch):
    _no_broker_nor_worker(monkeypatch)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/healthz").json() == {"status": "up"}
    assert len(queries) == 1


@pytest.mark.smoke
def test_a_director_sees_the_detail_without_workers(client, director, monkeypatch):
    _no_broker_nor_worker(monkeypatch)
    client.force_login(director)
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "up", "database": "ok", "broker": "down", "workers": 0,
                               "last_heartbeat_age": None}


def test_staff_see_the_fresh_heartbeats_counted_and_the_stale_ones_not(client, make_user, settings):
    staff = make_user("ops", "player")
    staff.is_staff = True
    staff.save()
    beat("celery@fresh", 101)
    WorkerHeartbeat.objects.create(name="celery@gone", pid=7, beat_at=timezone.now() - timedelta(minutes=5))
    client.force_login(staff)
    body = client.get("/healthz").json()
    assert body["workers"] == 1 and body["broker"] == "ok" and body["database"] == "ok"
    assert 0 <= body["last_heartbeat_age"] < 60
    settings.HEALTH_HEARTBEAT_STALE = 600
    assert client.get("/healthz").json()["workers"] == 2
    forget("celery@fresh")
    assert list(WorkerHeartbeat.objects.values_list("name", flat=True)) == ["celery@gone"]


def test_a_director_token_sees_the_detail_and_a_bad_token_the_anonymous_answer(client, director):
    from accounts.services import token_issue

    key = token_issue(user=director)
    assert "workers" in client.get("/healthz", HTTP_AUTHORIZATION=f"Token {key}").json()
    assert client.get("/healthz", HTTP_AUTHORIZATION="Token not-a-token").json() == {"status": "up"}


def test_a_player_gets_the_anonymous_answer(client, player_user):
    client.force_login(player_user)
    assert client.get("/healthz").json() == {"status": "up"}


@pytest.mark.django_db(transaction=True)
def test_parallel_calls_are_answered_from_the_database_alone(monkeypatch):
    """Twelve calls at once: each answered, none opening a broker connection or pinging a worker."""
    from django.db import connections
    from django.test import Client

    _no_broker_nor_worker(monkeypatch)
    beat("celery@one", 1)

    def call(_n: int) -> tuple[int, dict]:
        try:
            response = Client().get("/healthz")
            return response.status_code, response.json()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=12) as pool:
        answers = list(pool.map(call, range(12)))
    assert answers == [(200, {"status": "up"})] * 12


@pytest.mark.django_db(transaction=True)
def test_health_is_503_when_the_database_does_not_answer(client):
    real = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = "no_such_database_for_health"
    try:
        response = client.get("/healthz")
    finally:
        connection.close()
        connection.settings_dict["NAME"] = real
    assert response.status_code == 503
    assert response.json() == {"status": "down"}
