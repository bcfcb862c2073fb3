"""Sign-in lock-out (django-axes) on the sign-in page and the admin's: after N failures, 429 until the cool-off ends."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import override_settings
from django.utils import timezone

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password"
LOGIN_PAGES = ["/accounts/login/", "/admin/login/"]


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser(username="boss", password=PASSWORD)


def _fail(client, url, username, times, **extra):
    return [client.post(url, {"username": username, "password": "wrong-guess"}, **extra).status_code
            for _ in range(times)]


@pytest.mark.parametrize("url", LOGIN_PAGES)
def test_the_fifth_wrong_password_locks_out_even_the_right_one(client, staff, url):
    codes = _fail(client, url, "boss", 5)
    assert codes[:4] == [200] * 4 and codes[4] == 429
    response = client.post(url, {"username": "boss", "password": PASSWORD})
    assert response.status_code == 429
    assert b"Too many failed sign-ins" in response.content
    assert int(response["Retry-After"]) == 15 * 60
    assert "_auth_user_id" not in client.session


def test_thirty_guesses_never_get_through(client, staff):
    codes = _fail(client, "/accounts/login/", "boss", 30)
    assert codes.count(429) == 26


def test_the_lock_is_for_that_username_from_that_address(client, staff, django_user_model):
    django_user_model.objects.create_user(username="other", password=PASSWORD)
    _fail(client, "/accounts/login/", "boss", 5)
    assert client.post("/accounts/login/", {"username": "other", "password": PASSWORD}).status_code == 302
    client.logout()
    assert client.post("/accounts/login/", {"username": "boss", "password": PASSWORD},
                       REMOTE_ADDR="10.1.2.3").status_code == 302


def test_after_the_cool_off_the_right_password_signs_in(client, staff):
    _fail(client, "/accounts/login/", "boss", 5)
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    response = client.post("/accounts/login/", {"username": "boss", "password": PASSWORD})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(staff.pk)


def test_an_administrator_unlocks_by_deleting_the_attempts_in_the_admin(client, staff, django_user_model):
    _fail(client, "/accounts/login/", "boss", 5)
    admin = django_user_model.objects.create_superuser(username="root", password=PASSWORD)
    from django.test import Client

    admin_client = Client()
    admin_client.force_login(admin)
    attempt = AccessAttempt.objects.get(username="boss")
    assert b"boss" in admin_client.get("/admin/axes/accessattempt/").content
    response = admin_client.post("/admin/axes/accessattempt/", {
        "action": "delete_selected", "_selected_action": [attempt.pk], "post": "yes",
    })
    assert response.status_code == 302 and not AccessAttempt.objects.exists()
    assert client.post("/accounts/login/", {"username": "boss", "password": PASSWORD}).status_code == 302


def test_a_success_resets_the_count(client, staff):
    _fail(client, "/accounts/login/", "boss", 4)
    assert client.post("/accounts/login/", {"username": "boss", "password": PASSWORD}).status_code == 302
    client.logout()
    assert _fail(client, "/accounts/login/", "boss", 4) == [200] * 4


@override_settings(AXES_FAILURE_LIMIT=2)
def test_the_limit_is_a_setting(client, staff):
    assert _fail(client, "/accounts/login/", "boss", 2) == [200, 429]


def test_authenticate_without_a_request_is_not_refused(staff):
    from django.contrib.auth import authenticate

    assert authenticate(username="boss", password=PASSWORD) == staff
