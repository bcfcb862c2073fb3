"""The director's desk: a round's results undone while it is open, the round not finished naming its open games,
players entered from pasted lines or a CSV file with a preview before anything is written, and the manage page's
next step."""

from __future__ import annotations

import pytest
from django.test import Client

from arbitration.models import LogEntry
from games.models import Game
from players.models import Player, PlayerLog
from tests.tournaments.test_services import finish_games, make_players, running_tournament
from tournaments import services
from tournaments.models import Entry, Round, TournamentLog

pytestmark = pytest.mark.django_db


def _published(director, count: int = 4, **options):
    tournament = running_tournament(director, make_players(count), format="swiss", round_count=3, **options)
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    return tournament, round_


# --- undo ---------------------------------------------------------------------------------------


def test_a_result_undone_puts_the_game_back_in_play_and_keeps_both_on_the_logs(director):
    tournament, round_ = _published(director)
    game = Game.objects.filter(round=round_).order_by("id").first()
    services.game_result_set(acting_user=director, tournament=tournament, game_id=game.pk, result="1-0",
                             reason="Entered in the results grid.")
    services.game_result_undo(acting_user=director, tournament=tournament, game_id=game.pk)
    game.refresh_from_db()
    assert game.status != Game.Status.FINISHED and game.result in (None, "")
    kinds = list(LogEntry.objects.filter(game=game).order_by("seq").values_list("kind", flat=True))
    assert kinds[-1] == LogEntry.Kind.CORRECTION and LogEntry.Kind.ADJUDICATE in kinds
    rows = list(TournamentLog.objects.filter(tournament=tournament, data__game=game.pk).order_by("id"))
    assert [r.kind for r in rows] == [TournamentLog.Kind.RESULT_RECORDED, TournamentLog.Kind.RESULT_CORRECTED]
    assert rows[1].data["result"] is None and rows[1].data["before"] == "1-0" and rows[1].supersedes_id == rows[0].pk
    # entered again afterwards, and the tournament's log still verifies against the rows
    services.game_result_set(acting_user=director, tournament=tournament, game_id=game.pk, result="0-1",
                             reason="Entered in the results grid.")
    game.refresh_from_db()
    assert game.result == "0-1"
    from tournaments.log import tournament_log_verify

    assert tournament_log_verify(tournament).valid


def test_undo_is_refused_once_the_round_is_closed_and_for_a_game_ended_at_the_board(director):
    tournament, round_ = _published(director)
    first = Game.objects.filter(round=round_).order_by("id").first()
    with pytest.raises(services.RoundConflict, match="no result to undo"):
        services.game_result_undo(acting_user=director, tournament=tournament, game_id=first.pk)
    finish_games(director, tournament, round_)
    services.round_pair(acting_user=director, tournament=tournament)  # round 1 is closed by pairing round 2
    assert Round.objects.get(pk=round_.pk).status == Round.Status.FINISHED
    with pytest.raises(services.RoundConflict, match="closed"):
        services.game_result_undo(acting_user=director, tournament=tournament, game_id=first.pk)
    first.refresh_from_db()
    assert first.result  # nothing changed


def test_undo_refuses_a_result_not_entered_by_a_director(director, referee):
    from arbitration.services import ruling_issue

    tournament, round_ = _published(director)
    game = Game.objects.filter(round=round_).order_by("id").first()
    ruling_issue(acting_user=director, game_id=game.pk, kind=LogEntry.Kind.RESIGN, side="white")
    with pytest.raises(services.RoundConflict, match="not entered by a director"):
        services.game_result_undo(acting_user=director, tournament=tournament, game_id=game.pk)


def test_a_forfeit_from_the_grid_ends_the_game_as_a_forfeit_and_refuses_a_drawn_forfeit(director):
    tournament, round_ = _published(director)
    game = Game.objects.filter(round=round_).order_by("id").first()
    with pytest.raises(services.InvalidInput):
        services.game_result_set(acting_user=director, tournament=tournament, game_id=game.pk, result="1/2-1/2",
                                 reason="absent", forfeit=True)
    services.game_result_set(acting_user=director, tournament=tournament, game_id=game.pk, result="0-1",
                             reason="absent", forfeit=True)
    game.refresh_from_db()
    assert (game.result, game.termination) == ("0-1", "forfeit_absence")


