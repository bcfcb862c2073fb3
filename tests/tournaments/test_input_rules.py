"""Tournament inputs that were accepted and went wrong later (issue 15, item 4, and the ratings of item 1)."""

from __future__ import annotations

import csv
import io

import pytest

from players.models import Player
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

BASE = "/api/v1/tournaments/"
BODY = {"name": "Spring Open", "slug": "spring", "format": "round_robin", "games_per_match": 2,
        "opening": "go-as-you-please", "rule_set": "standard"}


@pytest.fixture
def api(client_as, director):
    return client_as(director)


def _fields(response) -> dict:
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    return error["details"]["fields"]


@pytest.mark.smoke
def test_a_tiebreak_given_twice_is_refused_on_creation(api):
    fields = _fields(api.post(BASE, {**BODY, "tiebreaks": ["wins", "wins"]}, format="json"))
    assert "more than once" in " ".join(fields["tiebreaks"])
    assert not Tournament.objects.exists()


def test_a_tiebreak_given_twice_is_refused_on_change(api):
    assert api.post(BASE, {**BODY, "tiebreaks": ["wins"]}, format="json").status_code == 201
    fields = _fields(api.patch(f"{BASE}spring/", {"tiebreaks": ["sonneborn_berger", "wins", "sonneborn_berger"]},
                               format="json"))
    assert "sonneborn_berger given more than once" in " ".join(fields["tiebreaks"])
    assert Tournament.objects.get(slug="spring").tiebreaks == ["wins"]


def test_the_service_refuses_a_repeated_tiebreak_too(director):
    from core.api import AppError
    from tournaments.services import tournament_create

    with pytest.raises(AppError) as refused:
        tournament_create(acting_user=director, name="T", slug="t", format="round_robin",
                          tiebreaks=["game_points", "game_points"])
    assert "tiebreaks" in refused.value.details["fields"]


def _play(api, slug: str, players: list[Player]) -> None:
    assert api.post(f"{BASE}{slug}/status/", {"status": "registration"}, format="json").status_code == 200
    for player in players:
        assert api.post(f"{BASE}{slug}/entries/", {"player": player.pk}, format="json").status_code == 201
    assert api.post(f"{BASE}{slug}/status/", {"status": "running"}, format="json").status_code == 200
    assert api.post(f"{BASE}{slug}/rounds/", format="json").status_code == 201
    detail = api.post(f"{BASE}{slug}/rounds/1/publish", format="json").json()
    for match in detail["matches"]:
        for game in match["games"]:
            response = api.post(f"{BASE}{slug}/results/", {"game": game["id"], "result": "1-0", "reason": "sheet"},
                                format="json")
            assert response.status_code == 200, response.content


@pytest.mark.smoke
def test_the_standings_csv_has_each_column_once_even_with_the_wins_and_game_points_tiebreaks(api):
    players = [Player.objects.create(name=f"P{i}") for i in range(2)]
    body = {**BODY, "tiebreaks": ["wins", "game_points", "sonneborn_berger"]}
    assert api.post(BASE, body, format="json").status_code == 201
    _play(api, "spring", players)
    header, *rows = list(csv.reader(io.StringIO(api.get(f"{BASE}spring/standings.csv").content.decode())))
    assert len(header) == len(set(header)), header
    assert header == ["rank", "player_id", "player", "club", "points", "tiebreak_wins", "tiebreak_game_points",
                      "tiebreak_sonneborn_berger", "game_points", "wins", "played"]
    assert len(rows) == 2 and all(len(row) == len(header) for row in rows)


@pytest.mark.smoke
def test_the_same_player_registered_twice_in_a_row_is_refused_as_the_import_refuses_him(api):
    first = api.post("/api/v1/players/", {"name": "Agnes Calder", "club": "Edinburgh DC"}, format="json")
    assert first.status_code == 201
    for name in ("Agnes Calder", "  agnes   CALDER "):
        fields = _fields(api.post("/api/v1/players/", {"name": name, "club": "edinburgh dc"}, format="json"))
        assert "already registered" in fields["name"][0] and str(first.json()["id"]) in fields["name"][0]
    assert Player.objects.count() == 1
    report = api.post("/api/v1/players/import/", {"csv": "name,club\nAgnes Calder,Edinburgh DC\n"},
                      format="json").json()
    assert report["created"] == [] and "already registered" in report["refused"][0]["reason"]


def test_namesakes_with_another_club_or_a_federation_id_are_registered(api):
    assert api.post("/api/v1/players/", {"name": "John Smith", "club": "Leeds"}, format="json").status_code == 201
    assert api.post("/api/v1/players/", {"name": "John Smith", "club": "York"}, format="json").status_code == 201
    assert api.post("/api/v1/players/", {"name": "John Smith", "club": "Leeds", "federation": "EDA",
                                         "federation_id": "1234"}, format="json").status_code == 201
    again = api.post("/api/v1/players/", {"name": "John Smith", "club": "Leeds", "federation": "EDA",
                                          "federation_id": "1234"}, format="json")
    assert _fields(again)  # the federation id is registered: refused (by the model's unique constraint)
    assert Player.objects.filter(name="John Smith").count() == 3


def test_a_rated_tournament_with_ratings_stored_far_out_of_range_can_be_finished(api):
    # rows written before ratings were bounded (POST /players/ took 2**63 - 1 and -2**63)
    strong = Player.objects.create(name="Strong", rating=2**31 - 1, rating_deviation=1e300, rating_volatility=50.0)
    weak = Player.objects.create(name="Weak", rating=-(2**31), rating_deviation=0.0, rating_volatility=0.0)
    assert api.post(BASE, {**BODY, "rated": True}, format="json").status_code == 201
    _play(api, "spring", [strong, weak])
    response = api.post(f"{BASE}spring/status/", {"status": "finished"}, format="json")
    assert response.status_code == 200, response.content
    strong.refresh_from_db()
    weak.refresh_from_db()
    assert 0 <= weak.rating <= 4000 and 0 <= strong.rating <= 4000


def test_glicko2_brings_any_stored_rating_into_range_before_the_update():
    from tournaments.ratings import GameScore, Glicko, glicko2_update

    after = glicko2_update({1: Glicko(2**63 - 1, 350.0, 0.06), 2: Glicko(-(2**63), 0.0, 0.0)},
                           [GameScore(1, 2, 1), GameScore(2, 1, 0.5)])
    assert all(0 <= g.rating <= 4000 and g.rd > 0 for g in after.values())
