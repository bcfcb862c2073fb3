"""Rows read and written by the SQL of core.sqlrows are the rows the ORM reads and writes."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import DatabaseError, connection, transaction

from arbitration.models import LogEntry
from core import sqlrows
from games.models import Game, Move
from tests.arbitration.conftest import new_game, players  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.django_db, pytest.mark.smoke]


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_an_inserted_log_entry_reads_back_through_the_orm_unchanged(new_game, referee):  # noqa: F811
    game = new_game()
    entry = LogEntry(
        game=game, seq=game.log_seq + 1, kind="system", side="black", law="22", note="ünïcode note",
        data={"nested": {"list": [1, 2.5, None, True], "text": "x"}}, actor=referee,
        created_at=dt.datetime(2026, 11, 23, 12, 0, 0, 123456, tzinfo=dt.UTC), ply=0, fen=game.fen,
        prev_hash="a" * 64, hash="b" * 64,
    )
    sqlrows.row_insert(entry)
    assert entry.pk is not None and not entry._state.adding
    assert _fields(LogEntry.objects.get(pk=entry.pk)) == _fields(entry)


def test_an_update_takes_auto_now_values_as_the_orm_does(new_game):  # noqa: F811
    game = new_game()
    before = game.updated_at
    game.ply = 7
    sqlrows.row_update(game, ["ply", "updated_at"])
    again = Game.objects.get(pk=game.pk)
    assert again.ply == 7 and again.updated_at == game.updated_at and again.updated_at > before


def test_an_update_of_a_missing_row_is_an_error_not_silence(new_game):  # noqa: F811
    game = new_game()
    game.pk = game.pk + 1000
    with pytest.raises(DatabaseError, match="wrote 0 rows"):
        sqlrows.row_update(game, ["ply"])


def test_columns_read_a_row_as_the_orm_reads_it(new_game, referee):  # noqa: F811
    from arbitration.persistence import game_lock
    from arbitration.services import game_move_record

    game = new_game(clock={"control": "per-move"})
    game_move_record(acting_user=referee, game_id=game.pk, move="11-15")
    with transaction.atomic():
        locked = game_lock(game.pk)
    orm = Game.objects.select_related("black", "white").get(pk=game.pk)
    assert _fields(locked) == _fields(orm)
    assert _fields(locked.black) == _fields(orm.black) and _fields(locked.white) == _fields(orm.white)
    assert locked._referee_rows == [(referee.pk, referee.username)]
    move = Move.objects.get(game=game)
    assert move.log_entry.kind == "move" and move.recorded_by_id == referee.pk


def test_a_game_lock_for_a_missing_game_is_not_found(db):
    from arbitration.errors import GameNotFound
    from arbitration.persistence import game_lock

    with transaction.atomic(), pytest.raises(GameNotFound):
        game_lock(987654)


def test_hot_statements_are_prepared_on_postgresql_after_two_runs(new_game, referee):  # noqa: F811
    from arbitration.services import game_move_record

    game = new_game()
    for ply, move in enumerate(["11-15", "22-18", "15x22"], start=1):
        game_move_record(acting_user=referee, game_id=game.pk, move=move, ply=ply)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            prepared = [row[0] for row in cursor.fetchall()]
            assert any(text.startswith('INSERT INTO "games_move"') for text in prepared), prepared
            assert any('FROM "games_game" g' in text and "FOR UPDATE" in text for text in prepared), prepared
        else:
            assert sqlrows.for_update_of("g", connection) == ""  # SQLite: writers serialised at BEGIN


@pytest.mark.django_db(transaction=True)
def test_a_move_in_a_pipeline_gets_its_keys_and_links_when_the_block_ends(new_game, referee):  # noqa: F811
    from arbitration.services import game_move_record

    game = new_game()
    outcome = game_move_record(acting_user=referee, game_id=game.pk, move="11-15", ply=1)
    stored = Move.objects.select_related("log_entry").get(game=game, ply=1)
    assert outcome.move.pk == stored.pk and stored.log_entry.kind == "move" and stored.log_entry.ply == 1
    assert Game.objects.get(pk=game.pk).ply == 1


@pytest.mark.django_db(transaction=True)
def test_a_failed_write_in_a_pipeline_rolls_the_whole_transaction_back(new_game, referee):  # noqa: F811
    from django.db import IntegrityError

    game = new_game()
    entries = LogEntry.objects.filter(game=game).count()

    def entry(seq: int) -> LogEntry:
        return LogEntry(game=game, seq=seq, kind="system", created_at=game.created_at, ply=0, fen=game.fen,
                        prev_hash="0" * 64, hash="1" * 64)

    with pytest.raises(IntegrityError), transaction.atomic(), sqlrows.pipeline():
        assert sqlrows._in_pipeline(connection) == (connection.vendor == "postgresql")
        sqlrows.row_insert(entry(game.log_seq + 1))
        sqlrows.row_insert(entry(game.log_seq + 1), pk_later=True)  # the same seq: refused at the block's end
    assert LogEntry.objects.filter(game=game).count() == entries
    outcome_game = Game.objects.get(pk=game.pk)
    assert outcome_game.log_seq == game.log_seq  # and the connection is usable again


@pytest.mark.django_db(transaction=True)
def test_a_clocked_move_in_a_pipeline_reads_the_clock_and_runs_it_for_the_opponent(new_game, referee, director):  # noqa: F811
    from arbitration.models import GameClock
    from arbitration.services import game_move_record, ruling_issue

    game = new_game(clock={"control": "per-move"})
    ruling_issue(acting_user=director, game_id=game.pk, kind="clock_start", side="", note="", payload={})
    game_move_record(acting_user=referee, game_id=game.pk, move="11-15", ply=1)
    clock = GameClock.objects.get(game_id=game.pk)
    assert (clock.state["status"], clock.state["side"], clock.state["ply"]) == ("running", "white", 1)
    assert clock.deadline is not None


def test_the_django_internals_sqlrows_relies_on_are_still_there():
    """A Django upgrade that renames or reshapes one of these fails here, by name, before any row is wrong."""
    import inspect

    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.backends.base.operations import BaseDatabaseOperations
    from django.db.models import Field, Model

    assert list(inspect.signature(Field.pre_save).parameters) == ["self", "model_instance", "add"]
    assert list(inspect.signature(Field.get_db_prep_save).parameters) == ["self", "value", "connection"]
    assert list(inspect.signature(Field.get_db_converters).parameters) == ["self", "connection"]
    assert list(inspect.signature(Model.from_db.__func__).parameters) == ["cls", "db", "field_names", "values"]
    assert list(inspect.signature(BaseDatabaseOperations.get_db_converters).parameters) == ["self", "expression"]
    assert list(inspect.signature(BaseDatabaseOperations.last_insert_id).parameters) == [
        "self", "cursor", "table_name", "pk_name"]
    for name in ("make_cursor", "make_debug_cursor", "queries_logged", "ensure_connection"):
        assert hasattr(BaseDatabaseWrapper, name), name
    game = Game()
    assert game._state.adding is True and game._state.db is None
    if connection.vendor == "postgresql":
        from django.db.backends.postgresql.base import ServerBindingCursor

        assert callable(ServerBindingCursor)
