"""No username reaches the public in the apps added after the first pass (issue 22, item 5: "public names
scrubbed from every public log, note and export"): a league's secretary, its teams' captains and its log's
actors; an event's directors (API and printed programme) and its sections' referees; a club's log naming its
secretary. Anyone signed in still reads the usernames."""

from __future__ import annotations

import json

import pytest

from clubs import services as club_services
from events import services as event_services
from tests.events.helpers import make_event, three_sections
from tests.leagues.conftest import build_league
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

SECRET = "zqsecretname"


def _named(text: str, *names: str) -> list[str]:
    return [name for name in names if name in text]


def test_a_leagues_secretary_captains_and_log_actors_are_not_named_to_the_public(make_user, api_client):
    world = build_league(make_user, slug="zqleague")
    names = (world.secretary.username, *(c.username for c in world.captains))
    answers = [api_client.get(path) for path in (
        "/api/v1/leagues/", f"/api/v1/leagues/{world.league.slug}/", f"/api/v1/leagues/{world.league.slug}/log/",
        "/api/v1/league-teams/", f"/api/v1/league-teams/{world.teams[0].pk}/")]
    assert [a.status_code for a in answers] == [200] * 5
    for answer in answers:
        assert _named(answer.content.decode(), *names) == [], answer.request["PATH_INFO"]
    league = answers[1].json()
    assert league["secretary"] == "official"
    assert answers[4].json()["captain"] == "official"
    log = answers[2].json()
    assert log and {row["actor"] for row in log} == {"official"}
    # signed in, the names are there
    api_client.force_authenticate(world.captains[1])
    assert api_client.get(f"/api/v1/leagues/{world.league.slug}/").json()["secretary"] == world.secretary.username
    assert api_client.get(f"/api/v1/league-teams/{world.teams[0].pk}/").json()["captain"] == world.captains[0].username
    assert world.captains[0].username in api_client.get(f"/api/v1/leagues/{world.league.slug}/log/").content.decode()


def test_an_events_directors_and_referees_are_not_named_to_the_public(make_user, api_client, client):
    director = make_user(f"{SECRET}dir", "director")
    referee = make_user(f"{SECRET}ref", "referee")
    event = make_event(director)
    masters, _, _ = three_sections(director, event)
    tournament_services.tournament_referees_set(acting_user=director, tournament=masters.tournament,
                                                referees=[referee.username])
    for path in ("/api/v1/events/", f"/api/v1/events/{event.slug}/"):
        answer = api_client.get(path)
        assert answer.status_code == 200 and _named(answer.content.decode(), SECRET) == [], path
    assert api_client.get(f"/api/v1/events/{event.slug}/").json()["directors"] == ["director"]
    programme = client.get(f"/events/{event.slug}/programme/").content.decode()
    assert _named(programme, SECRET) == []
    assert "Directors: director" in programme and "<td>referee</td>" in programme
    # signed in, the names are there
    api_client.force_authenticate(referee)
    assert api_client.get(f"/api/v1/events/{event.slug}/").json()["directors"] == [director.username]
    client.force_login(referee)
    programme = client.get(f"/events/{event.slug}/programme/").content.decode()
    assert director.username in programme and referee.username in programme
    event_services.event_directors_add(acting_user=director, event=event, user=make_user(f"{SECRET}two", "director"))
    client.logout()
    assert _named(client.get(f"/events/{event.slug}/programme/").content.decode(), SECRET) == []


def test_a_clubs_log_does_not_name_its_secretary_to_the_public(make_user, api_client):
    director = make_user(f"{SECRET}dir", "director")
    first, second = make_user(f"{SECRET}one", "player"), make_user(f"{SECRET}two", "player")
    club = club_services.club_create(acting_user=director, name="Zq Club", secretary=first)
    club_services.club_update(acting_user=director, club=club, secretary=second)
    answer = api_client.get(f"/api/v1/clubs/{club.pk}/log/")
    assert answer.status_code == 200
    assert _named(answer.content.decode(), SECRET) == [], json.dumps(answer.json())
    changes = [row["changes"].get("secretary") for row in _rows(answer.json())]
    assert {"before": None, "after": "official"} in changes and {"before": "official", "after": "official"} in changes
    api_client.force_authenticate(director)
    assert second.username in api_client.get(f"/api/v1/clubs/{club.pk}/log/").content.decode()


def _rows(body):
    return body["results"] if isinstance(body, dict) else body
