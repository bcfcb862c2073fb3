"""Any JSON value in any field of any write of the API is answered 2xx or 4xx in the error shape, never 5xx.

A sweep rather than a fuzzer (schemathesis runs elsewhere): every write endpoint, every field it
reads, each of a dozen hostile values (wrong types, numbers no column holds, huge text, control
characters), the rest of the body valid, as a director who may do it.
"""

from __future__ import annotations

import pytest

from tests.support.shared_rows import fresh, module_fixture

pytestmark = [pytest.mark.django_db]

HOSTILE = [None, True, [], {}, {"a": [1]}, [[[]]], 2**63, -(2**63), 10**400, 1.5, 1e308, -0.0, "", "x" * 3000,
           "\x00", "<script>", "1-2" + " " * 5000 + "a"]


def _world() -> dict:
    """A standalone game, a running Swiss with a preview, and a club with P0 a member, made through the API by
    its director "dir" (the module's shared rows: tests/support/shared_rows.py)."""
    from rest_framework.test import APIClient

    from accounts.services import user_create_with_role
    from players.models import Player

    director = user_create_with_role(username="dir", password="a-long-test-password", role="director")
    user_create_with_role(username="ref", password="a-long-test-password", role="referee")
    user_create_with_role(username="arb", password="a-long-test-password", role="director")
    api = APIClient()
    api.force_authenticate(user=director)
    players = [Player.objects.create(name=f"P{i}", rating=1500 + i) for i in range(4)]
    game = api.post("/api/v1/games/", {"black": players[0].pk, "white": players[1].pk, "referees": ["ref"]},
                    format="json").json()["id"]
    body = {"name": "Spring Open", "slug": "spring", "format": "swiss", "rounds": 3, "games_per_match": 2,
            "opening": "go-as-you-please", "rule_set": "standard"}
    assert api.post("/api/v1/tournaments/", body, format="json").status_code == 201
    assert api.post("/api/v1/tournaments/spring/status/", {"status": "registration"}, format="json").status_code == 200
    for player in players:
        api.post("/api/v1/tournaments/spring/entries/", {"player": player.pk}, format="json")
    assert api.post("/api/v1/tournaments/spring/status/", {"status": "running"}, format="json").status_code == 200
    assert api.post("/api/v1/tournaments/spring/rounds/", format="json").status_code == 201
    club = api.post("/api/v1/clubs/", {"name": "Home"}, format="json").json()["id"]
    assert api.post(f"/api/v1/clubs/{club}/players/", {"player": players[0].pk}, format="json").status_code == 201
    return {"director": director, "game": game, "players": players}


world_rows = module_fixture(_world)


@pytest.fixture
def director(world_rows):
    """The world's director (the conftest's would be a second "dir")."""
    return fresh(world_rows["director"])


@pytest.fixture
def world(world_rows, client_as, director):
    """The director's API client, the standalone game's id and the 4 players."""
    return client_as(director), world_rows["game"], fresh(world_rows["players"])


