"""A tournament followed by push in Chromium: the live boards page through a result and a new
round, the tournament page's standings on a result, a referee's "My boards" on a move, the
"Live games" list through games that start, move and end (and, without the live path, by polling).

The pages are served by the ASGI server (uvicorn: pages, API and live streams on one port) in
its own process against the test database; the director's and referee's acts go through the
services in the test process, which publish them on Redis after their commit like any web process.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


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


def test_the_live_games_list_follows_games_that_start_move_and_end(world, server, live_page):
    from arbitration.services import game_move_record
    from tournaments import services

    director, referee, tournament, games = world
    live_page.goto("/")
    live_page.get_by_test_id("nav-live-games").click()
    expect(live_page).to_have_url(f"{server.url}/games/")
    wait_live(live_page)
    expect(live_page.get_by_test_id("nothing-playing")).to_be_visible()
    waiting = live_page.get_by_test_id("waiting-game")
    expect(waiting).to_have_count(4)
    reads = []
    live_page.on("request", lambda r: reads.append(r.url) if r.url.endswith("/games/") else None)

    game_move_record(acting_user=referee, game_id=games[0].pk, move="11-15")  # the game starts
    board = live_page.locator(f"[data-testid=playing-game][data-game-id='{games[0].pk}']")
    expect(board).to_be_visible()
    expect(waiting).to_have_count(3)
    expect(live_page.get_by_test_id("nothing-playing")).to_have_count(0)
    expect(board.locator("[data-square='15']")).to_have_attribute("data-piece", "bm")
    expect(board).to_contain_text("Round 1, board 1.1")
    read_for_the_start = len(reads)
    assert read_for_the_start >= 1

    game_move_record(acting_user=referee, game_id=games[0].pk, move="23-19")  # moved in place, from the event
    expect(board.locator("[data-ply]")).to_have_text("2")
    expect(board.locator("[data-square='19']")).to_have_attribute("data-piece", "wm")
    assert len(reads) == read_for_the_start

    services.game_result_set(acting_user=director, tournament=tournament, game_id=games[0].pk, result="1-0",
                             reason="Agreed at the board")  # the game ends
    expect(board).to_have_count(0)
    finished = live_page.locator(f"[data-testid=finished-game][data-game-id='{games[0].pk}']")
    expect(finished).to_contain_text("1-0")
    finished.get_by_role("link", name=f"Game {games[0].pk}").click()
    expect(live_page).to_have_url(f"{server.url}/games/{games[0].pk}")


def test_the_live_games_list_polls_where_there_is_no_live_path(world, page):
    from arbitration.services import game_move_record

    _director, referee, _tournament, games = world
    page.goto("/games/")
    expect(page.locator("html")).to_have_attribute("data-live-path", "off")
    expect(page.get_by_test_id("waiting-game")).to_have_count(4)
    game_move_record(acting_user=referee, game_id=games[1].pk, move="9-14")
    board = page.locator(f"[data-testid=playing-game][data-game-id='{games[1].pk}']")
    expect(board).to_be_visible(timeout=8000)  # read again every 3 s
    expect(board.locator("[data-square='14']")).to_have_attribute("data-piece", "bm")
    expect(page.get_by_test_id("waiting-game")).to_have_count(3)
