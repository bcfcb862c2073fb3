"""Raw SQL as an attacker with rights on the database would run it: past the append-only triggers.

On PostgreSQL the log tables refuse UPDATE and DELETE by trigger; a superuser can switch
ordinary triggers off for a session (``session_replication_role = replica``), as an attacker
with such rights could. What stops that attacker is the record key, which is not in the database.
"""

from __future__ import annotations

from typing import Any

from django.db import connection


def as_attacker(sql: str, params: list[Any] | None = None) -> None:
    """Runs one statement with the triggers off (PostgreSQL), then switches them on again."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET session_replication_role = replica")
        try:
            cursor.execute(sql, params or [])
        finally:
            if connection.vendor == "postgresql":
                cursor.execute("RESET session_replication_role")