def test_the_api_undoes_a_result_and_answers_bad_input_in_the_error_shape(director, player_user, client_as):
    tournament, round_ = _published(director)
    game = Game.objects.filter(round=round_).order_by("id").first()
    url = f"/api/v1/tournaments/{tournament.slug}/results/"
    api = client_as(director)
    answer = api.post(url, {"game": game.pk, "result": "1-0", "reason": "grid", "forfeit": True}, format="json")
    assert answer.status_code == 200, answer.content
    answer = api.post(url + "undo/", {"game": game.pk}, format="json")
    assert answer.status_code == 200, answer.content
    game.refresh_from_db()
    assert game.status != Game.Status.FINISHED
    again = api.post(url + "undo/", {"game": game.pk}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "round_conflict"
    for body in ({}, {"game": "x"}, {"game": 10**30}, {"game": game.pk, "reason": ["a"]}):
        bad = api.post(url + "undo/", body, format="json")
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "validation_error", (body, bad.content)
    other = api.post(url + "undo/", {"game": 999_999}, format="json")
    assert other.status_code == 400 and "not a game of this tournament" in str(other.json()["error"]["details"])
    assert client_as(player_user).post(url + "undo/", {"game": game.pk}, format="json").status_code == 403


def test_a_director_of_another_tournament_cannot_undo(director, make_user, client_as):
    tournament, round_ = _published(director)
    game = Game.objects.filter(round=round_).order_by("id").first()
    services.game_result_set(acting_user=director, tournament=tournament, game_id=game.pk, result="1-0", reason="x")
    stranger = make_user("other-td", "director")
    answer = client_as(stranger).post(f"/api/v1/tournaments/{tournament.slug}/results/undo/", {"game": game.pk},
                                      format="json")
    assert answer.status_code == 403
    game.refresh_from_db()
    assert game.result == "1-0"


# --- the round not finished ------------------------------------------------------------------------


def test_pairing_before_the_round_is_finished_names_the_games_still_open(director):
    tournament, round_ = _published(director)
    games = list(Game.objects.filter(round=round_).select_related("black", "white").order_by("id"))
    services.game_result_set(acting_user=director, tournament=tournament, game_id=games[0].pk, result="1-0",
                             reason="slip")
    with pytest.raises(services.RoundConflict) as refused:
        services.round_pair(acting_user=director, tournament=tournament)
    error = refused.value
    assert error.message.startswith("Round 1 is not finished: still to play: board ")
    open_ids = [g["game"] for g in error.details["games"]]
    assert open_ids and games[0].pk not in open_ids
    assert sorted(open_ids) == sorted(g.pk for g in games[1:])
    named = next(g for g in games[1:] if g.pk == open_ids[0])
    assert f"game {named.pk} ({named.black.name} v {named.white.name})" in error.message


# --- players entered from lines or a file ----------------------------------------------------------


def _registration(director):
    tournament = services.tournament_create(acting_user=director, name="Open", slug="open", format="swiss",
                                            round_count=3)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    return tournament


def test_the_preview_of_pasted_lines_writes_nothing_and_says_what_the_import_will_do(director):
    tournament = _registration(director)
    known = Player.objects.create(name="Ann Lee", club="Leeds DC")
    entered = Player.objects.create(name="Bob Marsh", club="York", federation="ENG", federation_id="77")
    services.entry_add(acting_user=director, tournament=tournament, player=entered)
    text = ("Carl New, Hull, ENG, 101, 1600\n"
            "ann lee, leeds dc\n"
            "Someone, York, ENG, 77\n"
            "Dora New\n"
            ", no name\n"
            "Eve New, , , , lots\n")
    players_before, log_before = Player.objects.count(), TournamentLog.objects.count()
    report = services.entries_import(acting_user=director, tournament=tournament, text=text, dry_run=True)
    assert (Player.objects.count(), TournamentLog.objects.count()) == (players_before, log_before)
    assert [p.name for p in report.created] == ["Carl New", "Dora New"]
    assert report.created[0].rating == 1600 and report.created[0].federation_id == "101"
    assert [p.pk for p in report.entered] == [known.pk]
    assert [p.pk for p in report.already] == [entered.pk]
    # the lines as pasted: no header line counted
    assert [(r.line, r.reason) for r in report.refused] == [
        (5, "the name is missing"), (6, "the rating 'lots' is not a whole number")]
    done = services.entries_import(acting_user=director, tournament=tournament, text=text, dry_run=False)
    assert sorted(p.name for p in done.created) == ["Carl New", "Dora New"]
    entries = set(Entry.objects.filter(tournament=tournament).values_list("player__name", flat=True))
    assert entries == {"Bob Marsh", "Ann Lee", "Carl New", "Dora New"}
    assert PlayerLog.objects.filter(player__name="Carl New", kind=PlayerLog.Kind.CREATED, actor=director).exists()


def test_a_csv_with_its_header_and_a_spreadsheets_tab_lines_are_read_too(director):
    tournament = _registration(director)
    report = services.entries_import(acting_user=director, tournament=tournament, dry_run=True,
                                     text="rating,name,club\n1500,Fay Tab,Leeds\n")
    assert [(p.name, p.club, p.rating) for p in report.created] == [("Fay Tab", "Leeds", 1500)]
    report = services.entries_import(acting_user=director, tournament=tournament, dry_run=True,
                                     text="Gus Tab\tHull, the club\tENG\t5\t1400\n")
    assert [(p.name, p.club, p.federation_id) for p in report.created] == [("Gus Tab", "Hull, the club", "5")]


def test_an_import_with_a_refused_entry_writes_nothing(director):
    tournament = running_tournament(director, make_players(2), format="round_robin")
    with pytest.raises(services.WrongTournamentStatus):
        services.entries_import(acting_user=director, tournament=tournament, text="New One\n", dry_run=True)
    assert not Player.objects.filter(name="New One").exists()


def test_the_entries_import_api_previews_then_imports_and_refuses_bad_input(director, make_user, client_as):
    tournament = _registration(director)
    url = f"/api/v1/tournaments/{tournament.slug}/entries/import/"
    api = client_as(director)
    preview = api.post(url, {"csv": "Hana One, Leeds\nIvo Two\n"}, format="json")
    assert preview.status_code == 200, preview.content
    assert preview.json()["dry_run"] is True and [p["name"] for p in preview.json()["created"]] == ["Hana One",
                                                                                                    "Ivo Two"]
    assert not Player.objects.filter(name="Hana One").exists()
    done = api.post(url, {"csv": "Hana One, Leeds\nIvo Two\n", "dry_run": False}, format="json")
    assert done.status_code == 200 and all(p["id"] for p in done.json()["created"])
    assert Entry.objects.filter(tournament=tournament, player__name="Ivo Two").exists()
    for body in ({}, {"csv": ""}, {"csv": "   \n"}, {"csv": ["x"]}, {"csv": "a\x00b"}, {"csv": "x", "dry_run": "maybe"},
                 {"csv": "x" * 200_001}):
        bad = api.post(url, body, format="json")
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "validation_error", (str(body)[:40], bad.content)
    nothing = api.post(url, {"csv": ",no name\n", "dry_run": False}, format="json")
    assert nothing.status_code == 400 and "No player to enter" in str(nothing.json()["error"]["details"])
    stranger = make_user("other-td", "director")
    assert client_as(stranger).post(url, {"csv": "Jo Three\n"}, format="json").status_code == 403


# --- the manage page ------------------------------------------------------------------------------


def test_the_manage_page_leads_with_the_next_step(director):
    client = Client()
    client.force_login(director)
    tournament = _registration(director)
    page = client.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    assert 'data-step="entries"' in page and "Enter at least 2 players" in page
    for player in make_players(4):
        services.entry_add(acting_user=director, tournament=tournament, player=player)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="running")
    page = client.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    assert 'data-step="check-in"' in page and "Check in the players for round 1, then pair it." in page
    services.round_pair(acting_user=director, tournament=tournament)
    page = client.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    assert 'data-step="preview"' in page and "publish it" in page
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    page = client.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    assert 'data-step="results"' in page and "4 games still to play" in page and 'data-testid="results-grid"' in page
    round_ = Round.objects.get(tournament=tournament, number=1)
    finish_games(director, tournament, round_)
    page = client.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    assert 'data-step="check-in"' in page and "round 2" in page and 'data-testid="results-grid"' not in page


