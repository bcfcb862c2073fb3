"""The API's token authentication: the token, its user and the user's roles in one query."""

from __future__ import annotations

import pytest

from accounts.models import ApiToken, token_digest
from accounts.roles import Role, is_director, user_roles
from accounts.services import token_issue
from tests.arbitration.conftest import players  # noqa: F401  (fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.smoke]


def _authenticate(key: str):
    from accounts.authentication import TokenAuthentication

    return TokenAuthentication().authenticate_credentials(key)


def test_a_token_gives_its_user_and_roles_in_one_query(make_user, django_assert_num_queries):
    from django.contrib.auth.models import Group

    user = make_user("dual", Role.REFEREE)
    # (get_or_create, as the services do: the groups the migration makes are gone after a transactional
    # test has run before this one on the same worker, whose tables are emptied after it)
    user.groups.add(Group.objects.get_or_create(name=Role.PLAYER)[0])
    key = token_issue(user=user)
    _authenticate(key)  # the first use of the hour also records last_used (one UPDATE)
    with django_assert_num_queries(1):
        found, token = _authenticate(key)
        assert user_roles(found) == {Role.REFEREE, Role.PLAYER} and not is_director(found)
    assert found.pk == user.pk and found.username == "dual" and token.user is found
    assert token.digest == token_digest(key) and token.created == ApiToken.objects.get(digest=token_digest(key)).created


def test_a_user_without_a_role_has_none_and_a_superuser_directs(make_user, django_user_model):
    plain = django_user_model.objects.create_user(username="nobody", password="a-long-test-password")
    root = django_user_model.objects.create_superuser(username="root", password="a-long-test-password")
    assert user_roles(_authenticate(token_issue(user=plain))[0]) == set()
    assert is_director(_authenticate(token_issue(user=root))[0])


def test_an_inactive_users_token_is_refused_in_the_error_shape(make_user, api_client):
    user = make_user("gone", Role.REFEREE)
    key = token_issue(user=user)
    user.is_active = False
    user.save(update_fields=["is_active"])
    response = api_client.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


def test_a_directors_token_may_create_a_game(director, players, api_client):  # noqa: F811
    key = token_issue(user=director)
    response = api_client.post(
        "/api/v1/games/", {"black": players[0].pk, "white": players[1].pk}, format="json",
        HTTP_AUTHORIZATION=f"Token {key}",
    )
    assert response.status_code == 201, response.content
