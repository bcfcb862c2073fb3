"""Account writes: users with roles, API tokens."""

from __future__ import annotations

from django.contrib.auth.models import Group, User
from django.db import transaction
from rest_framework.authtoken.models import Token

from accounts.roles import Role


@transaction.atomic
def user_create_with_role(*, username: str, password: str, role: str, **fields: str) -> User:
    """Creates a user (or updates its password) and puts it in the role's group."""
    if role not in Role.ALL:
        raise ValueError(f"unknown role {role!r}; expected one of {', '.join(Role.ALL)}")
    user, _ = User.objects.get_or_create(username=username, defaults=fields)
    user.set_password(password)
    user.save()
    group, _ = Group.objects.get_or_create(name=role)
    user.groups.add(group)
    return user


def token_issue(*, user: User) -> str:
    """Returns the user's API token, creating it if the user has none."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key
