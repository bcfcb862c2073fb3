"""The events API: an event with sections, a refused entry in the error shape, the one desk, a title match, a series."""

from __future__ import annotations

import pytest

from events.models import Event, TitleMatch
from tests.events.helpers import make_event, players, three_sections

pytestmark = pytest.mark.django_db


def test_an_event_with_sections_is_made_through_the_api(director, client_as):
    api = client_as(director)
    created = api.post("/api/v1/events/", {"name": "Irish Open", "venue": "Dublin", "organiser": "IDA",
                                           "start_date": "2026-08-01", "end_date": "2026-08-03"}, format="json")
    assert created.status_code == 201, created.content
    masters = api.post("/api/v1/events/irish-open/sections/", {
        "name": "Masters", "format": "round_robin", "games_per_match": 4, "rating_min": 2000,
        "opening": "three-move-ballot"}, format="json")
    assert masters.status_code == 201, masters.content
    seniors = api.post("/api/v1/events/irish-open/sections/", {
        "name": "Seniors", "format": "swiss", "rounds": 5, "age_min": 60, "barred_by": [masters.json()["id"]]},
        format="json")
    assert seniors.status_code == 201, seniors.content
    assert seniors.json()["rules"] == "aged 60 and over; not open to players of Masters"
    body = api.get("/api/v1/events/irish-open/").json()
    assert [s["name"] for s in body["sections"]] == ["Masters", "Seniors"]
    assert body["sections"][0]["tournament"] == "irish-open-masters"
    tournament = api.get("/api/v1/tournaments/irish-open-masters/").json()
    assert tournament["games_per_match"] == 4 and tournament["venue"] == "Dublin"


def test_an_entry_refused_by_the_band_is_a_409_with_the_reason(director, client_as):
    event = make_event(director)
    _masters, major, _minor = three_sections(director, event)
    (low,) = players("Low", [1600])
    response = client_as(director).post(f"/api/v1/events/{event.slug}/registrations/",
                                        {"section": major.pk, "player": low.pk}, format="json")
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "entry_refused"
    assert error["details"]["reason"] == error["message"] == "Low 1's rating 1600 is below Major's band (1700 to 2099)."


def test_bad_input_to_the_desk_is_a_400_naming_the_field(director, client_as):
    event = make_event(director)
    api = client_as(director)
    for body, field in [({"section": "x", "player": 1}, "section"), ({"section": 10**19, "player": 1}, "section"),
                        ({"section": 1, "player": 1}, "section"), ({"player": -1}, "player")]:
        response = api.post(f"/api/v1/events/{event.slug}/registrations/", body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert field in response.json()["error"]["details"]["fields"]
    assert api.post(f"/api/v1/events/{event.slug}/check-in/", {"player": 99}, format="json").status_code == 400
    assert api.get("/api/v1/events/nowhere/").json()["error"]["code"] == "event_not_found"


def test_the_desk_checks_a_player_in_for_every_section(director, client_as):
    event = make_event(director)
    masters, major, _minor = three_sections(director, event)
    (player,) = players("P", [2050])
    api = client_as(director)
    for section in (masters, major):
        assert api.post(f"/api/v1/events/{event.slug}/registrations/", {"section": section.pk, "player": player.pk},
                        format="json").status_code == 201
    desk = api.post(f"/api/v1/events/{event.slug}/check-in/", {"player": player.pk}, format="json")
    assert desk.status_code == 200
    assert desk.json() == [{"player": {"id": player.pk, "name": "P 1"}, "sections": ["Masters", "Major"],
                            "checked_in": True}]


def test_a_title_match_through_the_api(director, client_as):
    one, two = players("C", [2400, 2300])
    api = client_as(director)
    created = api.post("/api/v1/title-matches/", {"name": "English Title", "player_one": one.pk,
                                                  "player_two": two.pk, "games": 6}, format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert len({g["opening"]["number"] for g in body["score_line"]}) == 3
    assert [g["opening"]["number"] for g in body["score_line"]][::2] == [g["opening"]["number"]
                                                                         for g in body["score_line"]][1::2]
    assert api.post("/api/v1/title-matches/", {"name": "Odd", "player_one": one.pk, "player_two": two.pk,
                                               "games": 7}, format="json").status_code == 400
    started = api.post("/api/v1/title-matches/english-title/start/", format="json")
    assert started.status_code == 200 and started.json()["score_line"][0]["game"] is not None
    again = api.post("/api/v1/title-matches/english-title/start/", format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "title_match_conflict"
    assert TitleMatch.objects.get().status == "playing"


def test_outsiders_write_nothing_of_an_event_its_match_or_its_series(director, make_user, client_as, api_client):
    from rest_framework.test import APIClient

    event = make_event(director)
    _masters, major, _minor = three_sections(director, event)
    a, b = players("Q", [1800, 1900])
    match = client_as(director).post("/api/v1/title-matches/", {
        "name": "M", "player_one": a.pk, "player_two": b.pk, "games": 2, "event": event.slug}, format="json")
    assert match.status_code == 201
    series = client_as(director).post("/api/v1/series/", {"name": "S", "method": "results"}, format="json")
    assert series.status_code == 201
    other = make_user("outsider", "director")
    writes = [
        (f"/api/v1/events/{event.slug}/sections/", {"name": "X"}),
        (f"/api/v1/events/{event.slug}/registrations/", {"section": major.pk, "player": a.pk}),
        (f"/api/v1/events/{event.slug}/check-in/", {"player": a.pk}),
        (f"/api/v1/events/{event.slug}/directors/", {"director": "outsider"}),
        ("/api/v1/title-matches/m/start/", {}),
        ("/api/v1/title-matches/", {"name": "N", "player_one": a.pk, "player_two": b.pk, "games": 2,
                                    "event": event.slug}),
        ("/api/v1/series/s/stages/", {"tournament": major.tournament.slug}),
    ]
    for user in (other, make_user("someone", "player"), None):
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        for url, body in writes:
            response = client.post(url, body, format="json")
            assert response.status_code in ({403} if user is not None else {401, 403}), (user, url, response.content)
    assert Event.objects.get().sections.count() == 3 and not event.registrations.exists()
    assert TitleMatch.objects.get().status == "scheduled" and TitleMatch.objects.count() == 1
