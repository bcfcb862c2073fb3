"""The tournament log is chained under the record key and verified by `verify_log --tournament`."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from core.chain import GENESIS_HASH, key_id_of
from tests.support.tamper import as_attacker, historical_apps, triggers_off
from tests.tournaments.test_services import make_players, play_round, running_tournament
from tournaments.log import tournament_log_verify
from tournaments.models import TournamentLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(director):
    tournament = running_tournament(director, make_players(4))
    play_round(director, tournament)
    return tournament


def _verify(capsys, *args: str) -> tuple[int, str]:
    try:
        call_command("verify_log", *args)
    except CommandError as error:
        return error.returncode, capsys.readouterr().out
    return 0, capsys.readouterr().out


def test_rows_are_numbered_and_chained_under_the_record_key(tournament, settings, capsys):
    rows = list(TournamentLog.objects.filter(tournament=tournament).order_by("seq"))
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1)) and len(rows) > 8
    assert rows[0].prev_hash == GENESIS_HASH
    assert all(b.prev_hash == a.hash for a, b in zip(rows, rows[1:], strict=False))
    assert {r.key_id for r in rows} == {key_id_of(settings.LOG_KEY)}
    assert tournament_log_verify(tournament).valid
    code, out = _verify(capsys, "--tournament", "club")
    assert code == 0 and f"tournament club: OK ({len(rows)} rows)" in out and "game " not in out


def test_a_row_edited_by_hand_is_reported_by_the_command(tournament, capsys):
    row = TournamentLog.objects.get(tournament=tournament, seq=3)
    as_attacker("UPDATE tournaments_tournamentlog SET reason = %s WHERE id = %s", ["nothing", row.pk])
    code, out = _verify(capsys, "--tournament", "club")
    assert code == 1 and "tournament club: BROKEN at row #3" in out and "hash does not match" in out
    code, out = _verify(capsys)  # everything: the games, then the tournaments
    assert code == 1 and "tournament club: BROKEN at row #3" in out and "game " in out


def test_a_row_deleted_by_hand_is_reported(tournament):
    as_attacker("DELETE FROM tournaments_tournamentlog WHERE tournament_id = %s AND seq = 2", [tournament.pk])
    outcome = tournament_log_verify(tournament)
    assert (outcome.valid, outcome.broken_at) == (False, 3) and "sequence" in outcome.reason


def test_rows_rewritten_with_every_later_hash_recomputed_without_the_key_are_reported(tournament):
    import hashlib

    from tournaments.log import row_content

    previous = GENESIS_HASH
    for row in TournamentLog.objects.filter(tournament=tournament).order_by("seq"):
        content = row_content(
            tournament_id=tournament.pk, seq=row.seq, kind=row.kind, actor_id=row.actor_id,
            from_status=row.from_status, to_status=row.to_status, reason="forged" if row.seq == 2 else row.reason,
            data=row.data, supersedes_seq=None, created_at=row.created_at,
        )
        digest = hashlib.sha256((content + previous).encode()).hexdigest()
        as_attacker("UPDATE tournaments_tournamentlog SET reason = %s, prev_hash = %s, hash = %s, key_id = '' "
                    "WHERE id = %s", ["forged" if row.seq == 2 else row.reason, previous, digest, row.pk])
        previous = digest
    outcome = tournament_log_verify(tournament)
    assert (outcome.valid, outcome.broken_at) == (False, 1)


def test_the_migration_chains_the_rows_written_before_in_their_order(tournament):
    from importlib import import_module

    before = list(TournamentLog.objects.filter(tournament=tournament).order_by("id").values_list("id", "kind", "data"))
    as_attacker("UPDATE tournaments_tournamentlog SET seq = 1000 + seq, prev_hash = '', hash = '', key_id = '' "
                "WHERE tournament_id = %s", [tournament.pk])
    assert tournament_log_verify(tournament).valid is False
    with triggers_off():  # the migration runs before the trigger exists
        import_module("tournaments.migrations.0006_tournamentlog_chain").chain(
            historical_apps("tournaments", "0006_tournamentlog_chain"), None)
    after = list(TournamentLog.objects.filter(tournament=tournament).order_by("seq").values_list("id", "kind", "data"))
    assert after == before and tournament_log_verify(tournament).valid


def test_an_unknown_tournament_is_refused(db):
    with pytest.raises(CommandError, match="no tournament nope"):
        call_command("verify_log", "--tournament", "nope")
