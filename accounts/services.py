"""Account writes: users with roles, API tokens."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.db import transaction
from django.utils import timezone

from accounts.models import ApiToken, token_digest, token_key_new
from accounts.roles import Role
from core.api import NotFoundError


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


def token_days_bounds() -> tuple[int, int]:
    """Returns (default, maximum) lifetime of a new token in days (API_TOKEN_DAYS, API_TOKEN_MAX_DAYS)."""
    return settings.API_TOKEN_DAYS, settings.API_TOKEN_MAX_DAYS


def token_create(*, user: User, name: str, days: int | None = None) -> tuple[ApiToken, str]:
    """Makes a new token for the user; returns it and its key (the only time the key is known)."""
    default, maximum = token_days_bounds()
    days = default if days is None else days
    if not 1 <= days <= maximum:
        raise ValueError(f"a token lives 1 to {maximum} days, not {days}")
    key = token_key_new()
    now = timezone.now()
    token = ApiToken.objects.create(user=user, name=name[:100], digest=token_digest(key), prefix=key[:8],
                                    created=now, expires=now + timedelta(days=days))
    return token, key


def token_issue(*, user: User, days: int | None = None) -> str:
    """Returns the key of a new API token for the user (``manage.py issue_token``, the benchmarks)."""
    return token_create(user=user, name="issue_token", days=days)[1]


def token_revoke(*, user: User, token_id: int) -> None:
    """Deletes one of the user's own tokens; another user's token is not found."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise NotFoundError("You have no token with this id.", details={"id": token_id})


def tokens_revoke_all(*, user: User) -> int:
    """Deletes all the user's tokens (a password change does); returns how many."""
    deleted, _ = ApiToken.objects.filter(user_id=user.pk).delete()
    return deleted
