"""An event's page followed by push in Chromium: a result in one section puts its new standings and boards in place.

The page is served by uvicorn in its own process (tests/e2e/conftest.py); the director's acts go through the
services in the test process, which publish them after their commit like any web process.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_events_page_follows_a_result_in_one_of_its_sections(transactional_db, server, live_page):
    from accounts.services import user_create_with_role
    from events import services
    from games.models import Game
    from tests.events.helpers import make_event, players
    from tests.support.browser import TEST_PASSWORD
    from tournaments import services as tournament_services

    director = user_create_with_role(username="td", password=TEST_PASSWORD, role="director")
    event = make_event(director)
    section = services.section_create(acting_user=director, event=event, name="Open", format="round_robin",
                                      opening="go-as-you-please")
    field = players("Open", [1900, 1800])
    for player in field:
        services.registration_add(acting_user=director, event=event, section=section, player=player)
    tournament = tournament_services.tournament_status_set(acting_user=director, tournament=section.tournament,
                                                           status="running")
    round_ = tournament_services.round_pair(acting_user=director, tournament=tournament)
    tournament_services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    first, second = Game.objects.filter(round__tournament=tournament).order_by("id")

    live_page.goto(f"/events/{event.slug}/")
    expect(live_page.locator("html")).to_have_attribute("data-live", "open")
    boards = live_page.get_by_test_id("section-boards").locator("figure")
    expect(boards).to_have_count(2)
    tournament_services.game_result_set(acting_user=director, tournament=tournament, game_id=first.pk,
                                        result="1-0" if first.black_id == field[0].pk else "0-1", reason="slip")
    tournament_services.game_result_set(acting_user=director, tournament=tournament, game_id=second.pk,
                                        result="1-0" if second.black_id == field[0].pk else "0-1", reason="slip")
    expect(live_page.get_by_text("No game of this section is being played.")).to_be_visible()
    expect(live_page.get_by_test_id("standings-row").first).to_contain_text("Open 1")
    expect(live_page.get_by_test_id("standings-row").first.locator("td").nth(2)).to_have_text("2")


def test_a_title_matchs_page_follows_its_games_to_the_end_of_the_match(transactional_db, server, live_page):
    from accounts.services import user_create_with_role
    from events import services
    from tests.events.helpers import current_game, finish, players
    from tests.support.browser import TEST_PASSWORD

    director = user_create_with_role(username="td", password=TEST_PASSWORD, role="director")
    one, two = players("Champion", [2400, 2380])
    match = services.title_match_create(acting_user=director, name="Title", slug="title", player_one=one,
                                        player_two=two, games=4)
    services.title_match_start(acting_user=director, match=match)
    live_page.goto("/events/matches/title/")
    expect(live_page.locator("html")).to_have_attribute("data-live", "open")
    rows = live_page.get_by_test_id("score-line-row")
    finish(director, current_game(match), one)
    expect(rows.nth(0).locator("td").nth(6)).to_have_text("1-0")
    expect(rows.nth(1).locator("td").nth(6)).to_have_text("being played")  # game 2, created after game 1 ended
    finish(director, current_game(match), one)
    finish(director, current_game(match), one)
    expect(live_page.get_by_test_id("match-winner")).to_contain_text("Champion 1 wins the match: decided after game 3")
    expect(live_page.get_by_test_id("match-status")).to_have_text("Finished")
