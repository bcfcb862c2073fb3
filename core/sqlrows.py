"""Single rows read and written by SQL made once per model: the move path without the query compiler.

The ORM compiles every query anew, a few tenths of a millisecond of CPU each; a move request
reads and writes a handful of rows, so the hot paths (``arbitration.persistence``, ``arbitration.log``,
``accounts.authentication``) use these instead. The SQL is made once per model, field list and
database from the model's own fields, and the values go through the fields' own preparation
(``pre_save``, ``get_db_prep_save``) and converters (the backend's and ``from_db_value``), so
a row written or read here is the row the ORM would write or read. No signals are sent: the
models written here have no receivers (their rules live in services; accounts' receivers
watch only the user's password).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.models import AutoField, BigAutoField, Field, Model, SmallAutoField

_AUTO_FIELDS = (AutoField, BigAutoField, SmallAutoField)


def _connection(instance: Model | None = None) -> Any:
    return connections[(instance._state.db if instance is not None else None) or DEFAULT_DB_ALIAS]


def cursor(connection: Any) -> Any:
    """Returns a cursor for the statements of this module: on PostgreSQL, one that binds on the server.

    Django's own cursors bind parameters on the client, so PostgreSQL parses and plans every
    statement anew (planning the log-in query costs more than running it). A server-binding
    cursor lets psycopg prepare a statement once per connection after ``prepare_threshold``
    executions (``DATABASE_PREPARE_THRESHOLD`` in the settings; unset there, nothing is
    prepared). One psycopg cursor is kept per connection (making one copies the connection's
    adapters) and wrapped as Django wraps its own, so errors, query logging and
    ``CaptureQueriesContext`` see these statements too. Do not close it (no ``with``).
    """
    if connection.vendor != "postgresql":
        return connection.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.ensure_connection()
    raw = connection.connection
    kept = getattr(connection, "_sqlrows_cursor", None)
    if kept is None or kept.connection is not raw or kept.closed:
        kept = connection._sqlrows_cursor = ServerBindingCursor(raw)
    return _wrapped(connection, kept)


def _wrapped(connection: Any, raw_cursor: Any) -> Any:
    """Wraps a psycopg cursor as Django wraps its own (errors, query logging)."""
    return connection.make_debug_cursor(raw_cursor) if connection.queries_logged else connection.make_cursor(raw_cursor)


@contextmanager
def pipeline(connection: Any | None = None, *, commit: bool = False) -> Iterator[None]:
    """Sends the statements of the block to PostgreSQL without waiting for each answer (psycopg's pipeline mode).

    Use it inside the transaction, around the writes: a statement whose rows are fetched still
    waits (the fetch syncs), and the block's end waits for the rest. A transaction that locks a
    row, reads what it needs and then only writes thus makes two round trips: BEGIN with the
    lock, and the writes at the end of the block, whose errors come out there. With ``commit``,
    when the block is the whole of the outermost ``transaction.atomic`` block and that block
    is to commit, the COMMIT goes with the writes (Django's own commit then finds nothing left
    to do, and ``on_commit`` callbacks run after the block, outside pipeline mode); in a
    savepoint, nothing is committed early.
    Within the block the ORM's ``save()`` of an existing row cannot be used (it needs the row
    count at once): ``row_update`` can. The primary keys of rows inserted with
    ``row_insert(..., pk_later=True)`` are set when the block ends, and so is whatever is
    handed to ``after_pipeline``. Elsewhere than on PostgreSQL, nothing changes.
    """
    connection = connection or _connection()
    if connection.vendor != "postgresql" or _in_pipeline(connection):
        yield
        return
    connection.ensure_connection()
    later: list[Callable[[], None]] = []
    connection._sqlrows_later = later
    try:
        with connection.wrap_database_errors, connection.connection.pipeline():
            yield
            if commit and _commits_next(connection):
                # queued like the writes; the block's end (a Sync) waits for them all
                connection.connection.cursor().execute("COMMIT", prepare=False)
    finally:
        connection._sqlrows_later = None
    for step in later:
        step()


def _commits_next(connection: Any) -> bool:
    """Tells whether the current atomic block is the outermost one and will commit when it ends."""
    return (connection.in_atomic_block and len(connection.atomic_blocks) == 1 and connection.commit_on_exit
            and not connection.savepoint_ids and not connection.needs_rollback)


def after_pipeline(step: Callable[[], None], connection: Any | None = None) -> None:
    """Runs ``step`` when the current ``pipeline`` block has ended without error (at once outside one)."""
    connection = connection or _connection()
    if _in_pipeline(connection):
        connection._sqlrows_later.append(step)
    else:
        step()


def _in_pipeline(connection: Any) -> bool:
    return getattr(connection, "_sqlrows_later", None) is not None


def _key(connection: Any, *parts: Any) -> tuple:
    return (connection.alias, connection.vendor, *parts)


# --- writing ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Insert:
    sql: str
    fields: tuple[Field, ...]
    auto_pk: Field | None
    returning: bool


_inserts: dict[tuple, _Insert] = {}


def _insert_plan(model: type[Model], connection: Any, expressions: dict[str, str]) -> _Insert:
    key = _key(connection, model, tuple(sorted(expressions.items())))
    plan = _inserts.get(key)
    if plan is None:
        meta = model._meta
        qn = connection.ops.quote_name
        auto_pk = meta.pk if isinstance(meta.pk, _AUTO_FIELDS) else None
        fields = tuple(f for f in meta.concrete_fields if f is not auto_pk and not getattr(f, "generated", False))
        unknown = set(expressions) - {f.attname for f in fields}
        if unknown:
            raise ValueError(f"{model.__name__} has no column {', '.join(sorted(unknown))} to insert")
        sql = (f"INSERT INTO {qn(meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) "
               f"VALUES ({', '.join(expressions.get(f.attname, '%s') for f in fields)})")
        returning = auto_pk is not None and connection.features.can_return_columns_from_insert
        if returning:
            sql += f" RETURNING {qn(auto_pk.column)}"
        plan = _inserts[key] = _Insert(sql, fields, auto_pk, returning)
    return plan


def row_insert(instance: Model, *, pk_later: bool = False,
               expressions: dict[str, tuple[str, Sequence[Any]]] | None = None) -> Model:
    """Inserts the instance as a new row (its auto primary key is set from the database).

    With ``pk_later`` inside a ``pipeline`` the insert does not wait for its answer: the
    primary key is set when the pipeline ends (until then it is None). ``expressions`` gives
    columns (by attribute name, e.g. ``log_entry_id``) as SQL with its parameters instead of
    the instance's values: a key of a row inserted just before in the same pipeline, say,
    which the database knows and the instance does not yet (the instance's attribute is left
    as it is).
    """
    connection = _connection(instance)
    model = type(instance)
    expressions = expressions or {}
    plan = _insert_plan(model, connection, {name: sql for name, (sql, _) in expressions.items()})
    values = []
    for f in plan.fields:
        if f.attname in expressions:
            values.extend(expressions[f.attname][1])
        else:
            values.append(f.get_db_prep_save(f.pre_save(instance, True), connection))
    later = pk_later and plan.returning and _in_pipeline(connection)
    if later:
        from django.db.backends.postgresql.base import ServerBindingCursor

        own = ServerBindingCursor(connection.connection)  # its own, so that the answer is kept
        rows = _wrapped(connection, own)
    else:
        rows = cursor(connection)
    rows.execute(plan.sql, values)
    if later:
        connection._sqlrows_later.append(lambda: setattr(instance, plan.auto_pk.attname, own.fetchone()[0]))
    elif plan.auto_pk is not None:
        if plan.returning:
            pk = rows.fetchone()[0]
        else:
            pk = connection.ops.last_insert_id(rows, model._meta.db_table, plan.auto_pk.column)
        setattr(instance, plan.auto_pk.attname, pk)
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance


_updates: dict[tuple, tuple[str, tuple[Field, ...]]] = {}


def row_update(instance: Model, update_fields: Sequence[str]) -> None:
    """Writes the named fields of a saved instance (``save(update_fields=...)`` without the compiler)."""
    connection = _connection(instance)
    model = type(instance)
    key = _key(connection, model, tuple(update_fields))
    plan = _updates.get(key)
    if plan is None:
        meta = model._meta
        qn = connection.ops.quote_name
        fields = tuple(meta.get_field(name) for name in update_fields)
        sql = (f"UPDATE {qn(meta.db_table)} SET {', '.join(f'{qn(f.column)} = %s' for f in fields)} "
               f"WHERE {qn(meta.pk.column)} = %s")
        plan = _updates[key] = (sql, fields)
    sql, fields = plan
    values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
    values.append(instance._meta.pk.get_db_prep_value(instance.pk, connection))
    rows = cursor(connection)
    rows.execute(sql, values)
    # In a pipeline the count is known only at the sync (-1 until then); the callers there hold
    # the row locked in the same transaction.
    if rows.rowcount != 1 and not (rows.rowcount == -1 and _in_pipeline(connection)):
        raise DatabaseError(f"{model.__name__} {instance.pk}: the update wrote {rows.rowcount} rows, not 1.")


# --- reading ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Columns:
    """A model's columns in a SELECT under a table alias, and how to turn them back into an instance."""

    model: type[Model]
    sql: str
    converters: tuple[tuple[int, tuple[Callable, ...], Any], ...]
    width: int

    def instance(self, row: Sequence[Any], start: int, connection: Any) -> Model:
        """Builds the instance from ``row[start:start + width]``, converted as the ORM converts."""
        values = list(row[start:start + self.width])
        for index, converters, column in self.converters:
            value = values[index]
            for converter in converters:
                value = converter(value, column, connection)
            values[index] = value
        return self.model.from_db(connection.alias, None, values)