def test_the_import_page_previews_keeps_the_text_when_refused_and_imports_on_confirm(director):
    client = Client()
    client.force_login(director)
    tournament = _registration(director)
    url = f"/tournaments/{tournament.slug}/manage/import"
    preview = client.post(url, {"csv": "Kim New, Hull\n,no name\n"})
    page = preview.content.decode()
    assert preview.status_code == 200 and "Kim New" in page and "Line 2: the name is missing" in page
    assert not Player.objects.filter(name="Kim New").exists()
    refused = client.post(url, {"csv": ""})
    assert refused.status_code == 400 and 'data-testid="import-error"' in refused.content.decode()
    bad_file = client.post(url, {"file": _upload(b"\xff\xfe\x00bad")})
    assert bad_file.status_code == 400 and "not UTF-8" in bad_file.content.decode()
    from_file = client.post(url, {"file": _upload(b"name,club\nLea File,York\n")})
    assert from_file.status_code == 200 and "Lea File" in from_file.content.decode()
    done = client.post(url, {"csv": "Kim New, Hull\n,no name\n", "confirm": "yes"})
    assert done.status_code == 302 and done["Location"].endswith("/manage/#entries")
    assert Entry.objects.filter(tournament=tournament, player__name="Kim New").exists()


def _upload(content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("players.csv", content, content_type="text/csv")
