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


def test_the_deciding_game_that_ends_while_the_page_is_read_again_is_still_shown(transactional_db, server,
                                                                                 live_page):
    """The page takes the entries of the games it lists; while it is being read again, that list can be behind:
    here game 3 is created and ends (deciding the match: no game 4 is created to say it) while the page still
    lists games 1 and 2. The page reads itself once more when the new list holds a game whose entry came during
    the read, so the decided match is shown. (The reads of the page are held and answered by the test: the
    first with the page as it was before game 2 ended, the second with the page before game 3 ended.)"""
    import re

    from accounts.services import user_create_with_role
    from events import services
    from tests.events.helpers import current_game, finish, players
    from tests.support.browser import TEST_PASSWORD

    director = user_create_with_role(username="td", password=TEST_PASSWORD, role="director")
    one, two = players("Champion", [2400, 2380])
    match = services.title_match_create(acting_user=director, name="Title", slug="title", player_one=one,
                                        player_two=two, games=4)
    services.title_match_start(acting_user=director, match=match)
    page_address = re.compile(r".*/events/matches/title/$")
    reads = {"started": 0, "ended": 0}  # the page's reads of itself (fetch)
    held = []  # those made once the test holds them, answered below
    holding = False

    def route_read(route):  # noqa: ANN001, ANN202
        if route.request.resource_type != "fetch":
            route.continue_()
        elif holding:
            held.append(route)
        else:
            reads["started"] += 1
            route.continue_()

    def read_ended(request):  # noqa: ANN001, ANN202
        if request.resource_type == "fetch" and page_address.match(request.url) and not holding:
            reads["ended"] += 1

    live_page.on("requestfinished", read_ended)
    live_page.on("requestfailed", read_ended)
    live_page.route(page_address, route_read)
    live_page.goto("/events/matches/title/")
    expect(live_page.locator("html")).to_have_attribute("data-live", "open")
    rows = live_page.get_by_test_id("score-line-row")
    finish(director, current_game(match), one)
    expect(rows.nth(1).locator("td").nth(6)).to_have_text("being played")
    second = current_game(match)
    for _ in range(50):  # no read under way (one folded in after another may still be): the list is the page's
        settled = reads["started"] == reads["ended"]
        live_page.wait_for_timeout(200)
        if settled and reads["started"] == reads["ended"]:
            break
    else:
        raise AssertionError(f"the page kept reading itself: {reads}")
    before_game_2_ended = live_page.request.get(live_page.url)  # lists games 1 and 2

    def wait_for_reads(count: int) -> None:
        for _ in range(100):
            if len(held) >= count:
                return
            live_page.wait_for_timeout(100)
        raise AssertionError(f"the page read itself {len(held)} times, not {count}")

    holding = True
    finish(director, second, one)  # game 2 ends (a read) and game 3 is created (one more read after it)
    wait_for_reads(1)
    held[0].fulfill(response=before_game_2_ended)
    wait_for_reads(2)
    third = current_game(match)
    before_game_3_ended = held[1].fetch()  # game 3 being played
    def listed(response) -> list[str]:  # noqa: ANN001
        return re.search(r'data-game-ids="([^"]*)"', response.text()).group(1).split()

    assert str(third.pk) not in listed(before_game_2_ended) and str(third.pk) in listed(before_game_3_ended)
    # a listener of the test's own in the page, to know when game 3's end has come by push
    listener = live_page.evaluate_handle("""game => {
        const seen = {ended: false};
        const source = new EventSource("/live/games?all=1");
        source.onmessage = message => {
            const data = JSON.parse(message.data);
            if (data.type === "entry" && data.game === game && data.kind === "game_end") { seen.ended = true; }
        };
        return new Promise(ready => { source.onopen = () => ready(seen); });
    }""", third.pk)
    finish(director, third, one)  # game 3 ends: 3-0, the match is decided
    live_page.wait_for_function("seen => seen.ended", arg=listener, timeout=10_000)
    live_page.wait_for_timeout(500)  # (the page's own stream has its copy of the same entries by now)
    holding = False
    held[1].fulfill(response=before_game_3_ended)
    expect(live_page.get_by_test_id("match-winner")).to_contain_text("Champion 1 wins the match: decided after game 3")
    expect(rows.nth(2).locator("td").nth(6)).to_have_text("3-0")  # the score after game 3
