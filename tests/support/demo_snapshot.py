"""The demo seeded once a test process, then copied back into the database for each test that wants it.

Seeding the demo (``tournaments.demo.demo_seed``: two tournaments played move by move through the
arbitration services, an event, a title match, clubs, a league) takes 10-30 s of CPU, and the browser
tests that walk it are transactional: the database is emptied after each of them, so each seeded it
again. Instead the first test of a process to ask for the demo seeds it and takes a snapshot of every
table the flush empties but the workers' heartbeats (PostgreSQL's ``COPY ... TO STDOUT`` in binary, into memory: a few hundred
kilobytes); a later test empties those tables and copies the snapshot back (``COPY ... FROM STDIN``),
which takes a fraction of a second. The rows come back with their own ids; the flush leaves the
sequences where they were (``tests/conftest.py``'s ``quick_flush``), already past them (any a test reset
since is raised past them again).

The copy is the seeding's own rows, byte for byte (``tests/e2e/test_demo_snapshot.py`` compares them),
with the seeding's passwords. What it does not bring back is time: a clock the seeding started has run
since (the championship's clocks are an hour a side; a test process runs minutes).

On SQLite (the smoke subset) there is no ``COPY``: every test seeds the demo itself, as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection, transaction

from tournaments.demo import Login, demo_seed

KEPT = frozenset({"django_content_type", "auth_permission"})  # what the flush keeps (tests/conftest.py)
# the workers' heartbeats: written by the Celery worker processes of the run at any moment, not by the seeding,
# so neither taken nor put back (a heartbeat copied back would set a live worker's back in time)
OF_THE_PROCESSES = frozenset({"core_worker_heartbeat"})


@dataclass(frozen=True)
class Snapshot:
    database: str  # the database it was taken of (a process has one test database, but to be sure)
    tables: dict[str, bytes]  # every table the flush empties, as COPY's binary format
    logins: list[Login]


_snapshot: Snapshot | None = None


def flushed_tables() -> list[str]:
    """The tables a transactional test's flush empties, in a fixed order, but the workers' heartbeats."""
    tables = set(connection.introspection.django_table_names(only_existing=True, include_views=False))
    return sorted(tables - KEPT - OF_THE_PROCESSES)


def take() -> dict[str, bytes]:
    """Every table the flush empties, as COPY's binary format, its rows in the order of their primary keys
    (two takes of the same rows are the same bytes)."""
    tables = {}
    introspection, quote = connection.introspection, connection.ops.quote_name
    with connection.cursor() as cursor:
        raw = cursor.cursor  # (psycopg's own cursor: Django's wrapper has no ``copy``)
        for table in flushed_tables():
            key = introspection.get_primary_key_column(cursor, table)
            rows = f"SELECT * FROM {quote(table)}" + (f" ORDER BY {quote(key)}" if key else "")
            with raw.copy(f"COPY ({rows}) TO STDOUT (FORMAT BINARY)") as copy:
                tables[table] = b"".join(bytes(block) for block in copy)
    return tables


def put_back(tables: dict[str, bytes]) -> None:
    """Empties every table the flush empties and writes the snapshot's rows into them, in one transaction;
    as a replica (``session_replication_role``, as the flush), so neither the foreign keys (the tables come
    in any order) nor the append-only triggers of the logs fire."""
    with transaction.atomic(), connection.cursor() as cursor:
        raw = cursor.cursor
        cursor.execute("SET LOCAL session_replication_role = replica")
        for table in flushed_tables():
            quoted = connection.ops.quote_name(table)
            cursor.execute(f"DELETE FROM {quoted}")
            data = tables.get(table)
            if data:
                with raw.copy(f"COPY {quoted} FROM STDIN (FORMAT BINARY)") as copy:
                    copy.write(data)
        cursor.execute("SET LOCAL session_replication_role = DEFAULT")
        # (the sequences are past the rows already, unless a test reset them since: then they are raised)
        cursor.execute("""
            SELECT format('SELECT setval(%%L, GREATEST((SELECT last_value FROM %%s), (SELECT max(%%I) FROM %%I)))',
                          s.oid::regclass, s.oid::regclass, a.attname, t.relname)
            FROM pg_class s JOIN pg_depend d ON d.objid = s.oid AND d.classid = 'pg_class'::regclass
            JOIN pg_class t ON t.oid = d.refobjid JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
            WHERE s.relkind = 'S' AND t.relname = ANY(%s)""", [list(tables)])
        for (statement,) in cursor.fetchall():
            cursor.execute(statement)


def seeded_demo() -> list[Login]:
    """Gives the test's (empty, transactional) database the demo; returns its logins. The first call of a
    process seeds it; later ones copy back the rows the first one made."""
    global _snapshot
    if connection.vendor != "postgresql":
        return demo_seed()
    database = connection.settings_dict["NAME"]
    if _snapshot is not None and _snapshot.database == database:
        put_back(_snapshot.tables)
        return list(_snapshot.logins)
    logins = demo_seed()
    _snapshot = Snapshot(database, take(), list(logins))
    return logins
