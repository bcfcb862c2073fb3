"""Roles (director, referee, player, public) and the API permissions built on them.

Roles are Django auth groups, created by a migration of this app. A superuser
counts as a director. Anyone, signed in or not, may read; writes need a role.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest
from rest_framework.permissions import SAFE_METHODS, BasePermission


class Role:
    """The names of the role groups."""

    DIRECTOR = "director"
    REFEREE = "referee"
    PLAYER = "player"

    ALL = (DIRECTOR, REFEREE, PLAYER)


def user_roles(user: User | AnonymousUser | None) -> set[str]:
    """Returns the set of role names the user holds (empty for anonymous users)."""
    if user is None or not user.is_authenticated:
        return set()
    cached = getattr(user, "_role_names", None)
    if cached is None:
        cached = set(user.groups.filter(name__in=Role.ALL).values_list("name", flat=True))
        if user.is_superuser:
            cached.add(Role.DIRECTOR)
        user._role_names = cached  # type: ignore[union-attr]
    return cached


def is_director(user: User | AnonymousUser | None) -> bool:
    """Tells whether the user may direct tournaments."""
    return Role.DIRECTOR in user_roles(user)


def is_referee(user: User | AnonymousUser | None) -> bool:
    """Tells whether the user holds the referee role (assignment to a game is checked apart)."""
    return Role.REFEREE in user_roles(user)


class ReadOnlyOrDirector(BasePermission):
    """Lets everyone read and only directors write; the default for the API."""

    message = "Only a tournament director may change this."

    def has_permission(self, request, view) -> bool:  # noqa: ANN001
        if request.method in SAFE_METHODS:
            return True
        return is_director(request.user)


class IsAuthenticatedReadWrite(BasePermission):
    """Lets any signed-in user use the endpoint (their own account data)."""

    def has_permission(self, request, view) -> bool:  # noqa: ANN001
        return bool(request.user and request.user.is_authenticated)


def roles_context(request: HttpRequest) -> dict[str, object]:
    """Adds the current user's roles to every template."""
    roles = user_roles(getattr(request, "user", None))
    return {
        "user_roles": sorted(roles),
        "is_director": Role.DIRECTOR in roles,
        "is_referee": Role.REFEREE in roles,
    }
