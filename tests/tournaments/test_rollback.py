"""Heads rolled back with the rows: what the verification finds, and what only a head kept outside finds.

An attacker with every right on the database but not the record key deletes the last entries of a
game's or a tournament's log and sets the cached head back to the entry before. The chain that is
left is whole and keyed; before, `verify_log` and the API said valid. Now the tournament's rows are
cross-checked against its log (status, rounds, the games of each round, each game's result, a
finished tournament's games finished), and the head published with each round, in the API and in
the exports, finds what the database and the log both lost.
"""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from arbitration.log import log_verify
from arbitration.models import LogEntry
from games.models import Game
from tests.support.tamper import as_attacker
from tests.tournaments.test_services import make_players, play_round, running_tournament
from tournaments import services
from tournaments.log import tournament_log_verify
from tournaments.models import Tournament, TournamentLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(director):
    """A four-player round robin played to the end and finished."""
    tournament = running_tournament(director, make_players(4))
    for _ in range(3):
        play_round(director, tournament)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="finished")
    return Tournament.objects.get(pk=tournament.pk)


def _verify(capsys, *args: str) -> tuple[int, str]:
    try:
        call_command("verify_log", *args)
    except CommandError as error:
        return error.returncode, capsys.readouterr().out
    return 0, capsys.readouterr().out


def roll_game_back(game: Game) -> None:
    """Deletes the game's entries from its ending on and sets its head and row back to before the end."""
    end = LogEntry.objects.filter(game=game, kind="game_end").order_by("seq").first()
    before = LogEntry.objects.get(game=game, seq=end.seq - 1)
    as_attacker("DELETE FROM arbitration_logentry WHERE game_id = %s AND seq >= %s", [game.pk, end.seq])
    as_attacker("UPDATE games_game SET status = 'in_progress', result = NULL, termination = NULL, finished_at = NULL, "
                "log_seq = %s, log_head = %s WHERE id = %s", [before.seq, before.hash, game.pk])


def roll_tournament_back(tournament: Tournament, *, to_seq: int) -> None:
    """Deletes the tournament's rows after ``to_seq`` and sets its head back to that row."""
    kept = TournamentLog.objects.get(tournament=tournament, seq=to_seq)
    as_attacker("DELETE FROM tournaments_tournamentlog WHERE tournament_id = %s AND seq > %s", [tournament.pk, to_seq])
    as_attacker("UPDATE tournaments_tournament SET log_seq = %s, log_head = %s WHERE id = %s",
                [kept.seq, kept.hash, tournament.pk])


def test_a_finished_tournament_holding_a_game_rolled_back_to_unfinished_is_reported(finished, client, capsys):
    game = Game.objects.filter(round__tournament=finished).order_by("id").last()
    roll_game_back(game)
    assert log_verify(game).valid  # the game's own chain is whole and its row agrees with it
    body = client.get(f"/api/v1/tournaments/{finished.slug}/log/verify/").json()
    assert body["valid"] is False
    assert f"the tournament is finished but game {game.pk}" in body["reason"] and "in_progress" in body["reason"]
    code, out = _verify(capsys, "--tournament", finished.slug)
    assert code == 1 and f"tournament {finished.slug}: BROKEN" in out


def test_a_running_tournaments_game_rolled_back_behind_its_recorded_result_is_reported(director):
    tournament = running_tournament(director, make_players(4))
    play_round(director, tournament)  # the results are set by the director: result_recorded rows
    game = Game.objects.filter(round__tournament=tournament).order_by("id").first()
    roll_game_back(game)
    outcome = tournament_log_verify(tournament)
    assert outcome.valid is False
    assert f"gave game {game.pk} the result" in outcome.reason and "in_progress" in outcome.reason


def test_the_last_rows_of_a_tournament_log_deleted_with_the_head_set_back_are_reported(director, client):
    tournament = running_tournament(director, make_players(4))
    play_round(director, tournament)
    before_round_two = Tournament.objects.get(pk=tournament.pk).log_seq
    play_round(director, tournament)
    roll_tournament_back(tournament, to_seq=before_round_two)
    body = client.get(f"/api/v1/tournaments/{tournament.slug}/log/verify/").json()
    assert body["valid"] is False
    assert "round 2 (published) is in the database but no row of the log published it" in body["reason"]


def test_a_finished_status_the_log_no_longer_has_is_reported(finished):
    finish = TournamentLog.objects.filter(tournament=finished, kind="status_changed", to_status="finished").get()
    roll_tournament_back(finished, to_seq=finish.seq - 1)
    outcome = tournament_log_verify(finished)
    assert outcome.valid is False and "the tournament row says finished" in outcome.reason


