"""The tournament log is chained under the record key and verified by `verify_log --tournament`."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from core.chain import GENESIS_HASH, key_id_of
from tests.support.tamper import as_attacker, historical_apps, triggers_off
from tests.tournaments.test_services import make_players, play_round, running_tournament
from tournaments import services
from tournaments.log import tournament_log_verify
from tournaments.models import Tournament, TournamentLog

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


@pytest.fixture
def finished(director):
    """A four-player round robin played to the end and finished: its head is printed."""
    tournament = running_tournament(director, make_players(4))
    for _ in range(3):
        play_round(director, tournament)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="finished")
    tournament.refresh_from_db()
    return tournament


def test_the_head_on_the_tournament_row_follows_every_row(tournament):
    tournament.refresh_from_db()
    last = TournamentLog.objects.filter(tournament=tournament).order_by("-seq").first()
    assert (tournament.log_seq, tournament.log_head) == (last.seq, last.hash)


def test_rows_deleted_from_the_end_are_reported(tournament, capsys):
    last = TournamentLog.objects.filter(tournament=tournament).order_by("-seq").first()
    as_attacker("DELETE FROM tournaments_tournamentlog WHERE tournament_id = %s AND seq >= %s",
                [tournament.pk, last.seq - 1])
    outcome = tournament_log_verify(tournament)
    assert (outcome.valid, outcome.broken_at) == (False, last.seq - 1)
    assert f"rows #{last.seq - 1} to #{last.seq} are missing" in outcome.reason and "deleted from the end" in outcome.reason
    code, out = _verify(capsys, "--tournament", "club")
    assert code == 1 and "BROKEN" in out and "missing" in out


def test_a_tournament_saved_whole_from_an_old_copy_keeps_its_head(tournament, director):
    stale = Tournament.objects.get(pk=tournament.pk)  # read before the next rows are appended
    play_round(director, tournament)
    stale.venue = "The club hall"
    stale.save()  # e.g. the admin, or a service saving the whole row
    fresh = Tournament.objects.get(pk=tournament.pk)
    assert fresh.venue == "The club hall" and fresh.log_seq > stale.log_seq
    assert tournament_log_verify(fresh).valid


def test_a_finished_tournament_prints_its_head_and_the_command_checks_a_copy_kept(finished, client, capsys):
    head = f"{finished.log_seq}:{finished.log_head}"
    page = client.get("/tournaments/club/")
    assert page.status_code == 200 and head in page.content.decode()
    assert client.get("/api/v1/tournaments/club/").json()["log_head"] == head
    for export in ("standings.csv", "crosstable.csv", "pdn"):
        assert client.get(f"/api/v1/tournaments/club/{export}").headers["X-Log-Head"] == head
    code, out = _verify(capsys, "--tournament", "club", "--head", head)
    assert code == 0 and f"it leads to the head kept, {head}" in out
    assert _verify(capsys, "--tournament", "club", "--head", finished.log_head)[0] == 0  # the hash alone will do


def test_a_record_rewritten_with_the_key_does_not_lead_to_the_head_kept(finished, capsys):
    """Someone with the database and the record key rewrites a result and every later hash: the chain
    verifies, but no longer leads to the head printed at the end."""
    from core.chain import chain_hash
    from tournaments.log import row_content

    kept = f"{finished.log_seq}:{finished.log_head}"
    previous = GENESIS_HASH
    with triggers_off():
        for row in TournamentLog.objects.filter(tournament=finished).order_by("seq"):
            reason = "forged" if row.seq == 5 else row.reason
            content = row_content(tournament_id=finished.pk, seq=row.seq, kind=row.kind, actor_id=row.actor_id,
                                  from_status=row.from_status, to_status=row.to_status, reason=reason, data=row.data,
                                  supersedes_seq=row.supersedes.seq if row.supersedes else None,
                                  created_at=row.created_at)
            key_id, digest = chain_hash(content, previous)
            as_attacker("UPDATE tournaments_tournamentlog SET reason = %s, prev_hash = %s, hash = %s WHERE id = %s",
                        [reason, previous, digest, row.pk])
            previous = digest
        as_attacker("UPDATE tournaments_tournament SET log_head = %s WHERE id = %s", [previous, finished.pk])
    assert tournament_log_verify(finished).valid  # the key makes a chain that holds...
    code, out = _verify(capsys, "--tournament", "club", "--head", kept)
    assert code == 1 and "the record was rewritten since" in out  # ...but not the one kept outside


def test_the_api_verifies_a_tournament_log(tournament, client):
    tournament.refresh_from_db()
    body = client.get("/api/v1/tournaments/club/log/verify/").json()
    assert body["valid"] is True and body["entries"] == tournament.log_seq
    as_attacker("DELETE FROM tournaments_tournamentlog WHERE tournament_id = %s AND seq = %s",
                [tournament.pk, tournament.log_seq])
    body = client.get("/api/v1/tournaments/club/log/verify/").json()
    assert body["valid"] is False and "missing" in body["reason"]
    assert client.get("/api/v1/tournaments/nope/log/verify/").status_code == 404


def test_head_needs_one_game_or_one_tournament(db):
    with pytest.raises(CommandError, match="--head needs --game or --tournament"):
        call_command("verify_log", "--head", "1:ab")


def test_the_migration_sets_each_tournament_head_to_its_last_row(tournament):
    from importlib import import_module

    as_attacker("UPDATE tournaments_tournament SET log_seq = 0, log_head = %s WHERE id = %s",
                [GENESIS_HASH, tournament.pk])
    assert tournament_log_verify(tournament).valid is False
    import_module("tournaments.migrations.0010_tournament_chain_head").fill_heads(
        historical_apps("tournaments", "0010_tournament_chain_head"), None)
    assert tournament_log_verify(tournament).valid
