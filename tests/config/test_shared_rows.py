"""The rows a module's tests share (tests/support/shared_rows.py): each test sees them as built, whatever
the one before it wrote, and a module with a transactional test is refused."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.support.shared_rows import fresh, module_fixture, module_rows

pytestmark = [pytest.mark.django_db]


def _build(prefix: str = "Shared") -> dict:
    from players.models import Player

    return {"players": [Player.objects.create(name=f"{prefix} {i}", rating=1500 + i) for i in range(3)]}


rows = module_fixture(_build)


@pytest.mark.parametrize("turn", range(3))
def test_each_test_sees_the_rows_as_built_whatever_the_last_one_wrote(rows, turn):
    """Run in one process (as xdist mostly sends a module's tests), the later turns see the rows the first
    ones changed and added rolled back."""
    from players.models import Player

    players = fresh(rows["players"])
    assert [(p.name, p.rating) for p in players] == [("Shared 0", 1500), ("Shared 1", 1501), ("Shared 2", 1502)]
    assert Player.objects.filter(name__startswith="Shared").count() == 3
    assert players is not rows["players"] and players[0] is not rows["players"][0]
    players[0].rating = 1000 + turn
    players[0].save(update_fields=["rating"])
    Player.objects.create(name=f"Shared extra {turn}")
    rows["players"][1].rating = 0  # in memory only: the next test's fresh copy is read again


def test_a_module_with_a_transactional_test_is_refused(django_db_blocker):
    module = SimpleNamespace(__name__="tests.example")
    marker = pytest.mark.django_db(transaction=True).mark
    item = SimpleNamespace(module=module, name="test_flushes", fixturenames=(),
                           get_closest_marker=lambda name: marker if name == "django_db" else None)
    request = SimpleNamespace(module=module, session=SimpleNamespace(items=[item]))
    with pytest.raises(pytest.UsageError, match="test_flushes"), module_rows(request, django_db_blocker, dict):
        pass


def test_the_rows_are_rolled_back_when_the_module_is_done_or_the_build_fails(request, django_db_blocker):
    from players.models import Player

    with module_rows(request, django_db_blocker, lambda: _build("Inner")) as built:
        assert Player.objects.filter(pk__in=[p.pk for p in built["players"]]).count() == 3
    assert not Player.objects.filter(name__startswith="Inner").exists()

    def failing() -> None:
        _build("Failing")
        raise RuntimeError("the build failed")

    with pytest.raises(RuntimeError, match="the build failed"), module_rows(request, django_db_blocker, failing):
        pass
    assert not Player.objects.filter(name__startswith="Failing").exists()
