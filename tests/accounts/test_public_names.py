"""Usernames are not shown to the public: anonymous answers name no one; signed-in ones as before."""

from __future__ import annotations

import json

import pytest
from django.db import transaction

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


# --- issue 22, item 5: the names in the logs' before/after, removals, notes and the PDN ---------------

HIDDEN = ("zed_ref_one", "zed_ref_two", "zed_arb_one", "zed_arb_two")


@pytest.fixture
def staffed_tournament(make_user):
    """A running tournament whose arbiters were renamed and whose referee was taken off its games, and one game
    entry written the way entries were before notes stopped naming people."""
    from arbitration.lifecycle import save_game
    from arbitration.log import log_append
    from arbitration.persistence import game_lock
    from games.models import Game
    from tournaments import services

    director = make_user("zed_dir", "director")
    for name in HIDDEN:
        make_user(name, "referee")
    tournament = services.tournament_create(acting_user=director, name="Hidden", slug="hidden",
                                            referees=["zed_ref_one"], arbiters=["zed_arb_one"],
                                            opening="go-as-you-please")
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    for i in range(1, 5):
        player = services.player_create(acting_user=director, name=f"Hidden Player {i}")
        services.entry_add(acting_user=director, tournament=tournament, player=player)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="running")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    services.tournament_arbiters_set(acting_user=director, tournament=tournament, arbiters=["zed_arb_two"])
    services.tournament_referees_set(acting_user=director, tournament=tournament, referees=["zed_ref_two"])
    game = Game.objects.filter(round=round_).order_by("id").first()
    with transaction.atomic():
        locked = game_lock(game.pk)
        log_append(game=locked, kind="referees_changed", actor=director,
                   note="zed_ref_one is no longer a referee of the tournament.",
                   data={"before": ["zed_ref_one"], "after": []})
        save_game(locked)
    return tournament, game, director


def _leaks(text: str) -> set[str]:
    return {name for name in HIDDEN + ("zed_dir",) if name in text}


def test_no_username_reaches_the_public_in_the_tournament_log(staffed_tournament, api_client):
    tournament, _game, _director = staffed_tournament
    response = api_client.get(f"/api/v1/tournaments/{tournament.slug}/log/")
    assert response.status_code == 200
    kinds = {row["kind"]: row for row in response.json()}
    assert {"arbiters_named", "referee_removed", "referees_assigned"} <= set(kinds)
    assert _leaks(response.content.decode()) == set()
    assert kinds["arbiters_named"]["data"] == {"before": ["arbiter"], "after": ["arbiter"]}
    assert kinds["referee_removed"]["data"]["referee"] == "referee"


def test_no_username_reaches_the_public_in_a_games_log_or_its_notes(staffed_tournament, api_client):
    _tournament, game, _director = staffed_tournament
    response = api_client.get(f"/api/v1/games/{game.pk}/log/")
    assert _leaks(response.content.decode()) == set()
    changes = [entry for entry in response.json() if entry["kind"] == "referees_changed"]
    assert len(changes) == 2 and all(entry["data"]["before"] == ["referee"] for entry in changes)
    assert changes[0]["note"] == "A referee of this game is no longer a referee of the tournament."
    assert changes[1]["note"] == "referee is no longer a referee of the tournament."  # the old entry, scrubbed
    assert api_client.get(f"/api/v1/games/{game.pk}/log/verify").json()["valid"] is True


def test_no_username_reaches_the_pdn_exports(staffed_tournament, api_client):
    tournament, game, _director = staffed_tournament
    game_pdn = api_client.get(f"/api/v1/games/{game.pk}/pdn").content.decode()
    assert "referees changed" in game_pdn and _leaks(game_pdn) == set()
    assert _leaks(api_client.get(f"/api/v1/tournaments/{tournament.slug}/pdn").content.decode()) == set()


def test_the_record_keeps_the_names_and_ids_for_signed_in_readers(staffed_tournament, client_as, make_user):
    tournament, game, _director = staffed_tournament
    api = client_as(make_user("reader", "player"))
    rows = {row["kind"]: row for row in api.get(f"/api/v1/tournaments/{tournament.slug}/log/").json()}
    assert rows["arbiters_named"]["data"] == {"before": ["zed_arb_one"], "after": ["zed_arb_two"]}
    removed = rows["referee_removed"]["data"]
    assert removed["referee"] == "zed_ref_one" and isinstance(removed["referee_id"], int)
    log = api.get(f"/api/v1/games/{game.pk}/log/").json()
    assert [e["data"]["before"] for e in log if e["kind"] == "referees_changed"] == [["zed_ref_one"]] * 2
