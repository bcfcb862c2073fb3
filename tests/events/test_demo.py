"""The demo's event: three sections under way after one desk, a short title match, a series; its pages render."""

import pytest
from django.test import Client

from events import selectors
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
        assert section.tournament.rounds.get().status == "preview"  # paired after the desk, for the director
    match = TitleMatch.objects.get(slug=MATCH_SLUG)
    assert match.status == "finished" and match.match_games.count() == 3  # decided with a game to spare
    assert selectors.title_match_detail(match)[0].score == (5, 1)
    assert not Game.objects.filter(round__isnull=True, status="in_progress").exists()
    client = Client()
    for url in (f"/events/{EVENT_SLUG}/", f"/events/{EVENT_SLUG}/programme/", f"/events/matches/{MATCH_SLUG}/",
                f"/events/matches/{MATCH_SLUG}/scoresheet/", f"/events/series/{SERIES_SLUG}/", "/events/"):
        assert client.get(url).status_code == 200, url
