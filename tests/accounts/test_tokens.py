"""API tokens: stored as digests, expiring, revoked by a password change, listed and revoked by their owner."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import ApiToken, token_digest
from accounts.services import token_issue

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password"


def _me(api_client, key):
    return api_client.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {key}")


def test_a_token_made_through_the_api_is_answered_once_and_stored_only_as_its_digest(referee, client_as):
    response = client_as(referee).post("/api/v1/me/tokens/", {"name": "board 3 tablet", "days": 10}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    key = body["key"]
    assert len(key) == 40 and body["name"] == "board 3 tablet" and body["prefix"] == key[:8]
    row = ApiToken.objects.values().get(pk=body["id"])
    assert row["digest"] == token_digest(key)
    assert all(key not in str(value) for value in row.values())
    assert timedelta(days=9, hours=23) < row["expires"] - row["created"] <= timedelta(days=10)
    listed = client_as(referee).get("/api/v1/me/tokens/").json()
    assert [t["id"] for t in listed] == [body["id"]] and "key" not in listed[0] and "digest" not in listed[0]


def test_the_new_key_authenticates_and_a_wrong_one_does_not(referee, api_client):
    key = token_issue(user=referee)
    assert _me(api_client, key).json()["username"] == "ref"
    assert _me(api_client, key[:-1] + ("0" if key[-1] != "0" else "1")).status_code == 401


def test_an_expired_token_is_refused_in_the_error_shape(referee, api_client):
    key = token_issue(user=referee)
    ApiToken.objects.filter(user=referee).update(expires=timezone.now() - timedelta(seconds=1))
    response = _me(api_client, key)
    assert response.status_code == 401
    assert response.json()["error"] == {"code": "authentication_failed", "message": "Token expired.", "details": {}}


def test_a_lifetime_beyond_the_maximum_is_a_validation_error(referee, client_as):
    response = client_as(referee).post("/api/v1/me/tokens/", {"name": "x", "days": 366}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "validation_error"
    assert not ApiToken.objects.exists()


def test_last_used_is_recorded(referee, api_client):
    key = token_issue(user=referee)
    assert ApiToken.objects.get().last_used is None
    _me(api_client, key)
    assert ApiToken.objects.get().last_used is not None


def test_the_owner_lists_and_revokes_his_own_tokens_but_not_anothers(referee, director, client_as, api_client):
    own = token_issue(user=referee)
    others = token_issue(user=director)
    other_id = ApiToken.objects.get(user=director).pk
    client = client_as(referee)
    listed = client.get("/api/v1/me/tokens/").json()
    assert len(listed) == 1 and listed[0]["prefix"] == own[:8]
    response = client.delete(f"/api/v1/me/tokens/{other_id}/")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    response = client.delete(f"/api/v1/me/tokens/{listed[0]['id']}/")
    assert response.status_code == 204
    client.force_authenticate(user=None)
    assert _me(api_client, own).status_code == 401
    assert _me(api_client, others).status_code == 200


def test_a_token_can_revoke_itself(referee, api_client):
    key = token_issue(user=referee)
    token_id = ApiToken.objects.get().pk
    assert api_client.delete(f"/api/v1/me/tokens/{token_id}/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 204
    assert _me(api_client, key).status_code == 401


def test_anonymous_callers_have_no_tokens(api_client):
    assert api_client.get("/api/v1/me/tokens/").status_code == 401
    assert api_client.post("/api/v1/me/tokens/", {"name": "x"}, format="json").status_code == 401


def test_changing_the_password_on_the_page_revokes_all_tokens(referee, director, client, api_client):
    keys = [token_issue(user=referee), token_issue(user=referee)]
    kept = token_issue(user=director)
    client.force_login(referee)
    response = client.post("/accounts/password/", {
        "old_password": PASSWORD, "new_password1": "another-long-password-9", "new_password2": "another-long-password-9",
    })
    assert response.status_code == 302 and response["Location"] == "/accounts/password/done/"
    assert all(_me(api_client, key).status_code == 401 for key in keys)
    assert not ApiToken.objects.filter(user=referee).exists()
    assert _me(api_client, kept).status_code == 200


def test_an_administrator_setting_a_password_in_the_admin_revokes_the_users_tokens(referee, client, django_user_model):
    root = django_user_model.objects.create_superuser(username="root", password=PASSWORD)
    token_issue(user=referee)
    client.force_login(root)
    response = client.post(f"/admin/auth/user/{referee.pk}/password/", {
        "password1": "another-long-password-9", "password2": "another-long-password-9", "usable_password": "true",
    })
    assert response.status_code == 302, response.content[:2000]
    assert not ApiToken.objects.filter(user=referee).exists()


def test_a_sign_in_that_upgrades_an_old_password_hash_keeps_the_tokens_and_a_new_password_revokes_them(
        referee, client):
    """Django re-hashes a password hashed with an old work factor when it is checked at a sign-in
    (every Django release raises it): the password is the same, so the tokens stay. Setting a new
    password, even saving only that field, still revokes them."""
    from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password

    class OldPBKDF2(PBKDF2PasswordHasher):
        iterations = 300

    referee.password = make_password(PASSWORD, hasher=OldPBKDF2())
    referee.save(update_fields=["password"])
    old_hash = referee.password
    key = token_issue(user=referee)
    response = client.post("/accounts/login/", {"username": "ref", "password": PASSWORD})
    assert response.status_code == 302
    referee.refresh_from_db()
    assert referee.password != old_hash  # upgraded
    assert ApiToken.objects.filter(user=referee, digest=token_digest(key)).exists()
    referee.set_password("another-long-password-9")
    referee.save(update_fields=["password"])
    assert not ApiToken.objects.filter(user=referee).exists()


def test_signing_in_or_saving_other_fields_keeps_the_tokens(referee, client):
    token_issue(user=referee)
    response = client.post("/accounts/login/", {"username": "ref", "password": PASSWORD})
    assert response.status_code == 302
    referee.refresh_from_db()
    referee.first_name = "Rita"
    referee.save()
    assert ApiToken.objects.filter(user=referee).count() == 1


def test_the_tokens_page_makes_shows_once_and_revokes(referee, client):
    client.force_login(referee)
    page = client.get("/accounts/tokens/")
    assert page.status_code == 200 and b"You have no API tokens." in page.content
    made = client.post("/accounts/tokens/", {"name": "laptop", "days": "7"})
    assert made.status_code == 200
    key = made.context["new_key"]
    assert key and key.encode() in made.content
    token = ApiToken.objects.get(user=referee)
    assert token.digest == token_digest(key) and token.name == "laptop"
    again = client.get("/accounts/tokens/")
    assert key.encode() not in again.content and token.prefix.encode() in again.content
    revoked = client.post("/accounts/tokens/", {"revoke": str(token.pk)})
    assert revoked.status_code == 302 and not ApiToken.objects.exists()


def test_the_tokens_page_does_not_revoke_anothers_token(referee, director, client):
    token_issue(user=director)
    client.force_login(referee)
    response = client.post("/accounts/tokens/", {"revoke": str(ApiToken.objects.get().pk)})
    assert response.status_code == 400 and ApiToken.objects.count() == 1


def test_the_tokens_page_needs_a_sign_in_and_is_linked_from_the_menu(referee, client):
    assert client.get("/accounts/tokens/").status_code == 302
    client.force_login(referee)
    assert b'href="/accounts/tokens/"' in client.get("/").content


def test_administrators_list_and_revoke_tokens_in_the_admin(referee, client, django_user_model):
    root = django_user_model.objects.create_superuser(username="root", password=PASSWORD)
    token_issue(user=referee)
    token = ApiToken.objects.get()
    client.force_login(root)
    listing = client.get("/admin/accounts/apitoken/")
    assert listing.status_code == 200 and token.prefix.encode() in listing.content
    assert token.digest.encode() not in listing.content
    response = client.post("/admin/accounts/apitoken/", {
        "action": "delete_selected", "_selected_action": [token.pk], "post": "yes",
    })
    assert response.status_code == 302 and not ApiToken.objects.exists()


def test_the_migration_turns_plain_drf_keys_into_digests_and_empties_the_old_table(referee):
    import importlib

    from django.apps import apps

    migration = importlib.import_module("accounts.migrations.0003_drf_tokens_to_digests")
    key = "a" * 40
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created timestamp with time zone, "
                       "user_id integer NOT NULL)" if connection.vendor == "postgresql" else
                       "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created datetime, user_id integer)")
        cursor.execute("INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, %s, %s)",
                       [key, timezone.now(), referee.pk])
    migration.digests_from_plain_keys(apps, SimpleNamespace(connection=connection))
    token = ApiToken.objects.get()
    assert token.user_id == referee.pk and token.digest == token_digest(key) and token.name == "migrated DRF token"
    assert token.expires > timezone.now() + timedelta(days=80)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM authtoken_token")
        assert cursor.fetchone()[0] == 0


def test_a_token_cannot_make_a_token_that_would_outlive_it(referee, api_client):
    key = token_issue(user=referee, days=1)
    response = api_client.post("/api/v1/me/tokens/", {"name": "renewed", "days": 365}, format="json",
                               HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code == 403
    error = response.json()["error"]
    assert error["code"] == "permission_denied" and "A token cannot make a token" in error["message"]
    (only,) = ApiToken.objects.filter(user=referee)
    assert only.expires - only.created <= timedelta(days=1)
    # a short-lived one is refused too: a token makes none, so none survives its revocation
    response = api_client.post("/api/v1/me/tokens/", {"name": "child", "days": 1}, format="json",
                               HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code == 403 and ApiToken.objects.filter(user=referee).count() == 1
    # the token still lists its owner's tokens and revokes itself
    listed = api_client.get("/api/v1/me/tokens/", HTTP_AUTHORIZATION=f"Token {key}")
    assert [t["id"] for t in listed.json()] == [only.pk]
    assert api_client.delete(f"/api/v1/me/tokens/{only.pk}/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 204


def test_a_session_signed_in_with_the_password_makes_a_token(referee):
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=True)
    page = client.get("/accounts/login/")
    client.post("/accounts/login/", {"username": "ref", "password": PASSWORD,
                                     "csrfmiddlewaretoken": page.cookies["csrftoken"].value})
    response = client.post("/api/v1/me/tokens/", {"name": "laptop", "days": 365}, format="json",
                           HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    assert response.status_code == 201, response.content
    assert _me(APIClient(), response.json()["key"]).json()["username"] == "ref"