def _writes(game: int, players) -> list[tuple[str, str, dict]]:
    p0, p1 = players[0].pk, players[1].pk
    writes = [
        ("post", "/api/v1/players/", {"name": "New One", "club": "C", "federation": "F", "federation_id": "9",
                                      "rating": 1500}),
        ("patch", f"/api/v1/players/{p0}/", {"name": "P0", "club": "C", "rating": 1500, "user": None}),
        ("post", "/api/v1/players/import/", {"csv": "name\nX\n", "dry_run": True}),
        ("post", f"/api/v1/players/{p1}/claim/", {"statement": "s"}),
        ("post", "/api/v1/player-claims/1/decision", {"decision": "refuse", "reason": "r"}),
        ("post", f"/api/v1/players/{p0}/unlink/", {"reason": "r"}),
        ("post", "/api/v1/me/tokens/", {"name": "t", "days": 3}),
        ("post", "/api/v1/games/", {"black": p0, "white": p1, "rule_set": "standard", "referees": ["ref"],
                                    "start_fen": "", "progress_rule": "none", "repetition_threshold": 3,
                                    "clock": {"control": "per-move", "move_seconds": 60}}),
        ("post", f"/api/v1/games/{game}/moves/", {"move": "11-15", "ply": 1, "note": "n"}),
        ("post", f"/api/v1/games/{game}/referees/", {"referees": ["ref"], "reason": "r"}),
        ("post", "/api/v1/tournaments/", {"name": "T2", "slug": "t2", "format": "swiss", "rounds": 2,
                                          "games_per_match": 2, "opening": "go-as-you-please",
                                          "rule_set": "standard", "progress_rule": "none", "referees": [],
                                          "venue": "v", "start_date": "2026-01-01", "end_date": "2026-01-02",
                                          "clock": None, "tiebreaks": ["wins"], "rated": False,
                                          "scoring": {"win": 2, "draw": 1, "loss": 0},
                                          "knockout_extra_blocks": None, "arbiters": [],
                                          "appeal_window_minutes": None}),
        ("patch", "/api/v1/tournaments/spring/", {"name": "S", "venue": "v", "start_date": None, "clock": None,
                                                  "appeal_window_minutes": 5, "reason": "r"}),
        ("post", "/api/v1/tournaments/spring/status/", {"status": "finished", "reason": "r"}),
        ("post", "/api/v1/tournaments/spring/entries/", {"player": p0}),
        ("delete", f"/api/v1/tournaments/spring/entries/{p0}/", {"reason": "r"}),
        ("post", "/api/v1/tournaments/spring/referees/", {"referees": ["ref"]}),
        ("post", "/api/v1/tournaments/spring/arbiters/", {"arbiters": ["arb"]}),
        ("put", "/api/v1/tournaments/spring/rounds/1/pairings/", {"pairings": [[p0, p1]], "reason": "r"}),
        ("post", "/api/v1/tournaments/spring/rounds/1/forfeits/", {"board": 1, "winner": p0, "reason": "r"}),
        ("put", "/api/v1/tournaments/spring/rounds/1/schedule", {"scheduled_at": "2030-05-02T10:00:00Z"}),
        ("post", "/api/v1/tournaments/spring/results/", {"game": game, "result": "1-0", "reason": "r"}),
        *_club_writes(p0, p1),
        ("post", "/api/v1/tournaments/spring/results/", {"game": game, "result": "1-0", "reason": "r", "forfeit": True}),
        ("post", "/api/v1/tournaments/spring/results/undo/", {"game": game, "reason": "r"}),
        ("post", "/api/v1/tournaments/spring/entries/import/", {"csv": "New One, Leeds", "dry_run": True}),
    ]
    from arbitration.rulings.requests import FIELDS

    for kind, fields in FIELDS.items():
        body = {"kind": str(kind), "side": "black", "note": "n", **{name: 1 for name in fields}}
        writes.append(("post", f"/api/v1/games/{game}/rulings/", body))
    return writes


def _club_writes(p0: int, p1: int) -> list[tuple[str, str, dict]]:
    from clubs.models import Club

    club = Club.objects.get(name="Home").pk
    return [
        ("post", "/api/v1/clubs/", {"name": "Away", "short_name": "A", "contact": "c", "secretary": "ref"}),
        ("patch", f"/api/v1/clubs/{club}/", {"name": "Home", "short_name": "H", "contact": "c", "secretary": None}),
        ("post", f"/api/v1/clubs/{club}/players/", {"player": p1}),
        ("patch", f"/api/v1/clubs/{club}/players/{p0}/", {"name": "P0", "federation": "F", "federation_id": "1"}),
        ("delete", f"/api/v1/clubs/{club}/players/{p0}/", {"reason": "r"}),
        ("post", "/api/v1/rating-lists/import", {"federation": "ACF", "csv": "id,name,rating\n1,P0,1500\n",
                                                 "dry_run": True, "create_missing": True}),
    ]


def test_every_field_of_every_write_answers_hostile_values_without_a_server_error(world):
    api, game, players = world
    api.raise_request_exception = False  # a server error is answered 500, as in production, and listed
    failures = []
    for method, path, body in _writes(game, players):
        for field in body:
            for value in HOSTILE:
                response = getattr(api, method)(path, {**body, field: value}, format="json")
                if response.status_code >= 500 or (response.status_code >= 400 and (
                        not response["Content-Type"].startswith("application/json")
                        or set(response.json()) != {"error"})):
                    failures.append((method, path, field, repr(value)[:40], response.status_code))
    assert not failures, failures


