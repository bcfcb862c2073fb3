"""Raw SQL as an attacker with rights on the database would run it: past the append-only triggers.

On PostgreSQL the log tables refuse UPDATE and DELETE by trigger; a superuser can switch
ordinary triggers off for a session (``session_replication_role = replica``), as an attacker
with such rights could. What stops that attacker is the record key, which is not in the database.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection


@contextmanager
def triggers_off() -> Iterator[None]:
    """Switches the ordinary triggers off for the block (PostgreSQL; needs a superuser)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET session_replication_role = replica")
        try:
            yield
        finally:
            if connection.vendor == "postgresql":
                cursor.execute("RESET session_replication_role")


def as_attacker(sql: str, params: list[Any] | None = None) -> None:
    """Runs one statement with the triggers off (PostgreSQL), then switches them on again."""
    with triggers_off(), connection.cursor() as cursor:
        cursor.execute(sql, params or [])


def historical_apps(app: str, migration: str) -> Any:
    """Returns the models as the migration ``app.migration`` sees them (for calling its functions)."""
    from django.db.migrations.loader import MigrationLoader

    return MigrationLoader(connection).project_state((app, migration)).apps
