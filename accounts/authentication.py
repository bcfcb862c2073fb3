"""API token authentication in one query: the token, its user and the user's roles (a row per group).

DRF's ``TokenAuthentication`` reads the token with its user (one query) and the roles cost one
more the first time a permission asks; every write of the API asks. This class reads all three
with one statement built once (``core.sqlrows``) and seeds ``accounts.roles.user_roles``.
Tokens are ``accounts.models.ApiToken`` rows, found by the SHA-256 digest of the presented key
(a unique index); an expired token is refused. ``last_used`` is written at most once an hour.
"""

from __future__ import annotations

from datetime import timedelta
from functools import lru_cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from accounts.models import ApiToken, token_digest
from accounts.roles import Role
from core import sqlrows


@lru_cache(maxsize=8)
def _token_sql(alias: str, vendor: str) -> tuple[str, sqlrows.Columns, sqlrows.Columns]:
    connection = connections[alias]
    User = get_user_model()
    qn = connection.ops.quote_name
    token_columns = sqlrows.columns(ApiToken, "t", connection)
    user_columns = sqlrows.columns(User, "u", connection)
    user_pk = qn(User._meta.pk.column)
    groups = User.groups.through._meta
    group_model = User.groups.field.related_model._meta
    sql = (
        f"SELECT {token_columns.sql}, {user_columns.sql}, gr.{qn('name')} FROM {qn(ApiToken._meta.db_table)} t "
        f"JOIN {qn(User._meta.db_table)} u ON u.{user_pk} = t.{qn('user_id')} "
        f"LEFT JOIN {qn(groups.db_table)} ug ON ug.{qn('user_id')} = u.{user_pk} "
        f"LEFT JOIN {qn(group_model.db_table)} gr ON gr.{qn('id')} = ug.{qn('group_id')} "
        f"WHERE t.{qn('digest')} = %s"
    )
    return sql, token_columns, user_columns


def token_touch(token: ApiToken, *, every: timedelta = timedelta(hours=1)) -> None:
    """Records that the token was used, at most once per ``every`` (one UPDATE, rarely)."""
    now = timezone.now()
    if token.last_used is None or now - token.last_used >= every:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's, with the user's roles read in the same query."""

    model = ApiToken

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        connection = connections[DEFAULT_DB_ALIAS]
        sql, token_columns, user_columns = _token_sql(connection.alias, connection.vendor)
        rows = sqlrows.fetch(sql, [token_digest(key)], connection)
        if not rows:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        row = rows[0]
        token = token_columns.instance(row, 0, connection)
        user = user_columns.instance(row, token_columns.width, connection)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        if token.expired:
            raise exceptions.AuthenticationFailed(_("Token expired."))
        roles = {group for *_columns, group in rows if group in Role.ALL}
        if user.is_superuser:
            roles.add(Role.DIRECTOR)
        user._role_names = roles
        token.user = user
        token_touch(token)
        return user, token