@pytest.mark.parametrize("body", HOSTILE + [["a"], "a string", 12])
def test_a_body_that_is_not_an_object_is_a_4xx(world, body):
    api, game, _ = world
    for path in ("/api/v1/players/", "/api/v1/games/", f"/api/v1/games/{game}/moves/",
                 f"/api/v1/games/{game}/rulings/", "/api/v1/tournaments/", "/api/v1/tournaments/spring/results/"):
        response = api.post(path, body, format="json")
        assert 400 <= response.status_code < 500, (path, body, response.status_code)


@pytest.mark.parametrize("query", [
    "club=%00", "federation=%00", "club=" + "x" * 3000, "status=%00", "status=nope", f"round={2**63}",
    "round=abc", "round=-1", "round=1e400", f"page={2**63}", "page=%00", f"page_size={2**63}", "page_size=-1",
])
def test_a_list_with_a_hostile_query_is_answered_without_a_server_error(world, query):
    api, _, _ = world
    api.raise_request_exception = False
    for path in ("/api/v1/players/", "/api/v1/games/", "/api/v1/tournaments/"):
        response = api.get(f"{path}?{query}")
        assert response.status_code < 500, (path, query, response.status_code)


@pytest.mark.parametrize("slug", ["%00", "a%00b", "x" * 3000, "%C3%A9t%C3%A9", "..", "%2e%2e"])
def test_a_tournament_slug_no_tournament_can_have_is_a_404(world, slug):
    api, _, _ = world
    api.raise_request_exception = False
    for path in (f"/api/v1/tournaments/{slug}/", f"/api/v1/tournaments/{slug}/standings/",
                 f"/api/v1/tournaments/{slug}/rounds/1/", f"/tournaments/{slug}/"):
        response = api.get(path)
        assert response.status_code == 404, (path, response.status_code)


PAGE_HOSTILE = ["\x00", "a\x00b", str(2**63), str(10**30), "-1", "abc", "x" * 20_000, "#top\r\nSet-Cookie: x=1"]


def test_the_management_pages_answer_hostile_forms_without_a_server_error(world, director, client):
    _, game, players = world
    client.force_login(director)
    client.raise_request_exception = False
    forms = {
        "status": {"status": "finished", "reason": "r"},
        "referees": {"referees": "ref"},
        "game-referees": {"game": str(game), "referees": "ref"},
        "arbiters": {"arbiters": "arb", "appeal_window_minutes": "5"},
        "clock": {"clock": "per-move", "clock_move_seconds": "60", "reason": "r"},
        "entries": {"player": str(players[0].pk)},
        "players": {"name": "New", "club": "C", "federation": "F", "federation_id": "1", "rating": "1500"},
        "withdraw": {"player": str(players[0].pk), "reason": "r"},
        "rounds/1/pairings": {"boards": "2", "one_1": str(players[0].pk), "two_1": str(players[1].pk),
                              "reason": "r"},
        "rounds/1/forfeit": {"board": "1", "winner": str(players[0].pk), "reason": "r"},
        "rounds/1/schedule": {"scheduled_at": "2030-05-02T10:00"},
        "results": {"game": str(game), "result": "1-0", "reason": "r"},
        "import": {"csv": "New One, Leeds", "confirm": "no"},
    }
    failures = []
    for action, form in forms.items():
        for field in [*form, "anchor"]:
            for value in PAGE_HOSTILE:
                response = client.post(f"/tournaments/spring/manage/{action}", {**form, field: value})
                if response.status_code >= 500 or "\n" in response.get("Location", ""):
                    failures.append((action, field, value[:20], response.status_code))
    assert not failures, failures


def test_a_board_count_past_any_round_is_refused_without_looping(world, director, client):
    client.force_login(director)
    response = client.post("/tournaments/spring/manage/rounds/1/pairings", {"boards": str(10**9), "reason": "r"},
                           follow=True)
    assert response.status_code == 200
    assert "from 0 to 1000" in response.content.decode()


def test_the_tokens_page_answers_a_hostile_form_without_a_server_error(director, client):
    client.force_login(director)
    client.raise_request_exception = False
    for data in ({"name": "a\x00b"}, {"name": "t", "days": str(10**30)}, {"revoke": str(2**63)},
                 {"revoke": "\x00"}, {"name": "x" * 20_000}):
        assert client.post("/accounts/tokens/", data).status_code < 500, data
