"""A tournament followed by push in Chromium: the live boards page through a result and a new
round, the tournament page's standings on a result, a referee's "My boards" on a move.

The pages are served by the ASGI server (uvicorn: pages, API and live streams on one port) in
its own process against the test database; the director's and referee's acts go through the
services in the test process, which publish them on Redis after their commit like any web process.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def server(transactional_db, tmp_path):
    from tests.conftest import worker_env
    from tests.support.live import WebProcess

    web = WebProcess(env=worker_env(), log_path=tmp_path / "web.log").start()
    yield web
    web.stop()


@pytest.fixture
def live_page(browser, server):
    context = browser.new_context(base_url=server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def world(transactional_db):
    """A round robin of 4 (2-game matches) with round 1 published, its games refereed by ref1."""
    from accounts.services import user_create_with_role
    from games.models import Game
    from players.models import Player
    from tests.support.browser import TEST_PASSWORD
    from tournaments import services

    director = user_create_with_role(username="td", password=TEST_PASSWORD, role="director")
    referee = user_create_with_role(username="ref1", password=TEST_PASSWORD, role="referee")
    players = [Player.objects.create(name=name) for name in ["Agnes Calder", "Bram Okafor", "Cora Dunn", "Dev Rao"]]
    tournament = services.tournament_create(acting_user=director, name="Spring Open", slug="spring",
                                            format="round_robin", opening="go-as-you-please", referees=["ref1"])
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    for player in players:
        services.entry_add(acting_user=director, tournament=tournament, player=player)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="running")
    services.round_publish(acting_user=director, tournament=tournament,
                           number=services.round_pair(acting_user=director, tournament=tournament).number)
    games = list(Game.objects.filter(round__tournament=tournament).select_related("black").order_by("id"))
    return director, referee, tournament, games


def wait_live(page):
    expect(page.locator("html")).to_have_attribute("data-live", "open")


def test_the_live_boards_page_follows_a_result_and_a_new_round(world, server, live_page):
    from games.models import Game
    from tournaments import services

    director, _referee, tournament, games = world
    live_page.goto("/tournaments/spring/live/")
    wait_live(live_page)
    services.game_result_set(acting_user=director, tournament=tournament, game_id=games[0].pk, result="1-0",
                             reason="Agreed at the board")
    expect(live_page.get_by_test_id(f"live-status-{games[0].pk}")).to_have_text("1-0")
    for game in games[1:]:
        services.game_result_set(acting_user=director, tournament=tournament, game_id=game.pk, result="1/2-1/2",
                                 reason="Agreed at the board")
    services.round_publish(acting_user=director, tournament=tournament,
                           number=services.round_pair(acting_user=director, tournament=tournament).number)
    fresh = Game.objects.filter(round__tournament=tournament, round__number=2).order_by("id")
    assert fresh.count() == len(games)
    for game in fresh:  # the page shows the new round's boards, without a reload by the user
        expect(live_page.get_by_test_id(f"live-board-{game.pk}")).to_be_visible()
    expect(live_page.get_by_test_id(f"live-board-{games[0].pk}")).to_have_count(0)


def test_the_tournament_page_refreshes_its_standings_on_a_result(world, server, live_page):
    from tournaments import services
    from tournaments.models import MatchGame

    director, _referee, tournament, games = world
    match = MatchGame.objects.get(game=games[0]).match
    both = [mg.game_id for mg in MatchGame.objects.filter(match=match).order_by("number")]
    live_page.goto("/tournaments/spring/")
    wait_live(live_page)
    headers = live_page.locator("[data-testid=standings] thead th").all_inner_texts()
    game_points = headers.index("Game points")
    row = live_page.get_by_test_id("standings-row").filter(has_text=games[0].black.name)
    expect(row.locator("td").nth(game_points)).to_have_text("0")
    for game_id in both:  # the match is decided: the standings count it
        services.game_result_set(acting_user=director, tournament=tournament, game_id=game_id, result="1/2-1/2",
                                 reason="Agreed at the board")
    expect(row.locator("td").nth(game_points)).to_have_text("1")


def test_a_referees_boards_follow_his_games(world, server, live_page):
    from arbitration.services import game_move_record
    from tests.support.browser import sign_in

    _director, referee, _tournament, games = world
    sign_in(live_page, "ref1")
    live_page.goto("/tournaments/me/boards/")
    wait_live(live_page)
    row = live_page.locator(f"#my-boards tr[data-game-id='{games[0].pk}']")
    expect(row.locator("[data-ply]")).to_have_text("0")
    game_move_record(acting_user=referee, game_id=games[0].pk, move="11-15")
    expect(row.locator("[data-ply]")).to_have_text("1")
    game_move_record(acting_user=referee, game_id=games[0].pk, move="23-19")
    expect(row.locator("[data-ply]")).to_have_text("2")


def test_a_referees_boards_poll_when_the_stream_is_refused(world, browser, tmp_path):
    from arbitration.services import game_move_record
    from tests.conftest import worker_env
    from tests.support.browser import sign_in
    from tests.support.live import WebProcess

    _director, referee, _tournament, games = world
    full = WebProcess(env={**worker_env(), "LIVE_MAX_PER_ADDRESS": "0"}, log_path=tmp_path / "full.log").start()
    context = browser.new_context(base_url=full.url)
    try:
        page = context.new_page()
        sign_in(page, "ref1")
        refused = []
        page.on("response", lambda r: refused.append(r.status) if "/live/games" in r.url else None)
        page.goto("/tournaments/me/boards/")
        row = page.locator(f"#my-boards tr[data-game-id='{games[0].pk}']")
        expect(row.locator("[data-ply]")).to_have_text("0")
        game_move_record(acting_user=referee, game_id=games[0].pk, move="11-15")
        expect(row.locator("[data-ply]")).to_have_text("1", timeout=8000)  # the first poll comes after 3 s
        assert refused and set(refused) == {503}
    finally:
        context.close()
        full.stop()
