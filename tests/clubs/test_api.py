"""The clubs API: reads for everyone, writes for the club's keepers, the project's error shape, the schema."""

import pytest

from clubs import services
from players.models import Player
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(director, make_user):
    club = services.club_create(acting_user=director, name="Bristol DC", short_name="BDC",
                                secretary=make_user("sec", "player"))
    tournament_services.player_create(acting_user=director, name="Asa Long", club="Bristol DC")
    tournament_services.player_create(acting_user=director, name="Ed Jackson", club="bristol dc")
    return club


def test_anyone_lists_clubs_and_a_clubs_players_and_the_public_does_not_see_the_secretarys_username(
        api_client, club, client_as, player_user):
    listed = api_client.get("/api/v1/clubs/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [(c["name"], c["member_count"], c["secretary"]) for c in rows] == [("Bristol DC", 2, "official")]
    players = api_client.get(f"/api/v1/clubs/{club.pk}/players/").json()
    assert [p["name"] for p in players] == ["Asa Long", "Ed Jackson"]
    assert client_as(player_user).get(f"/api/v1/clubs/{club.pk}/").json()["secretary"] == "sec"


def test_a_director_creates_a_club_and_bad_input_is_a_400_naming_the_field(client_as, director):
    api = client_as(director)
    made = api.post("/api/v1/clubs/", {"name": "Glasgow", "short_name": "GDC", "contact": "g@x.y"}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["name"] == "Glasgow"
    again = api.post("/api/v1/clubs/", {"name": " GLASGOW "}, format="json")
    assert again.status_code == 400 and "name" in again.json()["error"]["details"]["fields"]
    for body in ({"name": ""}, {"name": "x" * 500}, {"name": "A\x00B"}, {"name": "Ok", "secretary": "nobody"},
                 {"name": ["list"]}):
        response = api.post("/api/v1/clubs/", body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert response.json()["error"]["code"] == "validation_error"


def test_the_secretary_changes_his_club_and_its_players_through_the_api(client_as, club):
    api = client_as(club.secretary)
    asa = Player.objects.get(name="Asa Long")
    changed = api.patch(f"/api/v1/clubs/{club.pk}/players/{asa.pk}/", {"federation": "ACF", "federation_id": "77"},
                        format="json")
    assert changed.status_code == 200, changed.content
    assert changed.json()["federation_id"] == "77"
    assert api.patch(f"/api/v1/clubs/{club.pk}/", {"contact": "new@x.y"}, format="json").json()["contact"] == "new@x.y"
    assert api.patch(f"/api/v1/clubs/{club.pk}/players/{asa.pk}/", {"rating": 1}, format="json").status_code in (200,
                                                                                                                  400)
    asa.refresh_from_db()
    assert asa.rating is None  # a rating is not a club's to change, whatever the body says
    gone = api.delete(f"/api/v1/clubs/{club.pk}/players/{asa.pk}/", {"reason": "moved"}, format="json")
    assert gone.status_code == 204
    assert api.delete(f"/api/v1/clubs/{club.pk}/players/{asa.pk}/", format="json").json()["error"]["code"] == \
        "member_not_found"
    back = api.post(f"/api/v1/clubs/{club.pk}/players/", {"player": asa.pk}, format="json")
    assert back.status_code == 201
    assert api.post(f"/api/v1/clubs/{club.pk}/players/", {"player": asa.pk}, format="json").status_code == 409
    assert api.post(f"/api/v1/clubs/{club.pk}/players/", {"player": 10**17}, format="json").status_code == 400
    kinds = [row["kind"] for row in api.get(f"/api/v1/clubs/{club.pk}/log/").json()]
    assert kinds[:1] == ["created"] and kinds[-4:] == ["player_changed", "changed", "left", "joined"]


def test_outsiders_cannot_write_to_a_club(api_client, client_as, club, make_user, player_user):
    asa = Player.objects.get(name="Asa Long")
    for user in (make_user("dir2", "director"), player_user, make_user("sec2", "player"), None):
        api = client_as(user) if user is not None else api_client
        for method, url, body in [
            ("patch", f"/api/v1/clubs/{club.pk}/", {"contact": "hijacked"}),
            ("post", f"/api/v1/clubs/{club.pk}/players/", {"player": asa.pk}),
            ("patch", f"/api/v1/clubs/{club.pk}/players/{asa.pk}/", {"name": "Hijacked"}),
            ("delete", f"/api/v1/clubs/{club.pk}/players/{asa.pk}/", {}),
        ]:
            response = getattr(api, method)(url, body, format="json")
            assert response.status_code in ((401, 403) if user is None else (403,)), (user, url, response.content)
    asa.refresh_from_db()
    assert (asa.name, asa.club) == ("Asa Long", "Bristol DC")


def test_a_missing_club_is_a_404_in_the_error_shape(api_client):
    response = api_client.get("/api/v1/clubs/999999/")
    assert response.status_code == 404 and response.json()["error"]["code"]


def test_the_schema_documents_the_clubs_endpoints(api_client):
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    for path in ("/api/v1/clubs/", "/api/v1/clubs/{id}/", "/api/v1/clubs/{id}/players/",
                 "/api/v1/clubs/{id}/players/{player}/", "/api/v1/clubs/{id}/log/"):
        assert path in paths, sorted(p for p in paths if "club" in p)
    assert {"get", "post"} <= set(paths["/api/v1/clubs/{id}/players/"])
    assert {"patch", "delete"} <= set(paths["/api/v1/clubs/{id}/players/{player}/"])