_columns: dict[tuple, Columns] = {}


def columns(model: type[Model], alias: str, connection: Any | None = None) -> Columns:
    """Returns the SELECT list of all the model's concrete fields under ``alias`` (cached)."""
    connection = connection or _connection()
    key = _key(connection, model, alias)
    found = _columns.get(key)
    if found is None:
        qn = connection.ops.quote_name
        fields = model._meta.concrete_fields
        converters = []
        for index, field in enumerate(fields):
            column = field.get_col(alias)
            chain = tuple(connection.ops.get_db_converters(column) + column.get_db_converters(connection))
            if chain:
                converters.append((index, chain, column))
        sql = ", ".join(f"{qn(alias)}.{qn(field.column)}" for field in fields)
        found = _columns[key] = Columns(model, sql, tuple(converters), len(fields))
    return found


def for_update_of(table_alias: str, connection: Any | None = None) -> str:
    """Returns the ``FOR UPDATE OF`` clause locking the rows of one table, or nothing where it does not exist.

    SQLite has no row locks: its transactions take the write lock at BEGIN (``IMMEDIATE``
    in the settings), which serialises writers instead.
    """
    connection = connection or _connection()
    if not connection.features.has_select_for_update:
        return ""
    if connection.features.has_select_for_update_of:
        return f" FOR UPDATE OF {connection.ops.quote_name(table_alias)}"
    return " FOR UPDATE"


def fetch(sql: str, params: Sequence[Any], connection: Any | None = None) -> list[tuple]:
    """Runs a read and returns its rows."""
    connection = connection or _connection()
    rows = cursor(connection)
    rows.execute(sql, params)
    return rows.fetchall()
