"""The log tables refuse UPDATE and DELETE: in the ORM, and on PostgreSQL in the database, by trigger."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from arbitration.models import AppendOnlyError, LogEntry
from arbitration.services import game_create
from players.models import Player
from tests.support.tamper import as_attacker
from tests.tournaments.test_services import make_players, running_tournament
from tournaments.models import TournamentLog

pytestmark = pytest.mark.django_db

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql", reason="the triggers are PostgreSQL's")


@pytest.fixture
def rows(director):
    tournament = running_tournament(director, make_players(2))
    black, white = Player.objects.create(name="A"), Player.objects.create(name="B")
    game = game_create(acting_user=director, black=black, white=white)
    return LogEntry.objects.get(game=game, seq=1), TournamentLog.objects.filter(tournament=tournament).first()


def _refused(sql: str, params: list) -> str:
    with pytest.raises(DatabaseError) as raised, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)
    return str(raised.value)


@on_postgresql
@pytest.mark.parametrize("table", ["arbitration_logentry", "tournaments_tournamentlog"])
def test_raw_update_and_delete_are_refused_by_the_database(rows, table):
    row = rows[0] if table == "arbitration_logentry" else rows[1]
    message = _refused(f"UPDATE {table} SET hash = %s WHERE id = %s", ["f" * 64, row.pk])  # noqa: S608
    assert "append-only: UPDATE on " + table + " refused" in message
    message = _refused(f"DELETE FROM {table} WHERE id = %s", [row.pk])  # noqa: S608
    assert "append-only: DELETE on " + table + " refused" in message
    assert type(row).objects.get(pk=row.pk).hash == row.hash


@on_postgresql
def test_a_superuser_can_switch_the_triggers_off_which_is_why_the_key_matters(rows):
    entry = rows[0]
    as_attacker("UPDATE arbitration_logentry SET note = 'forged' WHERE id = %s", [entry.pk])
    assert LogEntry.objects.get(pk=entry.pk).note == "forged"


def test_the_orm_refuses_to_change_or_delete_a_tournament_log_row(rows):
    row = rows[1]
    row.reason = "changed"
    with pytest.raises(AppendOnlyError):
        row.save()
    with pytest.raises(AppendOnlyError):
        row.delete()
    with pytest.raises(AppendOnlyError):
        TournamentLog.objects.filter(pk=row.pk).update(reason="changed")
    with pytest.raises(AppendOnlyError):
        TournamentLog.objects.filter(pk=row.pk).delete()
