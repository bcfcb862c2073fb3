"""API token authentication in one query: the token, its user and the user's roles (a row per group).

DRF's ``TokenAuthentication`` reads the token with its user (one query) and the roles cost one
more the first time a permission asks; every write of the API asks. This class reads all three
with one statement built once (``core.sqlrows``) and seeds ``accounts.roles.user_roles``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from accounts.roles import Role
from core import sqlrows


@lru_cache(maxsize=8)
def _token_sql(alias: str, vendor: str) -> tuple[str, sqlrows.Columns, sqlrows.Columns]:
    connection = connections[alias]
    User = get_user_model()
    qn = connection.ops.quote_name
    token_columns = sqlrows.columns(Token, "t", connection)
    user_columns = sqlrows.columns(User, "u", connection)
    user_pk = qn(User._meta.pk.column)
    groups = User.groups.through._meta
    group_model = User.groups.field.related_model._meta
    sql = (
        f"SELECT {token_columns.sql}, {user_columns.sql}, gr.{qn('name')} FROM {qn(Token._meta.db_table)} t "
        f"JOIN {qn(User._meta.db_table)} u ON u.{user_pk} = t.{qn('user_id')} "
        f"LEFT JOIN {qn(groups.db_table)} ug ON ug.{qn('user_id')} = u.{user_pk} "
        f"LEFT JOIN {qn(group_model.db_table)} gr ON gr.{qn('id')} = ug.{qn('group_id')} "
        f"WHERE t.{qn('key')} = %s"
    )
    return sql, token_columns, user_columns


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's, with the user's roles read in the same query."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        connection = connections[DEFAULT_DB_ALIAS]
        sql, token_columns, user_columns = _token_sql(connection.alias, connection.vendor)
        rows = sqlrows.fetch(sql, [key], connection)
        if not rows:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        row = rows[0]
        token = token_columns.instance(row, 0, connection)
        user = user_columns.instance(row, token_columns.width, connection)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        roles = {group for *_columns, group in rows if group in Role.ALL}
        if user.is_superuser:
            roles.add(Role.DIRECTOR)
        user._role_names = roles
        token.user = user
        return user, token
