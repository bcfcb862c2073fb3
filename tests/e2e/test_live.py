"""Pages follow play by push: the game page, the console and the live boards, in Chromium.

The pages are served by the ASGI server (uvicorn, ``config/asgi.py``: pages, API and the live
streams on one port) in its own process against the test database; moves are recorded through
its API (or, while it is down, by the services), clock events by a real worker's sweeper.
"""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def staff(db):
    from accounts.services import token_issue, user_create_with_role
    from players.models import Player
    from tests.support.browser import TEST_PASSWORD

    director = user_create_with_role(username="td", password=TEST_PASSWORD, role="director")
    referee = user_create_with_role(username="rf", password=TEST_PASSWORD, role="referee")
    players = [Player.objects.create(name=f"Player {n}") for n in range(4)]
    return director, referee, players, token_issue(user=referee)


def new_game(staff, players=(0, 1), **options):
    from arbitration.services import game_create

    director, referee, people, _ = staff
    return game_create(acting_user=director, black=people[players[0]], white=people[players[1]],
                       referees=[referee.username], **options)


def post_move(server, token, game_id, move):
    request = urllib.request.Request(
        f"{server.url}/api/v1/games/{game_id}/moves/", data=json.dumps({"move": move}).encode(), method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 201


def wait_live(page):
    expect(page.locator("html")).to_have_attribute("data-live", "open")


@pytest.mark.serial  # timed: within a second of the record, against real processes
def test_a_spectator_sees_a_move_within_a_second_of_its_record_without_reload(staff, server, live_page):
    game = new_game(staff)
    live_page.goto(f"/games/{game.pk}")
    wait_live(live_page)
    requests = []
    live_page.on("request", lambda r: requests.append(r.url) if f"/api/v1/games/{game.pk}/" in r.url else None)
    started = time.monotonic()
    post_move(server, staff[3], game.pk, "11-15")
    expect(live_page.get_by_test_id("ply-1")).to_have_text("11-15", timeout=1000)
    assert time.monotonic() - started < 1.5  # the request's own time included
    assert requests == []  # pushed: no request of the state


def test_a_page_that_loses_its_connection_shows_the_moves_made_meanwhile_in_order(staff, server, live_page):
    from arbitration.services import game_move_record

    game = new_game(staff)
    live_page.goto(f"/games/{game.pk}")
    wait_live(live_page)
    failed = []  # the page's attempts to open its stream again that found no server
    live_page.on("requestfailed", lambda r: failed.append(r.url) if "/live/" in r.url else None)
    server.kill()  # the connection is lost (a graceful stop would wait on the open stream, then kill it)
    expect(live_page.locator("html")).not_to_have_attribute("data-live", "open")
    for move in ("11-15", "23-19", "8-11"):
        game_move_record(acting_user=staff[1], game_id=game.pk, move=move)
    # Down until the page has tried its stream again twice after the moves and found no server (the
    # browser tries every second, the stream's retry): the moves were made while it could not hear them.
    tried = len(failed)
    deadline = time.monotonic() + 30
    while len(failed) < tried + 2:
        assert time.monotonic() < deadline, failed
        live_page.wait_for_timeout(100)  # Playwright's events are handled while it waits
    server.start()
    expect(live_page.get_by_test_id("ply-3")).to_have_text("8-11", timeout=10_000)
    plies = live_page.locator("#move-list button.ply")
    expect(plies).to_have_text(["11-15", "23-19", "8-11"])


@pytest.mark.serial  # timed: the page must be up within the 7 s from the clock's start to the loss
@pytest.mark.celery
def test_the_console_shows_the_servers_time_call_without_polling(staff, server, live_page, clock_workers):
    from arbitration.services import ruling_issue
    from tests.support.browser import sign_in

    game = new_game(staff, clock={"control": "per-move", "move_seconds": 6.0, "grace_seconds": 3.0})
    clock_workers()
    ruling_issue(acting_user=staff[1], game_id=game.pk, kind="clock_start")
    started = time.monotonic()  # time is called 9 s on
    sign_in(live_page, "rf")
    live_page.goto(f"/games/{game.pk}/console")
    wait_live(live_page)
    polls = []
    live_page.on("request", lambda r: polls.append(time.monotonic())
                 if r.url.endswith(f"/api/v1/games/{game.pk}/") else None)
    # Quiet for 1.5 s, or until just before the time call (whose entry the page reads at once, by push):
    # on a busy machine the sign-in can take most of the 9 s.
    quiet_until = min(time.monotonic() + 1.5, started + 8.5)
    expect(live_page.get_by_test_id("clocks")).to_contain_text("Time called", timeout=12000)
    assert [t for t in polls if t < quiet_until] == []  # a running clock polled every 500 ms before


def test_the_live_boards_page_follows_the_round(staff, server, live_page):
    from accounts.services import token_issue
    from tournaments.models import Round, Tournament

    tournament = Tournament.objects.create(name="Live Open", slug="live-open")
    tournament.directors.add(staff[0])
    token = token_issue(user=staff[0])
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.PUBLISHED)
    games = [new_game(staff, players=(0, 1), round=round_), new_game(staff, players=(2, 3), round=round_)]
    live_page.goto("/tournaments/live-open/live/")
    wait_live(live_page)
    post_move(server, token, games[0].pk, "11-15")
    post_move(server, token, games[1].pk, "9-13")
    post_move(server, token, games[0].pk, "23-19")
    expect(live_page.get_by_test_id(f"live-ply-{games[0].pk}")).to_have_text("2 plies")
    expect(live_page.get_by_test_id(f"live-ply-{games[1].pk}")).to_have_text("1 plies")
    board = live_page.get_by_test_id(f"live-board-{games[0].pk}")
    expect(board.locator("[data-square='19']")).to_have_attribute("data-piece", "wm")
    expect(board.locator("[data-square='23']")).to_have_attribute("data-piece", "")
