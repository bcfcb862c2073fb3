"""PDN tag injection through a name: names take no control characters at any input, and the PDN
writer writes none, so a hostile name already stored reads back as one tag of the export."""

from __future__ import annotations

import pytest
from django.test import Client

from games.rules.pdn import PDNGame, read_games, write_game
from players.models import Player
from tests.arbitration.conftest import Desk, new_game, players  # noqa: F401  (fixtures)
from tournaments.csv_import import players_import

pytestmark = pytest.mark.django_db

HOSTILE = 'Mallory\n[Result "1-0"]'


def assert_refused_naming(response, field: str, character: str = "U+000A") -> None:
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    message = " ".join(error["details"]["fields"][field])
    assert "control character" in message and character in message, message


def test_the_api_refuses_a_player_name_with_a_line_break(client_as, director):
    client = client_as(director)
    assert_refused_naming(client.post("/api/v1/players/", {"name": HOSTILE}, format="json"), "name")
    assert_refused_naming(client.post("/api/v1/players/", {"name": "Tab\tby", "club": "A\x1b[2Jclub"},
                                      format="json"), "name", "U+0009")
    assert not Player.objects.exists()
    created = client.post("/api/v1/players/", {"name": "Mallory Honest"}, format="json")
    assert created.status_code == 201
    from tournaments.services import entry_add, tournament_create

    tournament = tournament_create(acting_user=director, name="Injection Open")
    entry_add(acting_user=director, tournament=tournament, player=Player.objects.get())
    player_id = created.json()["id"]
    assert_refused_naming(client.patch(f"/api/v1/players/{player_id}/", {"name": HOSTILE}, format="json"), "name")
    assert_refused_naming(client.patch(f"/api/v1/players/{player_id}/", {"club": "Line\u2028separated"},
                                       format="json"), "club", "U+2028")
    assert Player.objects.get().name == "Mallory Honest" and Player.objects.get().club == ""


def test_the_api_refuses_a_tournament_name_or_venue_with_a_control_character(client_as, director):
    client = client_as(director)
    response = client.post("/api/v1/tournaments/", {"name": 'Open\n[Site "x"]'}, format="json")
    assert_refused_naming(response, "name")
    response = client.post("/api/v1/tournaments/", {"name": "Open", "venue": "Hall\r\n[Date \"x\"]"}, format="json")
    assert_refused_naming(response, "venue", "U+000D, U+000A")


def test_the_manage_page_refuses_a_new_player_named_with_a_line_break(director):
    from tournaments.services import tournament_create

    tournament = tournament_create(acting_user=director, name="Form Open")
    client = Client()
    client.force_login(director)
    response = client.post(f"/tournaments/{tournament.slug}/manage/players", {"name": HOSTILE}, follow=True)
    page = response.content.decode()
    assert "control character" in page and "U+000A" in page
    assert not Player.objects.exists()


def test_the_csv_import_refuses_a_row_whose_name_holds_a_line_break():
    text = 'name,club\n"Mallory\n[Result ""1-0""]",Nowhere\nHonest Abe,Somewhere\n'
    report = players_import(text)
    assert [player.name for player in report.created] == ["Honest Abe"]
    (refused,) = report.refused
    assert refused.line == 3 and refused.reason == "the name holds a control character (U+000A)"


def test_the_pdn_writer_escapes_a_hostile_tag_value_and_the_reader_reads_it_back_as_one_tag():
    hostile = 'Mallory\n[Result "1-0"]\r\n[White \\"x\\"]\x00\x1b\u2028end'
    game = PDNGame(tags={"Event": 'The "Quoted" C:\\Cup', "Black": hostile, "White": "Wendy", "Result": "0-1"},
                   result="0-1")
    text = write_game(game)
    assert text.count("\n") == 5 and all(line.startswith("[") for line in text.splitlines()[:4])
    assert not any(ord(c) < 32 and c != "\n" or 0x7F <= ord(c) <= 0x9F or c in "\u2028\u2029" for c in text)
    assert '[Event "The \\"Quoted\\" C:\\\\Cup"]' in text  # PDN's escapes: \" and \\
    (again,) = read_games(text)
    assert again.tags == {"Event": 'The "Quoted" C:\\Cup', "Black": 'Mallory [Result "1-0"]  [White \\"x\\"]   end',
                          "White": "Wendy", "Result": "0-1"}
    assert again.result == "0-1"


def test_a_game_of_a_player_stored_with_a_hostile_name_exports_pdn_the_reader_accepts(client_as, referee, new_game):  # noqa: F811
    game = new_game()
    Player.objects.filter(pk=game.black_id).update(name=HOSTILE)  # stored before names were checked
    desk = Desk("api", referee, client_as(referee))
    desk.play(game.pk, "11-15")
    desk.rule(game.pk, "resign", "black")
    text = client_as(referee).get(f"/api/v1/games/{game.pk}/pdn").content.decode()
    (read,) = read_games(text)
    assert read.tags["Black"] == 'Mallory [Result "1-0"]'
    assert read.tags["Result"] == read.result == "0-1"
    assert [move.text for move in read.moves] == ["11-15"]
