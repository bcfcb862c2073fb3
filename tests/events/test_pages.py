"""The events pages: the event's page, its desk (a refusal says why), the programme, a title match, a series."""

from __future__ import annotations

import pytest

from events import services
from events.models import Registration
from tests.events.helpers import current_game, make_event, players, three_sections

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(director):
    event = make_event(director)
    three_sections(director, event)
    return event


def test_the_events_page_shows_every_section_with_its_rules_and_standings(client, event, director):
    masters = event.sections.get(name="Masters")
    (player,) = players("Strong", [2200])
    services.registration_add(acting_user=director, event=event, section=masters, player=player)
    page = client.get(f"/events/{event.slug}/").content.decode()
    for text in ("Masters", "Major", "Minor", "Entry: rating 2000 and over", "Entry: rating up to 1799; not open to "
                 "players of Masters", "Strong 1", "No game of this section is being played."):
        assert text in page, text
    assert "desk-link" not in page  # the public sees no desk
    assert "National Championships" in client.get("/events/").content.decode()


def test_the_desk_is_the_events_directors_and_a_refusal_comes_back_with_its_reason(client, event, director,
                                                                                     make_user):
    major = event.sections.get(name="Major")
    (low,) = players("Low", [1500])
    client.force_login(make_user("outsider", "director"))
    assert client.get(f"/events/{event.slug}/desk/").status_code == 403
    assert client.post(f"/events/{event.slug}/desk/register", {"section": major.pk, "player": low.pk}).status_code == 403
    client.force_login(director)
    response = client.post(f"/events/{event.slug}/desk/register", {"section": major.pk, "player": low.pk}, follow=True)
    assert "Low 1&#x27;s rating 1500 is below Major&#x27;s band (1700 to 2099)." in response.content.decode()
    assert not Registration.objects.exists()
    response = client.post(f"/events/{event.slug}/desk/register", {"section": "x", "player": low.pk}, follow=True)
    assert response.status_code == 200 and "The section must be a number" in response.content.decode()


def test_the_programme_prints_each_section_and_the_title_matches(client, event, director):
    a, b = players("T", [2400, 2300])
    services.title_match_create(acting_user=director, name="Title", player_one=a, player_two=b, games=4, event=event)
    page = client.get(f"/events/{event.slug}/programme/").content.decode()
    assert "Round robin" in page and "Swiss, 3 rounds" in page and "Title: T 1 v T 2, 4 games" in page
    assert "English Draughts Association" in page


def test_a_title_matchs_page_and_scoresheet_show_the_score_line(client, director):
    from tests.events.helpers import finish

    a, b = players("T", [2400, 2300])
    match = services.title_match_create(acting_user=director, name="Title", player_one=a, player_two=b, games=2)
    client.force_login(director)
    assert 'data-testid="match-start"' in client.get("/events/matches/title/").content.decode()
    client.post("/events/matches/title/start")
    finish(director, current_game(match), a)
    finish(director, current_game(match), a)
    page = client.get("/events/matches/title/").content.decode()
    assert "T 1 2 – 0 T 2" in page and "T 1 wins the match" in page
    sheet = client.get("/events/matches/title/scoresheet/").content.decode()
    assert sheet.count("<tr>") == 3 and f"#{match.ballots[0]['number']}" in sheet


def test_a_series_page_links_its_stages(client, director, event):
    masters = event.sections.get(name="Masters")
    services.series_create(acting_user=director, name="Cup", method="places", place_points=[3, 2, 1], best_of=1,
                           stages=[masters.tournament.slug])
    page = client.get("/events/series/cup/").content.decode()
    assert f'href="/tournaments/{masters.tournament.slug}/"' in page and "best 1 of 1 stages" in page


def test_a_director_makes_an_event_its_sections_a_title_match_and_a_series_from_the_pages(client, director):
    from events.models import Event, Series, TitleMatch

    a, b = players("F", [2100, 2000])
    client.force_login(director)
    response = client.post("/events/new", {"name": "Scottish Open", "venue": "Perth", "start_date": "2026-09-01",
                                           "end_date": "2026-09-02"})
    assert response["Location"] == "/events/scottish-open/desk/"
    client.post("/events/scottish-open/desk/sections", {"name": "Master", "format": "round_robin",
                                                         "games_per_match": "4", "opening": "three-move-ballot",
                                                         "rating_min": "2000"})
    master = Event.objects.get(slug="scottish-open").sections.get()
    response = client.post("/events/scottish-open/desk/sections", {
        "name": "Intermediate", "format": "swiss", "rounds": "5", "games_per_match": "2",
        "opening": "go-as-you-please", "rating_max": "1900", "barred_by": [str(master.pk)]}, follow=True)
    assert "The section Intermediate is made" in response.content.decode()
    refused = client.post("/events/scottish-open/desk/sections", {"name": "Bad", "format": "swiss", "rounds": "x",
                                                                  "opening": "go-as-you-please"}, follow=True)
    assert "The number of rounds must be a number" in refused.content.decode()
    intermediate = Event.objects.get(slug="scottish-open").sections.get(name="Intermediate")
    assert list(intermediate.barred_by.all()) == [master] and intermediate.tournament.round_count == 5
    assert master.tournament.games_per_match == 4
    response = client.post("/events/matches/new", {"name": "Scottish Title", "player_one": a.pk, "player_two": b.pk,
                                                    "games": "6", "opening": "three-move-ballot"})
    assert response["Location"] == "/events/matches/scottish-title/" and len(TitleMatch.objects.get().ballots) == 3
    odd = client.post("/events/matches/new", {"name": "Odd", "player_one": a.pk, "player_two": b.pk, "games": "5",
                                              "opening": "three-move-ballot"}, follow=True)
    assert "An even number of games" in odd.content.decode()
    response = client.post("/events/series/new", {"name": "Tour", "method": "places", "place_points": "5, 3, 1",
                                                  "best_of": "2", "stages": [master.tournament.slug,
                                                                             intermediate.tournament.slug]})
    assert response["Location"] == "/events/series/tour/" and Series.objects.get().stages.count() == 2


def test_the_creation_forms_answer_hostile_values_and_outsiders_without_a_server_error(client, director, make_user):
    from tests.config.test_bad_input_types import PAGE_HOSTILE

    event = make_event(director)
    a, b = players("F", [2100, 2000])
    client.force_login(director)
    client.raise_request_exception = False
    forms = {"/events/new": {"name": "E", "slug": "e", "venue": "v", "organiser": "o", "start_date": "2026-01-01",
                             "end_date": "2026-01-02"},
             f"/events/{event.slug}/desk/sections": {"name": "S", "format": "swiss", "rounds": "3",
                                                      "games_per_match": "2", "opening": "go-as-you-please",
                                                      "rating_min": "1", "rating_max": "2", "age_min": "1",
                                                      "age_max": "2", "titles": "M", "barred_by": "1"},
             "/events/matches/new": {"name": "M", "slug": "m", "player_one": str(a.pk), "player_two": str(b.pk),
                                     "games": "2", "opening": "go-as-you-please"},
             "/events/series/new": {"name": "S", "slug": "s", "method": "places", "place_points": "1",
                                    "best_of": "1", "stages": "x"}}
    failures = []
    for url, form in forms.items():
        for field in form:
            for value in PAGE_HOSTILE:
                response = client.post(url, {**form, field: value})
                if response.status_code >= 500:
                    failures.append((url, field, value[:20], response.status_code))
    assert not failures, failures
    client.force_login(make_user("pl", "player"))
    for url, form in forms.items():
        assert client.post(url, form).status_code == 403, url
