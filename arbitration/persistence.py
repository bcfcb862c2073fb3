"""How a game's rows are read under lock and written: the hand-made SQL of the move path, hidden here.

The services say what to write (``game_lock``, ``game_save``, ``move_insert``, ``clock_save``)
and never how: the statements are built once per connection from the models' own column names
by ``core.sqlrows``, and the writes of one move (log entry, move, game row, COMMIT) go to the
database in one pipeline sync (``move_transaction``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections

from arbitration import log
from arbitration.errors import (
    GameNotFound,
)
from arbitration.log import entry_id_sql
from arbitration.models import GameClock, LogEntry
from core import sqlrows
from games.models import Game, Move
from players.models import Player

GAME_FIELDS = ["fen", "ply", "status", "result", "termination", "finished_at", "arbitration",
               "has_clock", "log_seq", "log_head", "updated_at"]
CLOCK_FIELDS = ["state", "deadline", "deadline_kind", "updated_at"]


@lru_cache(maxsize=8)
def _game_lock_sql(alias: str, vendor: str) -> tuple[str, sqlrows.Columns, sqlrows.Columns, sqlrows.Columns]:
    connection = connections[alias]
    qn = connection.ops.quote_name
    game_columns = sqlrows.columns(Game, "g", connection)
    black, white = sqlrows.columns(Player, "b", connection), sqlrows.columns(Player, "w", connection)
    User = get_user_model()
    user_pk = qn(User._meta.pk.column)
    through = Game.referees.through._meta
    if vendor == "postgresql":
        referees = f"json_agg(json_build_array(u.{user_pk}, u.{qn('username')}) ORDER BY u.{qn('username')})"
    else:
        referees = f"json_group_array(json_array(u.{user_pk}, u.{qn('username')}))"
    sql = (
        f"SELECT {game_columns.sql}, {black.sql}, {white.sql}, "
        f"(SELECT {referees} FROM {qn(User._meta.db_table)} u JOIN {qn(through.db_table)} r "
        f"ON r.{qn('user_id')} = u.{user_pk} WHERE r.{qn('game_id')} = g.{qn('id')}), "
        f"{_log_tail_sql(connection, vendor)} "
        f"FROM {qn(Game._meta.db_table)} g "
        f"JOIN {qn(Player._meta.db_table)} b ON b.{qn('id')} = g.{qn('black_id')} "
        f"JOIN {qn(Player._meta.db_table)} w ON w.{qn('id')} = g.{qn('white_id')} "
        f"WHERE g.{qn('id')} = %s{sqlrows.for_update_of('g', connection)}"
    )
    return sql, game_columns, black, white


def _log_tail_sql(connection: Any, vendor: str) -> str:
    """Returns the subquery of the game's last log entry, as a JSON array of ``arbitration.log.TAIL_FIELDS``."""
    qn = connection.ops.quote_name
    meta = LogEntry._meta
    table = qn(meta.db_table)

    def column(alias: str, name: str) -> str:
        return f"{alias}.{qn(meta.get_field(name).column)}"

    values = []
    for name in log.TAIL_FIELDS:
        if name == "supersedes__seq":
            values.append(f"(SELECT {column('s', 'seq')} FROM {table} s WHERE s.{qn(meta.pk.column)} = "
                          f"{column('t', 'supersedes')})")
        elif name == "data" and vendor != "postgresql":
            values.append(f"json({column('t', 'data')})")
        else:
            values.append(column("t", "actor" if name == "actor_id" else name))
    build = "json_build_array" if vendor == "postgresql" else "json_array"
    return (f"(SELECT {build}({', '.join(values)}) FROM {table} t WHERE {column('t', 'game')} = g.{qn('id')} "
            f"ORDER BY {column('t', 'seq')} DESC LIMIT 1)")


def game_lock(game_id: int) -> Game:
    """Returns the game row locked for the rest of the transaction, with its players and referees (404 if none).

    One statement, built once. The clock is not joined here: a row read through a join while
    the lock was waited for may be the version from before the other transaction (PostgreSQL
    re-reads only the locked row), so ``arbitration.clocks.clock_of`` reads it after the lock
    is held. The referees, read the same way, change only by a director's assignment. The
    last log entry comes with the row too, for ``arbitration.log.tail_check`` (read before
    the lock was held, it may be an older one: the check then reads it again).
    """
    connection = connections[DEFAULT_DB_ALIAS]
    sql, game_columns, black, white = _game_lock_sql(connection.alias, connection.vendor)
    try:
        key = int(game_id)
    except (TypeError, ValueError):
        key = None
    rows = [] if key is None else sqlrows.fetch(sql, [key], connection)
    if not rows:
        raise GameNotFound(f"There is no game {game_id}.")
    row = rows[0]
    game = game_columns.instance(row, 0, connection)
    game.black = black.instance(row, game_columns.width, connection)
    game.white = white.instance(row, game_columns.width + black.width, connection)
    referees, tail = row[-2], row[-1]
    if isinstance(referees, str | bytes):
        referees = json.loads(referees)
    game._log_tail = log.tail_from_json(tail)
    game._referee_rows = sorted(((pk, username) for pk, username in referees or []), key=lambda r: r[1])
    return game


def game_referees(game: Game) -> list[tuple[int, str]]:
    """Returns the (id, username) of the game's referees, read once per game object."""
    cached = getattr(game, "_referee_rows", None)
    if cached is None:
        cached = list(game.referees.order_by("username").values_list("id", "username"))
        game._referee_rows = cached
    return cached


def game_save(game: Game) -> None:
    """Writes the game's cached fields (position, status, pending state, chain head)."""
    sqlrows.row_update(game, GAME_FIELDS)


def clock_save(clock: GameClock) -> None:
    """Writes the clock row's state and deadline."""
    sqlrows.row_update(clock, CLOCK_FIELDS)


def move_transaction() -> Any:
    """Returns the context of a move's writes: BEGIN goes with the lock; the log entry, the move,
    the game update and the COMMIT go together in one round trip when the transaction is the
    outermost (psycopg's pipeline mode on PostgreSQL, nothing special elsewhere)."""
    return sqlrows.pipeline(commit=True)


def move_insert(move: Move, entry: LogEntry) -> Move:
    """Inserts the move row, referring to its log entry by (game, seq) so that neither insert waits."""
    record = sqlrows.row_insert(move, pk_later=True, expressions={"log_entry_id": entry_id_sql(move.game_id, entry.seq)})
    sqlrows.after_pipeline(lambda: setattr(record, "log_entry_id", entry.pk))
    return record


def moves_fens_since(game_id: int, ply: int) -> list[str]:
    """Returns the positions after the live moves later than ``ply``, in order. One query."""
    connection = connections[DEFAULT_DB_ALIAS]
    qn = connection.ops.quote_name
    rows = sqlrows.fetch(
        f"SELECT {qn('fen_after')} FROM {qn(Move._meta.db_table)} WHERE {qn('game_id')} = %s "
        f"AND {qn('superseded_by_id')} IS NULL AND {qn('ply')} > %s ORDER BY {qn('ply')}",
        [game_id, ply], connection,
    )
    return [fen for (fen,) in rows]
