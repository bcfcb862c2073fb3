"""The tournaments API: the fixed endpoints, permissions and the project's error shape."""

from __future__ import annotations

import pytest

from games.models import Game
from players.models import Player
from tournaments.models import Tournament, TournamentLog

pytestmark = pytest.mark.django_db

BASE = "/api/v1/tournaments/"


def _players(n: int) -> list[Player]:
    return [Player.objects.create(name=f"P{i}", club="Club", rating=2000 - 10 * i) for i in range(1, n + 1)]


def _error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    if code:
        assert body["error"]["code"] == code
    return body["error"]


def _client(user=None):
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client


@pytest.fixture
def api(director):
    return _client(director)


def _running(api, players, **extra) -> str:
    body = {"name": "Spring Open", "slug": "spring", "format": "round_robin", "games_per_match": 2,
            "opening": "three-move-ballot", "rule_set": "standard", **extra}
    assert api.post(BASE, body, format="json").status_code == 201
    assert api.post(f"{BASE}spring/status/", {"status": "registration"}, format="json").status_code == 200
    for p in players:
        assert api.post(f"{BASE}spring/entries/", {"player": p.pk}, format="json").status_code == 201
    assert api.post(f"{BASE}spring/status/", {"status": "running"}, format="json").status_code == 200
    return "spring"