def test_a_round_published_then_removed_with_its_rows_is_found_by_the_head_printed_on_its_pairing_sheet(
        director, client, capsys):
    """The database and the log both lose round 2: only a head published with the round shows it."""
    tournament = running_tournament(director, make_players(4))
    play_round(director, tournament)
    before_round_two = Tournament.objects.get(pk=tournament.pk).log_seq
    round_two = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_two.number)
    sheet = client.get(f"/tournaments/{tournament.slug}/rounds/2/pairings/").content.decode()
    printed = re.search(r'data-testid="published-head">([^<]+)</code>', sheet).group(1)
    published = TournamentLog.objects.get(tournament=tournament, kind="round_published", data__round=2)
    assert printed == f"{published.seq}:{published.hash}"
    assert client.get(f"/api/v1/tournaments/{tournament.slug}/rounds/2/").json()["published_head"] == printed
    pdn = client.get(f"/api/v1/tournaments/{tournament.slug}/pdn")
    assert pdn.headers["X-Log-Head"] == printed  # a running tournament's downloads carry its head too
    game_ids = list(Game.objects.filter(round=round_two).values_list("id", flat=True))
    assert all(re.search(r'\[LogHead "\d+:[0-9a-f]{64}"\]', pdn.content.decode()) for _ in game_ids)
    # The attacker removes round 2 from the database and the log alike.
    as_attacker("DELETE FROM tournaments_matchgame WHERE game_id = ANY(%s)", [game_ids])
    as_attacker("DELETE FROM arbitration_logentry WHERE game_id = ANY(%s)", [game_ids])
    as_attacker("DELETE FROM games_game_referees WHERE game_id = ANY(%s)", [game_ids])
    as_attacker("DELETE FROM games_game WHERE id = ANY(%s)", [game_ids])
    as_attacker("DELETE FROM tournaments_match WHERE round_id = %s", [round_two.pk])
    as_attacker("DELETE FROM tournaments_round WHERE id = %s", [round_two.pk])
    roll_tournament_back(tournament, to_seq=before_round_two)
    assert tournament_log_verify(tournament).valid  # consistent: nothing left to contradict
    code, out = _verify(capsys, "--tournament", tournament.slug, "--head", printed)
    assert code == 1 and f"row #{published.seq} of the head kept is not in the log" in out


def test_a_game_removed_from_a_published_round_is_reported(director):
    tournament = running_tournament(director, make_players(4))
    round_one = play_round(director, tournament)
    assert tournament_log_verify(tournament).valid
    published = TournamentLog.objects.get(tournament=tournament, kind="round_published", data__round=1)
    assert published.data["games"] == Game.objects.filter(round=round_one).count() > 0
    # A game of a published round deleted by hand, with its record: not what the log created.
    gone = Game.objects.filter(round=round_one).order_by("id").first()
    as_attacker("DELETE FROM tournaments_matchgame WHERE game_id = %s", [gone.pk])
    as_attacker("DELETE FROM arbitration_logentry WHERE game_id = %s", [gone.pk])
    as_attacker("DELETE FROM games_game_referees WHERE game_id = %s", [gone.pk])
    as_attacker("DELETE FROM games_game WHERE id = %s", [gone.pk])
    outcome = tournament_log_verify(tournament)
    assert outcome.valid is False and f"round 1 holds {published.data['games'] - 1} games" in outcome.reason


def test_verify_log_checks_a_file_of_heads_kept(director, tmp_path, capsys):
    tournament = running_tournament(director, make_players(4))
    round_one = play_round(director, tournament)
    game = Game.objects.filter(round=round_one).order_by("id").first()
    published = TournamentLog.objects.get(tournament=tournament, kind="round_published", data__round=1)
    kept = tmp_path / "heads.txt"
    kept.write_text(f"# kept after round 1\ngame {game.pk} {game.log_seq}:{game.log_head}\n\n"
                    f"tournament {tournament.slug} {published.seq}:{published.hash}\n", encoding="utf-8")
    code, out = _verify(capsys, "--heads", str(kept))
    assert code == 0 and out.count(": OK") == 2
    roll_tournament_back(tournament, to_seq=published.seq - 1)
    code, out = _verify(capsys, "--heads", str(kept))
    assert code == 1 and f"game {game.pk}: OK" in out and f"tournament {tournament.slug}: BROKEN" in out
