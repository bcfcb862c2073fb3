"""A console that survives the hall's network: a referee on a phone (390x844) plays on through a cut.

The moves entered while the connection is down are kept in the browser (localStorage, each with
its ply), shown as "waiting to send" and drawn on the board, and sent in order when it returns;
the server's record then has each once, even when an answer was lost on its way back (the move
is sent again with its ply, the server answers 409 ply_conflict, and the console finds the move
already recorded at that ply). A move refused on arrival (a ply another referee took, an illegal
move) is shown plainly, with what followed it held, and nothing is recorded in its place.

How the network is cut: Playwright's ``context.set_offline(True)`` (every request of the page
fails, ``navigator.onLine`` is false). For the reload with no network at all, the server's
process is stopped as well (the first test runs on its own uvicorn process, ``server``), so that
nothing can reach it while the page reloads: the console comes from the copy its service worker
kept (templates/games/console-worker.js), and the game's last state read and the moves waiting
from the browser's storage. The lost answer is made by letting one POST reach the server and
aborting its answer (``route.fetch()`` then ``route.abort()``).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support.browser import TEST_PASSWORD, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _game(referee_username: str):
    from accounts.services import user_create_with_role
    from arbitration.services import game_create
    from players.models import Player

    director = user_create_with_role(username="td", password=TEST_PASSWORD, role="director")
    game = game_create(
        acting_user=director, black=Player.objects.create(name="Agnes Calder"),
        white=Player.objects.create(name="Bram Okafor"), rule_set="standard", referees=[referee_username],
    )
    return director, game


def _recorded(game) -> list[str]:
    return list(game.moves.filter(superseded_by__isnull=True).order_by("ply").values_list("pdn", flat=True))


def _no_sideways_scroll(page) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width


def test_a_referee_on_a_phone_plays_on_through_a_network_cut_and_nothing_is_lost_or_doubled(
        live_page, server, make_user):
    from arbitration.models import LogEntry

    page = live_page
    make_user("ref1", "referee")
    _director, game = _game("ref1")
    moves_url = f"**/api/v1/games/{game.id}/moves/"
    page.set_viewport_size(PHONE)
    sign_in(page, "ref1")
    page.goto(f"/games/{game.id}/console")
    expect(page.get_by_test_id("game-status")).to_contain_text("Black to move")
    # The console is kept in this browser (its service worker) for a reload without network.
    expect(page.get_by_test_id("offline-ready")).to_be_visible()

    # 1. 11-15 with the network up.
    page.get_by_test_id("square-11").click()
    page.get_by_test_id("square-15").click()
    expect(page.get_by_test_id("move-1")).to_have_text("11-15")

    # The network drops. 22-18 is clicked: kept, waiting to send.
    page.context.set_offline(True)
    page.get_by_test_id("square-22").click()
    page.get_by_test_id("square-18").click()
    outbox = page.get_by_test_id("outbox-item")
    expect(outbox).to_have_count(1)
    expect(outbox.first).to_have_attribute("data-status", "waiting")
    expect(outbox.first).to_contain_text("22-18")
    expect(outbox.first).to_contain_text("waiting to send")
    expect(page.get_by_test_id("connection")).to_contain_text("No connection")
    # The board shows it: the man of 22 on 18.
    expect(page.get_by_test_id("square-18")).to_have_attribute("data-piece", "wm")
    expect(page.get_by_test_id("square-22")).to_have_attribute("data-piece", "")

    # 2. 15x22 clicked on the board as drawn (a jump: the console waits for more, "Stop here" ends it).
    page.get_by_test_id("square-15").click()
    page.get_by_test_id("square-22").click()
    page.get_by_test_id("stop-here").click()
    # 2... 25x18 typed.
    page.get_by_label("Move (PDN)").fill("25x18")
    page.get_by_label("Move (PDN)").press("Enter")
    expect(outbox).to_have_count(3)
    expect(outbox.nth(1)).to_contain_text("15x22")
    expect(outbox.nth(2)).to_contain_text("25x18")
    assert [outbox.nth(i).get_attribute("data-ply") for i in range(3)] == ["2", "3", "4"]
    expect(page.get_by_test_id("square-18")).to_have_attribute("data-piece", "wm")
    expect(page.get_by_test_id("square-22")).to_have_attribute("data-piece", "")
    expect(page.get_by_test_id("square-25")).to_have_attribute("data-piece", "")
    _no_sideways_scroll(page)
    game.refresh_from_db()
    assert game.ply == 1 and _recorded(game) == ["11-15"]

    # A reload with no network at all (the server is down too): the console kept by the service
    # worker opens, at the state the console last read (1. 11-15, kept in the browser: the copy
    # of the page kept is of before it), with the moves kept on the board and waiting.
    server.stop()
    page.reload()
    expect(page.get_by_test_id("move-1")).to_have_text("11-15")
    expect(outbox).to_have_count(3)
    for i, move in enumerate(["22-18", "15x22", "25x18"]):
        expect(outbox.nth(i)).to_contain_text(move)
        expect(outbox.nth(i)).to_have_attribute("data-status", re.compile("waiting|sending"))
    expect(page.get_by_test_id("connection")).to_contain_text("No connection")
    expect(page.get_by_test_id("square-18")).to_have_attribute("data-piece", "wm")
    expect(page.get_by_test_id("square-25")).to_have_attribute("data-piece", "")
    _no_sideways_scroll(page)
    server.start()
    game.refresh_from_db()
    assert game.ply == 1

    # The connection returns; the first answer is lost on its way back (the move is recorded).
    answers: list[int] = []
    page.on("response", lambda response: answers.append(response.status)
            if response.url.endswith("/moves/") and response.request.method == "POST" else None)
    lost = {"done": False}

    def first_answer_lost(route):
        if route.request.method == "POST" and not lost["done"]:
            lost["done"] = True
            route.fetch()
            route.abort()
            return
        route.continue_()

    page.route(moves_url, first_answer_lost)
    page.context.set_offline(False)
    expect(page.get_by_test_id("move-4")).to_have_text("25x18", timeout=15_000)
    expect(page.get_by_test_id("move-2")).to_have_text("22-18")
    expect(page.get_by_test_id("move-3")).to_have_text("15x22")
    expect(page.get_by_test_id("outbox")).to_be_hidden()
    # The lost 22-18 is not recorded twice: its retry is answered 409 ply_conflict and found
    # recorded, or the console saw it in a state it read first and sent no retry at all.
    assert set(answers) <= {201, 409} and answers.count(201) == 2, answers

    game.refresh_from_db()
    assert game.ply == 4
    assert _recorded(game) == ["11-15", "22-18", "15x22", "25x18"]
    assert list(LogEntry.objects.filter(game=game, kind="move").order_by("seq").values_list("ply", flat=True)) == [
        1, 2, 3, 4,
    ]
    assert page.evaluate(f"() => localStorage.getItem('draughts-console-outbox:{game.id}')") is None
    page.get_by_test_id("verify-log").click()
    expect(page.get_by_test_id("verify-result")).to_contain_text("The chain holds")

    # Signing out deletes the consoles kept: the next person at this browser cannot open one offline.
    assert page.evaluate("() => caches.has('draughts-console')")
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
    page.wait_for_function("async () => !(await caches.has('draughts-console'))")


def test_moves_refused_on_arrival_are_shown_plainly_and_nothing_is_recorded_in_their_place(page, make_user):
    from arbitration.services import game_move_record

    make_user("ref2", "referee")
    director, game = _game("ref2")
    page.set_viewport_size(PHONE)
    sign_in(page, "ref2")
    page.goto(f"/games/{game.id}/console")
    expect(page.get_by_test_id("game-status")).to_contain_text("Black to move")

    # Offline, 11-15 and 22-18 are typed; meanwhile the director records 9-14 for ply 1.
    page.context.set_offline(True)
    field = page.get_by_label("Move (PDN)")
    field.fill("11-15")
    field.press("Enter")
    field.fill("22-18")
    field.press("Enter")
    outbox = page.get_by_test_id("outbox-item")
    expect(outbox).to_have_count(2)
    game_move_record(acting_user=director, game_id=game.id, move="9-14", ply=1)

    # Back online: ply 1 is taken by another move; 11-15 is refused, 22-18 (after it) held.
    page.context.set_offline(False)
    expect(outbox.first).to_have_attribute("data-status", "refused", timeout=15_000)
    expect(outbox.first).to_contain_text("11-15")
    expect(outbox.first.get_by_test_id("outbox-reason")).to_contain_text("9-14")
    expect(outbox.nth(1)).to_have_attribute("data-status", "held")
    expect(page.get_by_test_id("alert")).to_contain_text("Not recorded: 11-15")
    expect(page.get_by_test_id("move-1")).to_have_text("9-14")
    page.wait_for_timeout(2500)  # a retry period: nothing else is sent
    game.refresh_from_db()
    assert _recorded(game) == ["9-14"]

    # The referee dismisses the refused move and sends the held one, now ply 2.
    page.get_by_test_id("outbox-send").click()
    expect(page.get_by_test_id("move-2")).to_have_text("22-18")
    expect(page.get_by_test_id("outbox")).to_be_hidden()
    game.refresh_from_db()
    assert _recorded(game) == ["9-14", "22-18"]

    # An illegal move typed offline (no piece on 9 any more) is refused on arrival with the reason.
    page.context.set_offline(True)
    field.fill("9-13")
    field.press("Enter")
    expect(outbox).to_have_count(1)
    page.context.set_offline(False)
    expect(outbox.first).to_have_attribute("data-status", "refused", timeout=15_000)
    expect(outbox.first.get_by_test_id("outbox-reason")).to_contain_text("there is no black piece on 9")
    expect(page.get_by_test_id("alert")).to_contain_text("Not recorded: 9-13")
    game.refresh_from_db()
    assert _recorded(game) == ["9-14", "22-18"]
    # Kept until dismissed, across a reload too.
    page.reload()
    expect(outbox).to_have_count(1)
    expect(outbox.first).to_have_attribute("data-status", "refused")


def test_a_state_read_before_a_move_and_answered_after_it_does_not_put_the_console_back_a_ply(
        browser, live_server, make_user):
    """A read of the game sent before a move is recorded and answered after the move's own answer (a slow
    poll crossing a quick write) carries the older state: the console keeps the newer one, so the next
    move goes for the next ply and is recorded, instead of being sent for a ply already taken and refused
    ("Ply 1 is already recorded as 11-15"). (The console's service worker is blocked here: once it
    controls the page, the API's requests are routed past the page, where the test could not hold one.)"""
    make_user("ref3", "referee")
    _, game = _game("ref3")
    context = browser.new_context(base_url=live_server.url, service_workers="block")
    context.set_default_timeout(10_000)
    page = context.new_page()
    sign_in(page, "ref3")
    page.goto(f"/games/{game.id}/console")
    expect(page.get_by_test_id("game-status")).to_contain_text("Black to move")

    held = []  # the first read of the game's state: made now, given to the page later

    def hold_one_read(route):
        if route.request.method == "GET" and not held:
            held.append((route, route.fetch()))
            return
        route.continue_()

    page.route(re.compile(rf".*/api/v1/games/{game.id}/$"), hold_one_read)
    for _ in range(100):  # the console reads the state every 2 s
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the console read no state"
    field = page.get_by_label("Move (PDN)")
    field.fill("11-15")
    field.press("Enter")
    expect(page.get_by_test_id("move-1")).to_have_text("11-15")
    route, before_the_move = held[0]
    assert before_the_move.json()["ply"] == 0
    # The old state arrives after the move's answer; the connection drops at once (no later read can
    # mend what the desk holds), and the next move is typed: it waits with the ply it is to have.
    route.fulfill(response=before_the_move)
    page.context.set_offline(True)
    field.fill("22-18")
    field.press("Enter")
    outbox = page.get_by_test_id("outbox-item")
    expect(outbox).to_have_count(1)
    expect(outbox.first).to_have_attribute("data-ply", "2")
    page.context.set_offline(False)
    expect(page.get_by_test_id("move-2")).to_have_text("22-18", timeout=15_000)
    expect(page.get_by_test_id("outbox")).to_be_hidden()
    game.refresh_from_db()
    assert _recorded(game) == ["11-15", "22-18"]
    context.close()
