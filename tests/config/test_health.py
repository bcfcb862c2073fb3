"""GET /healthz reports the database, the broker and the workers."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.smoke
def test_health_with_database_up_and_broker_down(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {}
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "broker": "down", "workers": 0}


@pytest.mark.smoke
def test_health_with_the_configured_broker_up(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["database"] == "ok"
    assert body["broker"] == "ok"
    assert isinstance(body["workers"], int)


@pytest.mark.django_db(transaction=True)
def test_health_is_503_when_the_database_does_not_answer(client):
    from django.db import connection

    real = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = "no_such_database_for_health"
    try:
        response = client.get("/healthz")
    finally:
        connection.close()
        connection.settings_dict["NAME"] = real
    assert response.status_code == 503
    assert response.json()["database"] == "down"
