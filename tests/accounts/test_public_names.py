"""Usernames are not shown to the public: anonymous answers name no one; signed-in ones as before."""

from __future__ import annotations

import json

import pytest

from arbitration.models import LogEntry
from tests.arbitration.conftest import new_game, players  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db

USERNAMES = ("dir", "ref", "arb", "pla")


def _named(payload) -> set[str]:
    """The usernames that appear as whole JSON strings in the payload."""
    text = json.dumps(payload)
    return {name for name in USERNAMES if f'"{name}"' in text}


@pytest.fixture
def appealed_game(new_game, referee, make_user, client_as):  # noqa: F811
    """A game with a move by ``ref``, a false-move ruling and an appeal (to ``dir``, the game's creator)."""
    game = new_game()
    client = client_as(referee)
    assert client.post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"}, format="json").status_code == 201
    assert client.post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "false_move", "side": "white", "move": "22-17"},
                       format="json").status_code == 201
    ruling = LogEntry.objects.get(game=game, kind="false_move")
    response = client.post(f"/api/v1/games/{game.pk}/rulings/", {
        "kind": "appeal", "side": "white", "entry": ruling.seq, "statement": "I did not"},
        format="json")
    assert response.status_code == 201, response.content
    client.force_authenticate(user=None)
    return game


def test_the_game_state_names_no_one_to_the_public(appealed_game, api_client):
    state = api_client.get(f"/api/v1/games/{appealed_game.pk}/").json()
    assert _named(state) == set()
    assert state["referees"] == ["referee"]
    assert state["moves"][0]["recorded_by"] == "official"
    assert state["appeals"][0]["arbiter"] == "official"


def test_the_game_log_names_no_one_to_the_public_and_still_verifies(appealed_game, api_client):
    log = api_client.get(f"/api/v1/games/{appealed_game.pk}/log/").json()
    assert _named(log) == set()
    assert {entry["actor"] for entry in log} <= {"official", None}
    creation = log[0]
    assert creation["data"]["referees"] == ["referee"]
    appeal = next(entry for entry in log if entry["kind"] == "appeal")
    assert appeal["data"]["arbiters"] == ["arbiter"] and appeal["data"]["statement"] == "I did not"
    assert api_client.get(f"/api/v1/games/{appealed_game.pk}/log/verify").json()["valid"] is True


def test_the_game_list_and_the_game_page_name_no_one_to_the_public(appealed_game, api_client, client):
    listed = api_client.get("/api/v1/games/").json()
    assert _named(listed) == set() and listed["results"][0]["referees"] == ["referee"]
    page = client.get(f"/games/{appealed_game.pk}")
    assert page.status_code == 200
    assert _named(page.context["initial_state"]) == set()


def test_signed_in_users_still_see_usernames(appealed_game, player_user, client_as, client):
    api = client_as(player_user)
    state = api.get(f"/api/v1/games/{appealed_game.pk}/").json()
    assert state["referees"] == ["ref"] and state["moves"][0]["recorded_by"] == "ref"
    assert state["appeals"][0]["arbiter"] == "dir"
    log = api.get(f"/api/v1/games/{appealed_game.pk}/log/").json()
    assert log[0]["actor"] == "dir" and log[0]["data"]["referees"] == ["ref"]
    assert api.get("/api/v1/games/").json()["results"][0]["referees"] == ["ref"]
    client.force_login(player_user)
    assert client.get(f"/games/{appealed_game.pk}").context["initial_state"]["referees"] == ["ref"]


def test_tournaments_name_no_one_to_the_public(director, referee, player_user, client_as, api_client):
    api = client_as(director)
    assert api.post("/api/v1/tournaments/", {
        "name": "Open", "slug": "open", "format": "round_robin", "games_per_match": 2, "opening": "three-move-ballot",
        "rule_set": "standard", "referees": ["ref"]}, format="json").status_code == 201
    assert api.post("/api/v1/tournaments/open/referees/", {"referees": ["ref"]}, format="json").status_code == 200
    api.force_authenticate(user=None)
    detail = api_client.get("/api/v1/tournaments/open/").json()
    assert detail["directors"] == ["director"] and detail["referees"] == ["referee"]
    assert _named(api_client.get("/api/v1/tournaments/").json()) == set()
    log = api_client.get("/api/v1/tournaments/open/log/").json()
    assert log and _named(log) == set() and {row["actor"] for row in log} <= {"official", None}
    assert any(row["data"].get("referees") == ["referee"] for row in log)
    signed_in = client_as(player_user)
    assert signed_in.get("/api/v1/tournaments/open/").json()["directors"] == ["dir"]
    assert signed_in.get("/api/v1/tournaments/open/log/").json()[0]["actor"] == "dir"
