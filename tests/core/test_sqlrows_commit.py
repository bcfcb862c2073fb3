"""A pipeline that commits: the COMMIT goes with the writes only where the transaction would commit anyway.

On PostgreSQL (pipeline mode is PostgreSQL's): what another connection sees tells when the
transaction committed.
"""

from __future__ import annotations

import psycopg
import pytest
from django.db import IntegrityError, connection, transaction

from arbitration.models import LogEntry
from arbitration.services import game_move_record
from core import sqlrows
from games.models import Game
from tests.arbitration.conftest import new_game, players  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql_only():
    if connection.vendor != "postgresql":
        pytest.fail("these tests are about PostgreSQL's pipeline mode (make test runs them on PostgreSQL)")


def entry_for(game: Game, seq: int) -> LogEntry:
    return LogEntry(game=game, seq=seq, kind="system", created_at=game.created_at, ply=0, fen=game.fen,
                    prev_hash="0" * 64, hash="1" * 64)


def seen_elsewhere(game: Game) -> int:
    """Counts the game's log entries as another connection sees them (committed ones only)."""
    params = connection.settings_dict
    with psycopg.connect(dbname=params["NAME"], user=params["USER"] or None, host=params["HOST"] or None,
                         port=params["PORT"] or None, password=params["PASSWORD"] or None) as other:
        return other.execute(f"SELECT count(*) FROM {LogEntry._meta.db_table} WHERE game_id = %s",
                             [game.pk]).fetchone()[0]


def test_in_the_outermost_block_the_commit_goes_with_the_writes_and_on_commit_runs_after_it(new_game):  # noqa: F811
    game = new_game()
    before = seen_elsewhere(game)
    followed_up = []

    def follow_up() -> None:  # an ORM save of an existing row: not possible inside pipeline mode
        again = Game.objects.get(pk=game.pk)
        again.arbitration = {**again.arbitration, "followed": True}
        again.save(update_fields=["arbitration"])
        followed_up.append(seen_elsewhere(game))

    entry = entry_for(game, game.log_seq + 1)
    with transaction.atomic():
        transaction.on_commit(follow_up)
        with sqlrows.pipeline(commit=True):
            sqlrows.row_insert(entry, pk_later=True)
            assert entry.pk is None
        assert entry.pk is not None
        assert seen_elsewhere(game) == before + 1  # committed at the block's end, with the insert
        assert followed_up == []  # on_commit waits for the atomic block's end
    assert followed_up == [before + 1]
    assert Game.objects.get(pk=game.pk).arbitration["followed"] is True
    assert not connection.in_atomic_block and connection.get_autocommit()


def test_in_a_savepoint_nothing_is_committed_before_the_outer_block_ends(new_game):  # noqa: F811
    game = new_game()
    before = seen_elsewhere(game)
    with transaction.atomic():
        with transaction.atomic(), sqlrows.pipeline(commit=True):
            sqlrows.row_insert(entry_for(game, game.log_seq + 1), pk_later=True)
        assert seen_elsewhere(game) == before
    assert seen_elsewhere(game) == before + 1


def test_a_block_marked_for_rollback_is_not_committed(new_game):  # noqa: F811
    game = new_game()
    before = seen_elsewhere(game)
    with transaction.atomic(), sqlrows.pipeline(commit=True):
        sqlrows.row_insert(entry_for(game, game.log_seq + 1), pk_later=True)
        transaction.set_rollback(True)
    assert seen_elsewhere(game) == before
    assert LogEntry.objects.filter(game=game).count() == before


def test_a_failed_write_commits_nothing_and_the_connection_goes_on(new_game):  # noqa: F811
    game = new_game()
    before = seen_elsewhere(game)
    with pytest.raises(IntegrityError), transaction.atomic(), sqlrows.pipeline(commit=True):
        sqlrows.row_insert(entry_for(game, game.log_seq + 1), pk_later=True)
        sqlrows.row_insert(entry_for(game, game.log_seq + 1), pk_later=True)  # the same seq: refused
    assert seen_elsewhere(game) == before
    assert LogEntry.objects.filter(game=game).count() == before
    with transaction.atomic(), sqlrows.pipeline(commit=True):
        sqlrows.row_insert(entry_for(game, game.log_seq + 1), pk_later=True)
    assert seen_elsewhere(game) == before + 1


def test_a_recorded_move_refers_to_its_own_log_entry(new_game, referee):  # noqa: F811
    game = new_game()
    outcome = game_move_record(acting_user=referee, game_id=game.pk, move="11-15", ply=1)
    outcome = game_move_record(acting_user=referee, game_id=game.pk, move="23-19", ply=2)
    move = outcome.move
    entry = LogEntry.objects.get(pk=move.log_entry_id)
    assert move.pk is not None
    assert (entry.game_id, entry.kind, entry.ply, entry.data["move"]) == (game.pk, "move", 2, "23-19")
    assert entry.seq == Game.objects.get(pk=game.pk).log_seq
