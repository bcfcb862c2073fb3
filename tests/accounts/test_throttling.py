"""API throttles: anonymous callers by address, signed-in ones by user; 429 in the error shape with Retry-After."""

from __future__ import annotations

import pytest
from django.test import override_settings
from rest_framework.settings import api_settings

from accounts.services import token_issue

pytestmark = pytest.mark.django_db


def _rates(anon, user):
    return override_settings(REST_FRAMEWORK={**api_settings.user_settings,
                                             "DEFAULT_THROTTLE_RATES": {"anon": anon, "user": user}})


def test_an_anonymous_caller_over_the_rate_gets_429_in_the_error_shape_with_retry_after(api_client):
    with _rates("3/min", "100/min"):
        assert [api_client.get("/api/v1/players/").status_code for _ in range(3)] == [200, 200, 200]
        response = api_client.get("/api/v1/players/")
    assert response.status_code == 429
    body = response.json()
    assert body["error"]["code"] == "throttled" and set(body["error"]) == {"code", "message", "details"}
    assert "throttled" in body["error"]["message"].lower()
    assert 1 <= int(response["Retry-After"]) <= 60


def test_another_address_is_counted_apart(api_client):
    with _rates("1/min", "100/min"):
        assert api_client.get("/api/v1/players/").status_code == 200
        assert api_client.get("/api/v1/players/").status_code == 429
        assert api_client.get("/api/v1/players/", REMOTE_ADDR="10.0.0.9").status_code == 200


def test_a_signed_in_user_is_counted_by_user_with_his_own_rate(referee, director, api_client):
    key, other = token_issue(user=referee), token_issue(user=director)
    with _rates("1/min", "2/min"):
        codes = [api_client.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {key}").status_code for _ in range(3)]
        assert codes == [200, 200, 429]
        response = api_client.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {key}")
        assert response.json()["error"]["code"] == "throttled" and response.has_header("Retry-After")
        assert api_client.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {other}").status_code == 200


def test_a_rate_of_none_turns_the_throttle_off(api_client):
    with _rates(None, None):
        assert {api_client.get("/api/v1/players/").status_code for _ in range(30)} == {200}


def test_the_rates_come_from_the_environment_and_off_turns_one_off(tmp_path):
    from tests.config.test_settings import run_django

    code = "from django.conf import settings; print(settings.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'])"
    env = {"DJANGO_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "x"}
    result = run_django(code, {**env, "API_THROTTLE_ANON": "7/min", "API_THROTTLE_USER": "off"}, setup=False)
    assert result.stdout.strip() == "{'anon': '7/min', 'user': None}", result.stderr
    result = run_django(code, env, setup=False)
    assert result.stdout.strip() == "{'anon': '1200/min', 'user': '6000/min'}", result.stderr


def test_the_count_starts_again_in_the_next_window(api_client, monkeypatch):
    from accounts.throttling import AnonThrottle

    now = [1000.2]
    monkeypatch.setattr(AnonThrottle, "timer", lambda self: now[0])
    with _rates("2/min", None):
        assert [api_client.get("/api/v1/players/").status_code for _ in range(3)] == [200, 200, 429]
        assert api_client.get("/api/v1/players/")["Retry-After"] == str(1020 - 1000)  # the window ends at 1020
        now[0] = 1020.0
        assert api_client.get("/api/v1/players/").status_code == 200
