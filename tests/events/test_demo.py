"""The demo's event: three sections under way after one desk, a short title match, a series; its pages render."""

import pytest
from django.test import Client

from events.demo import EVENT_SLUG, MATCH_SLUG, SERIES_SLUG
from events.models import Event, TitleMatch
from games.models import Game
from tournaments.demo import demo_seed
from tournaments.models import Presence

pytestmark = pytest.mark.django_db


def test_the_demo_holds_an_event_of_three_sections_a_title_match_and_a_series():
    demo_seed()
    event = Event.objects.get(slug=EVENT_SLUG)
    sections = list(event.sections.select_related("tournament").order_by("order"))
    assert [s.name for s in sections] == ["Masters", "Major", "Minor"]
    assert sections[0].tournament.games_per_match == 4
    for section in sections:
        assert section.tournament.status == "running"
        assert Presence.objects.filter(tournament=section.tournament, present=True).count() == 4
        assert Game.objects.filter(round__tournament=section.tournament, status="in_progress").count() == (
            section.tournament.games_per_match * 2)
    match = TitleMatch.objects.get(slug=MATCH_SLUG)
    assert match.status == "playing" and match.match_games.count() == 2
    client = Client()
    for url in (f"/events/{EVENT_SLUG}/", f"/events/{EVENT_SLUG}/programme/", f"/events/matches/{MATCH_SLUG}/",
                f"/events/matches/{MATCH_SLUG}/scoresheet/", f"/events/series/{SERIES_SLUG}/", "/events/"):
        assert client.get(url).status_code == 200, url
