"""A migrated PostgreSQL database that every test database of a run is cloned from.

``make test`` creates several test databases on one server: one per xdist worker of the parallel part,
one for the serial part, one for the background part (``make test-fast`` two more). Migrating each from
nothing took ~7 s of CPU a database. Instead the first process to need one migrates a template database,
``test_<name>_template_<fingerprint>``, under a PostgreSQL advisory lock (the others wait on the lock),
and every test database is then created from it by ``CREATE DATABASE ... TEMPLATE`` (Django's
``TEST['TEMPLATE']`` setting), a file copy; Django's ``migrate`` on the copy finds nothing to apply.

The fingerprint hashes every migration file of every installed app (the project's and the libraries'),
with Django's version: a template migrated by other migration files is never used, and a new one is
made beside it (the old ones are dropped when nobody is connected to them). A template is built under
another name and renamed when its migrations are all applied, so a template that exists is complete.
The migration tests (``scratch_database``) still migrate an empty database from nothing.

And a test database is dropped at the end whoever is still connected to it (``DROP DATABASE ... WITH
(FORCE)``): a thread of the code under test that kept its connection open no longer leaves the database
behind on the server (pytest-django only warned).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
LOCK_KEY = 7_402_611  # pg_advisory_lock's key for building templates; any number nobody else uses


def migrations_fingerprint() -> str:
    """A hash of every migration file of every installed app, and of Django's version."""
    import django
    from django.apps import apps

    digest = hashlib.sha256(django.get_version().encode())
    for app in sorted(apps.get_app_configs(), key=lambda app: app.label):
        folder = Path(app.path) / "migrations"
        for path in sorted(folder.glob("*.py")) if folder.is_dir() else ():
            digest.update(f"{app.label}/{path.name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _exists(cursor, name: str) -> bool:
    cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
    return cursor.fetchone() is not None


def _database_url(name: str) -> str:
    """The run's ``DATABASE_URL`` (its server, user and options) naming the database ``name``."""
    return urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{name}").geturl()


def migrated_template(connection) -> str:  # noqa: ANN001
    """Returns the name of the migrated template database for this connection's settings, building it if
    none exists. On the server through Django's own connection for creating databases (``_nodb_cursor``)."""
    prefix = f"test_{connection.settings_dict['NAME']}_template_"
    name = prefix + migrations_fingerprint()
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [LOCK_KEY])
        try:
            if not _exists(cursor, name):
                building = f"{name}_building"
                cursor.execute(f'DROP DATABASE IF EXISTS "{building}"')
                cursor.execute(f'CREATE DATABASE "{building}" TEMPLATE template0')
                env = {**os.environ, "DATABASE_URL": _database_url(building)}
                run = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env,
                                     capture_output=True, text=True)
                if run.returncode != 0:
                    cursor.execute(f'DROP DATABASE IF EXISTS "{building}"')
                    raise RuntimeError(f"migrating the template database {building} failed:\n{run.stdout}{run.stderr}")
                cursor.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
                _drop_stale(cursor, prefix, keep=name)
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [LOCK_KEY])
    return name


def _drop_stale(cursor, prefix: str, keep: str) -> None:  # noqa: ANN001
    """Drops the templates named ``prefix`` and another fingerprint that nobody is connected to."""
    cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE %s AND datname <> %s", [f"{prefix}%", keep])
    for (stale,) in cursor.fetchall():
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [stale])
        if cursor.fetchone()[0] == 0:
            cursor.execute(f'DROP DATABASE IF EXISTS "{stale}"')


def clone_test_databases_from_a_template() -> None:
    """Makes Django create the default test database from the migrated template (PostgreSQL only)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    connection.settings_dict.setdefault("TEST", {})["TEMPLATE"] = migrated_template(connection)


def drop_test_databases_whoever_is_connected() -> None:
    """Makes Django drop a PostgreSQL test database with ``WITH (FORCE)`` (PostgreSQL 13 and later)."""
    from django.db.backends.postgresql.creation import DatabaseCreation

    def _destroy_test_db(self, test_database_name: str, verbosity: int) -> None:  # noqa: ANN001
        self.connection.close_pool()
        with self._nodb_cursor() as cursor:
            cursor.execute(f"DROP DATABASE {self.connection.ops.quote_name(test_database_name)} WITH (FORCE)")

    DatabaseCreation._destroy_test_db = _destroy_test_db
