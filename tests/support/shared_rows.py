"""Rows the tests of one module share: built once, in a transaction held open around the module's tests.

pytest-django runs each test that is not transactional in a transaction of its own, rolled back
after it; when one is open already that is a savepoint inside it. And it leaves out Django's
``TestCase.tearDownClass``, which closes the connections, so that tests can be wrapped in a
transaction of a larger scope (pytest_django/fixtures.py says so). So a module-scoped fixture opens a
transaction, builds the rows (``module_rows``), and yields: each test of the module sees them, what
it writes is rolled back to them after it, and after the module's last test they are rolled back
too. The rows of a world that takes a few hundred queries to build are built once a module (once
a worker that runs some of its tests) instead of once a test.

Only for a module whose tests are all non-transactional: a transactional test empties the tables
after it, which inside the open transaction would empty the shared rows. ``module_rows`` refuses a
module that has one. The model objects the builder returns are the module's: a test takes fresh
copies of them (``fresh``), so that what one test changes in memory is not seen by the next.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest

T = TypeVar("T")


def _transactional(item: pytest.Item) -> bool:
    """Whether pytest-django runs ``item`` as a transactional test (its own reading of the marker, as in
    ``_django_db_helper``)."""
    from pytest_django.fixtures import validate_django_db

    marker = item.get_closest_marker("django_db")
    transactional, reset_sequences = validate_django_db(marker)[:2] if marker is not None else (False, False)
    fixtures = getattr(item, "fixturenames", ())
    return bool(transactional or reset_sequences
                or {"transactional_db", "live_server", "django_db_reset_sequences"}.intersection(fixtures))


@contextmanager
def module_rows(request: pytest.FixtureRequest, django_db_blocker: Any, build: Callable[[], T]) -> Iterator[T]:
    """Builds the module's shared rows with ``build`` in a transaction that stays open until the module's
    tests are done, then is rolled back. For a module-scoped fixture (it needs ``django_db_setup``)."""
    from django.db import transaction

    from config.celery import app

    module = request.module
    mixed = [item.name for item in request.session.items if item.module is module and _transactional(item)]
    if mixed:
        raise pytest.UsageError(f"{module.__name__}: shared rows need non-transactional tests, not {mixed}")
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        eager = app.conf.task_always_eager
        app.conf.task_always_eager = True  # as for a test (celery_tasks_in_process in tests/conftest.py)
        try:
            built = build()
        except BaseException:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            raise
        finally:
            app.conf.task_always_eager = eager
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


def module_fixture(build: Callable[[], Any]) -> Any:
    """A module-scoped fixture of the rows ``build`` makes (``module_rows``), named as the module names it:
    ``world_rows = module_fixture(_world)``."""

    @pytest.fixture(scope="module")
    def rows(request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any) -> Iterator[Any]:
        with module_rows(request, django_db_blocker, build) as built:
            yield built

    return rows


def fresh(obj: T) -> T:
    """A copy of the model object ``obj`` read again from the database (a list or tuple of them: each; None:
    None)."""
    if obj is None:
        return obj
    if isinstance(obj, list | tuple):
        return type(obj)(fresh(o) for o in obj)
    return type(obj)._default_manager.get(pk=obj.pk)