def test_create_a_tournament_with_the_fixed_fields(api, director, make_user):
    make_user("ref1", "referee")
    response = api.post(BASE, {"name": "Swiss Open", "slug": "swiss-open", "format": "swiss", "rounds": 5,
                               "games_per_match": 2, "opening": "three-move-ballot", "rule_set": "standard",
                               "referees": ["ref1"]}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["slug"] == "swiss-open" and body["rounds"] == 5 and body["status"] == "draft"
    assert body["directors"] == [director.username] and body["referees"] == ["ref1"]
    assert body["scoring"]["match_points"] == {"win": 2, "draw": 1, "loss": 0}
    assert api.get(f"{BASE}swiss-open/").json()["format"] == "swiss"


def test_create_refuses_3_games_per_match_and_unknown_referees(api):
    error = _error(api.post(BASE, {"name": "X", "slug": "x", "games_per_match": 3}, format="json"), 400,
                   "validation_error")
    assert "games_per_match" in error["details"]["fields"]
    error = _error(api.post(BASE, {"name": "X", "slug": "x", "referees": ["nobody"]}, format="json"), 400,
                   "validation_error")
    assert "referees" in error["details"]["fields"]


def test_only_directors_write(player_user, referee, api):
    _error(_client().post(BASE, {"name": "X", "slug": "x"}, format="json"), 401)
    _error(_client(player_user).post(BASE, {"name": "X", "slug": "x"}, format="json"), 403, "permission_denied")
    api.post(BASE, {"name": "X", "slug": "x"}, format="json")
    client = _client(referee)
    _error(client.post(f"{BASE}x/status/", {"status": "registration"}, format="json"), 403, "permission_denied")
    _error(client.post(f"{BASE}x/rounds/", format="json"), 403)


def test_a_director_who_does_not_direct_this_tournament_is_refused(api, make_user):
    api.post(BASE, {"name": "X", "slug": "x"}, format="json")
    other = _client(make_user("other", "director"))
    _error(other.post(f"{BASE}x/status/", {"status": "registration"}, format="json"), 403, "permission_denied")


def test_status_refuses_skipping_and_going_back_with_409_and_the_next_step(api):
    api.post(BASE, {"name": "X", "slug": "x"}, format="json")
    error = _error(api.post(f"{BASE}x/status/", {"status": "running"}, format="json"), 409,
                   "status_transition_refused")
    assert error["details"]["allowed"] == ["registration"]
    assert api.post(f"{BASE}x/status/", {"status": "registration"}, format="json").json()["status"] == "registration"
    _error(api.post(f"{BASE}x/status/", {"status": "finished"}, format="json"), 409)
    log = api.get(f"{BASE}x/log/").json()
    assert [row["kind"] for row in log] == ["created", "status_changed"]


def test_entries_add_list_withdraw(api):
    players = _players(3)
    api.post(BASE, {"name": "X", "slug": "x"}, format="json")
    assert api.post(f"{BASE}x/entries/", {"player": players[0].pk}, format="json").status_code == 201
    _error(api.post(f"{BASE}x/entries/", {"player": players[0].pk}, format="json"), 409, "entry_conflict")
    _error(api.post(f"{BASE}x/entries/", {"player": 999999}, format="json"), 400, "validation_error")
    api.post(f"{BASE}x/entries/", {"player": players[1].pk}, format="json")
    response = api.delete(f"{BASE}x/entries/{players[1].pk}/", {"reason": "cannot come"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "withdrawn"
    entries = api.get(f"{BASE}x/entries/").json()
    assert [(e["player"]["id"], e["status"]) for e in entries] == [(players[0].pk, "active"),
                                                                    (players[1].pk, "withdrawn")]


def test_rounds_preview_publish_and_show_matches_with_games_lots_and_ballots(api, make_user):
    make_user("ref1", "referee")
    players = _players(4)
    slug = _running(api, players, referees=["ref1"])
    preview = api.post(f"{BASE}{slug}/rounds/", format="json")
    assert preview.status_code == 201, preview.content
    body = preview.json()
    assert body["number"] == 1 and body["status"] == "preview"
    assert all(m["games"] == [] for m in body["matches"])
    _error(api.post(f"{BASE}{slug}/rounds/", format="json"), 409, "round_conflict")
    published = api.post(f"{BASE}{slug}/rounds/1/publish", format="json")
    assert published.status_code == 200, published.content
    _error(api.post(f"{BASE}{slug}/rounds/1/publish", format="json"), 409)
    detail = api.get(f"{BASE}{slug}/rounds/1/").json()
    assert detail["status"] == "published" and len(detail["matches"]) == 2
    for match in detail["matches"]:
        assert match["lots"]["seed"] and match["lots"]["black_first"]["id"] in (match["player_one"]["id"],
                                                                               match["player_two"]["id"])
        assert len(match["ballots"]) == 1 and match["ballots"][0]["seed"]
        games = match["games"]
        assert len(games) == 2
        assert {"id", "black", "white", "start_fen", "result"} <= set(games[0])
        assert games[0]["black"]["id"] == match["lots"]["black_first"]["id"]
        assert games[0]["black"] == games[1]["white"] and games[0]["start_fen"] == games[1]["start_fen"]
        assert games[0]["result"] is None
    game = Game.objects.get(pk=detail["matches"][0]["games"][0]["id"])
    assert list(game.referees.values_list("username", flat=True)) == ["ref1"]
    _error(api.get(f"{BASE}{slug}/rounds/9/"), 404, "round_not_found")


def test_pairings_of_a_preview_can_be_edited_with_a_reason(api):
    players = _players(4)
    slug = _running(api, players)
    api.post(f"{BASE}{slug}/rounds/", format="json")
    ids = [p.pk for p in players]
    _error(api.put(f"{BASE}{slug}/rounds/1/pairings/", {"pairings": [[ids[0], ids[1]], [ids[2], ids[3]]]},
                   format="json"), 400, "validation_error")
    response = api.put(f"{BASE}{slug}/rounds/1/pairings/",
                       {"pairings": [[ids[0], ids[1]], [ids[2], ids[3]]], "reason": "same club first"}, format="json")
    assert response.status_code == 200, response.content
    assert [(m["player_one"]["id"], m["player_two"]["id"]) for m in response.json()["matches"]] == [
        (ids[0], ids[1]), (ids[2], ids[3])]
    assert TournamentLog.objects.filter(kind="pairing_edited", reason="same club first").exists()


def _play_all(api, slug: str, rounds: int, loser=None) -> None:
    for number in range(1, rounds + 1):
        api.post(f"{BASE}{slug}/rounds/", format="json")
        detail = api.post(f"{BASE}{slug}/rounds/{number}/publish", format="json").json()
        for match in detail["matches"]:
            for game in match["games"]:
                # the player with the lower id wins every game
                black_wins = game["black"]["id"] < game["white"]["id"]
                response = api.post(f"{BASE}{slug}/results/", {"game": game["id"], "result": "1-0" if black_wins
                                                               else "0-1", "reason": "score sheet"}, format="json")
                assert response.status_code == 200, response.content


def test_standings_rows_in_order_with_player_points_tiebreaks(api):
    players = _players(4)
    slug = _running(api, players, opening="go-as-you-please")
    _play_all(api, slug, 3)
    rows = api.get(f"{BASE}{slug}/standings/").json()
    assert [r["player"] for r in rows] == [{"id": p.pk, "name": p.name} for p in players]
    assert [r["points"] for r in rows] == [6, 4, 2, 0]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert list(rows[0]["tiebreaks"]) == Tournament.objects.get(slug=slug).tiebreaks
    assert rows[0]["game_points"] == 6 and rows[0]["wins"] == 3
    crosstable = api.get(f"{BASE}{slug}/crosstable/").json()
    assert crosstable["rows"][0]["cells"] == ["x", "2", "2", "2"]
    assert crosstable["rows"][3]["cells"] == ["0", "0", "0", "x"]
    record = api.get(f"{BASE}{slug}/players/{players[0].pk}/").json()
    assert record["standing"]["rank"] == 1 and len(record["matches"]) == 3
    assert {m["outcome"] for m in record["matches"]} == {"win"}
    csv_text = api.get(f"{BASE}{slug}/standings.csv").content.decode()
    assert csv_text.splitlines()[1].startswith(f"1,{players[0].pk},P1,Club,6,")
    pdn = api.get(f"{BASE}{slug}/pdn").content.decode()
    assert pdn.count("[Event ") == 12 and '[Event "Spring Open"]' in pdn
    assert api.get(f"{BASE}{slug}/crosstable.csv").status_code == 200


def test_correction_through_the_api_recomputes_standings(api):
    players = _players(2)
    slug = _running(api, players, opening="go-as-you-please")
    _play_all(api, slug, 1)
    assert api.get(f"{BASE}{slug}/standings/").json()[0]["player"]["id"] == players[0].pk
    detail = api.get(f"{BASE}{slug}/rounds/1/").json()
    for game in detail["matches"][0]["games"]:
        black_won = game["black"]["id"] == players[1].pk
        response = api.post(f"{BASE}{slug}/results/", {"game": game["id"], "result": "1-0" if black_won else "0-1",
                                                       "reason": "arbiter's report"}, format="json")
        assert response.status_code == 200, response.content
    rows = api.get(f"{BASE}{slug}/standings/").json()
    assert rows[0]["player"]["id"] == players[1].pk and rows[0]["points"] == 2
    kinds = [row["kind"] for row in api.get(f"{BASE}{slug}/log/").json()]
    assert kinds.count("result_corrected") == 2
    _error(api.post(f"{BASE}{slug}/results/", {"game": detail["matches"][0]["games"][0]["id"], "result": "1-0"},
                    format="json"), 400, "validation_error")


def test_finishing_via_the_api(api):
    players = _players(2)
    slug = _running(api, players, opening="go-as-you-please", rated=True)
    _play_all(api, slug, 1)
    response = api.post(f"{BASE}{slug}/status/", {"status": "finished"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "finished"
    _error(api.post(f"{BASE}{slug}/status/", {"status": "finished"}, format="json"), 409)
    assert Player.objects.get(pk=players[0].pk).rating > 1990


def test_public_reads_need_no_login(api):
    players = _players(2)
    slug = _running(api, players)
    for path in ("", "entries/", "rounds/", "standings/", "crosstable/", "log/"):
        assert _client().get(f"{BASE}{slug}/{path}").status_code == 200, path


def test_a_forfeit_is_unplayed_and_scored_as_awarded(api):
    players = _players(4)
    slug = _running(api, players, opening="go-as-you-please")
    preview = api.post(f"{BASE}{slug}/rounds/", format="json").json()
    match = preview["matches"][0]
    winner = match["player_two"]["id"]
    _error(api.post(f"{BASE}{slug}/rounds/1/forfeits/", {"board": 1, "winner": winner}, format="json"), 400)
    response = api.post(f"{BASE}{slug}/rounds/1/forfeits/", {"board": 1, "winner": winner, "reason": "absent"},
                        format="json")
    assert response.status_code == 200 and response.json()["matches"][0]["kind"] == "forfeit"
    detail = api.post(f"{BASE}{slug}/rounds/1/publish", format="json").json()
    assert detail["matches"][0]["games"] == [] and detail["matches"][0]["lots"] is None
    rows = {r["player"]["id"]: r for r in api.get(f"{BASE}{slug}/standings/").json()}
    assert rows[winner]["points"] == 2 and rows[winner]["played"] == 0 and rows[winner]["wins"] == 0
    assert rows[match["player_one"]["id"]]["points"] == 0


def test_a_preview_is_shown_only_to_the_tournaments_directors(api, referee, player_user, make_user):
    players = _players(4)
    slug = _running(api, players)
    assert api.post(f"{BASE}{slug}/rounds/", format="json").status_code == 201
    assert [r["status"] for r in api.get(f"{BASE}{slug}/rounds/").json()] == ["preview"]
    assert api.get(f"{BASE}{slug}/rounds/1/").status_code == 200
    assert "round_paired" in [row["kind"] for row in api.get(f"{BASE}{slug}/log/").json()]
    for client in (_client(), _client(referee), _client(player_user), _client(make_user("other", "director"))):
        assert client.get(f"{BASE}{slug}/rounds/").json() == []
        _error(client.get(f"{BASE}{slug}/rounds/1/"), 404, "round_not_found")
        assert "round_paired" not in [row["kind"] for row in client.get(f"{BASE}{slug}/log/").json()]
    assert api.post(f"{BASE}{slug}/rounds/1/publish", format="json").status_code == 200
    assert [r["status"] for r in _client().get(f"{BASE}{slug}/rounds/").json()] == ["published"]
    assert _client().get(f"{BASE}{slug}/rounds/1/").status_code == 200


def test_only_an_administrator_links_a_players_user_account(api, player_user, make_user, django_user_model):
    _error(api.post("/api/v1/players/", {"name": "Ann", "user": player_user.username}, format="json"), 403,
           "permission_denied")
    assert not Player.objects.filter(name="Ann").exists()
    admin = _client(django_user_model.objects.create_superuser("fed", "fed@example.org", "a-long-test-password"))
    response = admin.post("/api/v1/players/", {"name": "Ann", "user": player_user.username}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["user"] == player_user.username
    assert Player.objects.get(name="Ann").user == player_user
    bob = api.post("/api/v1/players/", {"name": "Bob"}, format="json").json()  # the director keeps Bob
    _error(api.patch(f"/api/v1/players/{bob['id']}/", {"user": "nobody"}, format="json"), 400, "validation_error")
    other = make_user("bobby", "player")
    _error(api.patch(f"/api/v1/players/{bob['id']}/", {"user": "bobby"}, format="json"), 403, "permission_denied")
    _error(admin.patch(f"/api/v1/players/{bob['id']}/", {"user": player_user.username}, format="json"), 400,
           "validation_error")  # one account, one player
    response = admin.patch(f"/api/v1/players/{bob['id']}/", {"user": "bobby"}, format="json")
    assert response.status_code == 200 and response.json()["user"] == "bobby"
    assert Player.objects.get(pk=bob["id"]).user == other
    _error(_client(other).patch(f"/api/v1/players/{bob['id']}/", {"user": None}, format="json"), 403)
    assert "user" not in _client().get(f"/api/v1/players/{bob['id']}/").json()  # usernames are for directors
    assert api.get(f"/api/v1/players/{bob['id']}/").json()["user"] == "bobby"
    assert admin.patch(f"/api/v1/players/{bob['id']}/", {"user": None}, format="json").json()["user"] is None


def test_a_players_rating_history_is_readable(api):
    players = _players(2)
    slug = _running(api, players, rated=True, opening="go-as-you-please")
    api.post(f"{BASE}{slug}/rounds/", format="json")
    api.post(f"{BASE}{slug}/rounds/1/publish", format="json")
    for game in Game.objects.filter(round__tournament__slug=slug):
        api.post(f"{BASE}{slug}/results/", {"game": game.pk, "result": "1-0" if game.black_id == players[0].pk
                                            else "0-1", "reason": "slip"}, format="json")
    assert api.post(f"{BASE}{slug}/status/", {"status": "finished"}, format="json").status_code == 200
    history = _client().get(f"/api/v1/players/{players[0].pk}/ratings/").json()
    assert len(history) == 1
    row = history[0]
    assert row["tournament"] == {"slug": slug, "name": "Spring Open"} and row["games"] == 2
    assert row["rating_before"] == players[0].rating and row["rating_after"] > row["rating_before"]
    assert row["deviation_after"] < row["deviation_before"]
    assert _client().get("/api/v1/players/999999/ratings/").status_code == 404


def test_decks_and_round_lengths_through_the_api(api):
    body = {"name": "Masters", "slug": "masters", "opening": "three-move-ballot", "deck": "computer-tough",
            "deck_name": "Masters' deck", "deck_barred": [5], "deck_added": [3], "games_per_match": 4,
            "score_by": "game"}
    created = api.post(BASE, body, format="json")
    assert created.status_code == 201, created.content
    shown = api.get(f"{BASE}masters/").json()
    assert {k: shown[k] for k in ("deck", "deck_name", "deck_barred", "deck_added", "games_per_match", "score_by")} \
        == {"deck": "computer-tough", "deck_name": "Masters' deck", "deck_barred": [5], "deck_added": [3],
            "games_per_match": 4, "score_by": "game"}
    error = _error(api.post(BASE, {"name": "Y", "slug": "y", "opening": "eleven-man-ballot", "deck": "acf"},
                            format="json"), 400, "validation_error")
    assert "deck" in error["details"]["fields"]
    error = _error(api.post(BASE, {"name": "Y", "slug": "y", "deck": "no-such-deck"}, format="json"), 400,
                   "validation_error")
    assert "deck" in error["details"]["fields"]
    assert api.patch(f"{BASE}masters/", {"games_per_match": 1, "opening": "two-move-ballot", "deck": ""},
                     format="json").status_code == 200
    _error(api.patch(f"{BASE}masters/", {"games_per_match": 3}, format="json"), 400, "validation_error")
    row = TournamentLog.objects.filter(tournament__slug="masters", kind="settings_changed").latest("id")
    assert row.data["opening"] == {"before": "three-move-ballot", "after": "two-move-ballot"}
    assert row.data["games_per_match"] == {"before": 4, "after": 1}
    assert Tournament.objects.get(slug="masters").deck == ""
