"""Hostile values in every field of every write of the events' API and desk: 2xx or 4xx in the error shape, never 5xx;
and writes of one event refused to the pages of another's director."""

from __future__ import annotations

import pytest

from tests.config.test_bad_input_types import HOSTILE, PAGE_HOSTILE
from tests.events.helpers import make_event, players, three_sections

pytestmark = pytest.mark.django_db


def test_every_field_of_every_events_write_answers_hostile_values_without_a_server_error(director, client_as):
    event = make_event(director)
    masters, major, minor = three_sections(director, event)
    a, b, c = players("H", [1800, 1900, 2100])
    stage = masters.tournament.slug
    api = client_as(director)
    api.raise_request_exception = False
    assert api.post("/api/v1/title-matches/", {"name": "M", "slug": "m", "player_one": a.pk, "player_two": b.pk,
                                               "games": 2}, format="json").status_code == 201
    assert api.post("/api/v1/series/", {"name": "S", "slug": "s", "method": "results"},
                    format="json").status_code == 201
    writes = [
        ("/api/v1/events/", {"name": "E", "slug": "e", "venue": "v", "organiser": "o", "start_date": "2026-01-01",
                             "end_date": "2026-01-02"}),
        (f"/api/v1/events/{event.slug}/sections/", {"name": "Seniors", "format": "swiss", "rounds": 3,
                                                     "games_per_match": 2, "rating_min": 1000, "rating_max": 2000,
                                                     "unrated_allowed": True, "age_min": 60, "age_max": 99,
                                                     "titles": ["M"], "barred_by": [masters.pk]}),
        (f"/api/v1/events/{event.slug}/registrations/", {"section": major.pk, "player": a.pk,
                                                          "birth_date": "1960-01-01", "title": "M"}),
        (f"/api/v1/events/{event.slug}/check-in/", {"player": a.pk, "present": True}),
        (f"/api/v1/events/{event.slug}/directors/", {"director": "dir"}),
        ("/api/v1/title-matches/", {"name": "N", "slug": "n", "player_one": a.pk, "player_two": c.pk, "games": 2,
                                    "play_out": False, "opening": "go-as-you-please", "rule_set": "standard",
                                    "clock": None, "venue": "v", "event": event.slug, "referees": []}),
        ("/api/v1/series/", {"name": "T", "slug": "t", "method": "places", "place_points": [3, 2, 1], "best_of": 1,
                             "stages": [stage]}),
        ("/api/v1/series/s/stages/", {"tournament": stage}),
    ]
    failures = []
    for path, body in writes:
        for field in body:
            for value in HOSTILE:
                response = api.post(path, {**body, field: value}, format="json")
                if response.status_code >= 500 or (response.status_code >= 400 and (
                        not response["Content-Type"].startswith("application/json")
                        or set(response.json()) != {"error"})):
                    failures.append((path, field, repr(value)[:40], response.status_code))
    assert not failures, failures
    for body in HOSTILE + [["a"], "a string", 12]:
        for path, _ in writes:
            assert 400 <= api.post(path, body, format="json").status_code < 500, (path, body)


def test_the_desk_answers_hostile_forms_without_a_server_error(director, client):
    event = make_event(director)
    _masters, major, _minor = three_sections(director, event)
    (a,) = players("H", [1800])
    client.force_login(director)
    client.raise_request_exception = False
    forms = {"register": {"section": str(major.pk), "player": str(a.pk), "birth_date": "1960-01-01", "title": "M"},
             "check-in": {"player": str(a.pk), "present": "yes"}, "pair": {"section": str(major.pk)}}
    failures = []
    for action, form in forms.items():
        for field in form:
            for value in PAGE_HOSTILE:
                response = client.post(f"/events/{event.slug}/desk/{action}", {**form, field: value})
                if response.status_code >= 500:
                    failures.append((action, field, value[:20], response.status_code))
    assert not failures, failures


def test_another_directors_pages_change_nothing_of_this_event(director, make_user, client):
    from events import services
    from events.models import Registration, TitleMatch
    from tournaments.models import Presence, Round

    event = make_event(director)
    _masters, major, _minor = three_sections(director, event)
    a, b = players("H", [1800, 1850])
    services.registration_add(acting_user=director, event=event, section=major, player=b)
    services.title_match_create(acting_user=director, name="M", slug="m", player_one=a, player_two=b, games=2)
    pages = [(f"/events/{event.slug}/desk/register", {"section": major.pk, "player": a.pk}),
             (f"/events/{event.slug}/desk/check-in", {"player": b.pk, "present": "yes"}),
             (f"/events/{event.slug}/desk/pair", {"section": major.pk}), ("/events/matches/m/start", {}),
             (f"/events/{event.slug}/desk/sections", {"name": "Blitz", "format": "swiss", "rounds": "3",
                                                      "opening": "go-as-you-please"})]
    for user in (make_user("other", "director"), make_user("pl", "player"), make_user("rf", "referee"), None):
        client.logout()
        if user is not None:
            client.force_login(user)
        for url, form in pages:
            response = client.post(url, form)
            if user is None:
                assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
            else:
                assert response.status_code == 403, (user, url, response.status_code)
    assert Registration.objects.count() == 1 and not Presence.objects.exists() and not Round.objects.exists()
    assert event.sections.count() == 3
    assert TitleMatch.objects.get().status == "scheduled"
