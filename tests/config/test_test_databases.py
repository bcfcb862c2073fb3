"""How the suite makes and empties its PostgreSQL test databases (tests/support/template_db.py and the
``quick_flush`` fixture of tests/conftest.py): cloned from one migrated template, emptied by DELETE after
a transactional test, dropped whoever is still connected."""

from __future__ import annotations

import os

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from tests.support import template_db

pytestmark = pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
                                reason="PostgreSQL test databases (make test-postgres); SQLite's are in memory")


def _server(dbname: str = "postgres") -> psycopg.Connection:
    current = settings.DATABASES["default"]
    return psycopg.connect(dbname=dbname, user=current.get("USER") or None, host=current.get("HOST") or None,
                           port=current.get("PORT") or None, password=current.get("PASSWORD") or None,
                           autocommit=True)


def _migrations(dbname: str) -> list[tuple[str, str]]:
    with _server(dbname) as server, server.cursor() as cursor:
        cursor.execute("SELECT app, name FROM django_migrations ORDER BY app, name")
        return cursor.fetchall()


@pytest.mark.django_db
def test_the_test_database_is_a_copy_of_a_template_migrated_by_these_migration_files():
    template = settings.DATABASES["default"]["TEST"]["TEMPLATE"]
    assert template.endswith("_template_" + template_db.migrations_fingerprint())
    applied = _migrations(template)
    assert len(applied) > 50 and applied == _migrations(connection.settings_dict["NAME"])
    # every migration file on disk is applied in it
    from django.db.migrations.loader import MigrationLoader

    on_disk = sorted(MigrationLoader(connection, ignore_no_migrations=True).disk_migrations)
    assert sorted(applied) == on_disk


def test_the_fingerprint_changes_with_a_migration_file_and_only_then(tmp_path, monkeypatch):
    from django.apps import apps

    class App:
        label, path = "fake", str(tmp_path)

    (tmp_path / "migrations").mkdir()
    (tmp_path / "migrations" / "0001_initial.py").write_text("operations = []\n")
    monkeypatch.setattr(apps, "get_app_configs", lambda: [App()])
    first = template_db.migrations_fingerprint()
    assert template_db.migrations_fingerprint() == first
    (tmp_path / "migrations" / "0001_initial.py").write_text("operations = [1]\n")
    changed = template_db.migrations_fingerprint()
    assert changed != first
    (tmp_path / "migrations" / "0002_more.py").write_text("operations = [1]\n")
    assert template_db.migrations_fingerprint() not in (first, changed)


def test_a_template_of_other_migration_files_is_dropped_unless_someone_is_connected_to_it():
    name = f"draughts_check_{os.getpid()}"
    stale, busy, kept = (f"test_{name}_template_{suffix}" for suffix in ("0000stale000", "0000busy0000", "0000kept0000"))
    with _server() as server, server.cursor() as cursor:
        for database in (stale, busy, kept):
            cursor.execute(f'CREATE DATABASE "{database}"')
        try:
            with _server(busy):
                template_db._drop_stale(cursor, f"test_{name}_template_", keep=kept)
            cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE %s ORDER BY datname",
                           [f"test_{name}_template_%"])
            assert [row[0] for row in cursor.fetchall()] == sorted([busy, kept])
        finally:
            for database in (stale, busy, kept):
                cursor.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


@pytest.mark.django_db
def test_a_test_database_is_dropped_even_with_a_connection_left_open_to_it():
    name = f"test_draughts_left_open_{os.getpid()}"
    with _server() as server, server.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{name}"')
        left_open = _server(name)  # as a thread of the code under test may keep its connection
        try:
            connection.creation._destroy_test_db(name, verbosity=0)
            cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
            assert cursor.fetchone() is None
        finally:
            left_open.close()
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _played_game() -> int:
    from accounts.services import user_create_with_role
    from arbitration.services import game_create, game_move_record
    from players.models import Player

    number = Player.objects.count()
    director = user_create_with_role(username=f"td{number}", password="a-long-test-password", role="director")
    referee = user_create_with_role(username=f"rf{number}", password="a-long-test-password", role="referee")
    black, white = (Player.objects.create(name=f"Player {number + n}") for n in range(2))
    game = game_create(acting_user=director, black=black, white=white, referees=[referee.username])
    game_move_record(acting_user=referee, game_id=game.pk, move="11-15")
    return game.pk


@pytest.mark.django_db(transaction=True)
def test_the_flush_after_a_transactional_test_empties_every_table_and_leaves_the_triggers_on():
    from django.contrib.contenttypes.models import ContentType
    from django.db.models.functions import Now

    from arbitration.models import LogEntry
    from core.models import WorkerHeartbeat

    assert LogEntry.objects.filter(game=_played_game()).count() >= 2
    content_types = list(ContentType.objects.order_by("id").values_list("id", "app_label", "model"))
    # A Celery worker the session started (the session-scoped ``celery_worker``) may write its heartbeat into
    # this database at any time, the flush's instant included: that table is judged by a row of the test's own.
    WorkerHeartbeat.objects.create(name="celery@flushed", pid=1, beat_at=Now())
    # as Django's teardown of a transactional test does
    call_command("flush", verbosity=0, interactive=False, reset_sequences=False, allow_cascade=False)
    with connection.cursor() as cursor:
        for table in connection.introspection.django_table_names(only_existing=True, include_views=False):
            if table == WorkerHeartbeat._meta.db_table:
                cursor.execute(f'SELECT count(*) FROM "{table}" WHERE name = %s', ["celery@flushed"])  # noqa: S608
            else:
                cursor.execute(f'SELECT count(*) FROM "{table}"')  # noqa: S608
            left = cursor.fetchone()[0]
            if table in ("django_content_type", "auth_permission"):
                assert left > 0, table  # kept: what migrate made, as in a new test database
            else:
                assert left == 0, table
    # kept as they were (a TRUNCATE and post_migrate would have made them again, under other ids)
    assert list(ContentType.objects.order_by("id").values_list("id", "app_label", "model")) == content_types
    # the deletes ran as a replica: the triggers are on again after them, in the same connection
    assert LogEntry.objects.filter(game=_played_game()).count() >= 2
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM arbitration_logentry")
