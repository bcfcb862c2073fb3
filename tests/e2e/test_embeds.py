"""The embeds in Chromium, inside a page of another origin (a club's website): the standings table
shows and follows a result by push, a live board follows a move by push; a normal page of the site
refuses to be shown in that frame.

The club's page is served by a small HTTP server of the test at http://localhost:<its port>/, another
origin (and site) than the server's http://127.0.0.1:<port>; it is a real server on the loopback, since
Chromium's Local Network Access refuses a page with no address (one fulfilled by Playwright's router)
framing a local one. The frames come from the ASGI server (uvicorn: pages and /live/ streams) in its
own process.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

@pytest.fixture
def world(transactional_db):
    """A round robin of 4 with round 1 published (tests/support/integrations_world.py)."""
    from tests.support.integrations_world import published_round

    return published_round()


@pytest.fixture
def club_site():
    """A club's website: an HTTP server in a thread of the test, serving the page set in ``pages[path]``."""
    pages: dict[str, str] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            body = pages.get(self.path, "").encode()
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    site = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    site.pages = pages
    yield site
    site.shutdown()
    site.server_close()


def club_page(live_page, club_site, server, frames: dict[str, str]) -> None:
    """Opens the club's page (another origin) holding an iframe for each (id, url on the server)."""
    club = f"http://localhost:{club_site.server_address[1]}/"
    html = "<!doctype html><html lang='en'><head><title>Leith Draughts Club</title></head><body><h1>Our club</h1>"
    html += "".join(f"<iframe id='{name}' title='{name}' src='{url}' width='600' height='400'></iframe>"
                    for name, url in frames.items())
    html += "</body></html>"
    assert all(url.startswith(server.url) for url in frames.values()) and not club.startswith(server.url)
    club_site.pages["/"] = html
    live_page.goto(club)


def test_an_embed_on_another_site_shows_the_standings_and_follows_play_by_push(world, server, live_page, club_site):
    from arbitration.services import game_move_record
    from tournaments import services
    from tournaments.models import MatchGame

    games = world["games"]
    club_page(live_page, club_site, server, {"standings": f"{server.url}/embed/tournaments/spring/standings/",
                          "board": f"{server.url}/embed/tournaments/spring/live/"})
    standings = live_page.frame_locator("#standings")
    expect(standings.get_by_test_id("standings-row")).to_have_count(4)
    board = live_page.frame_locator("#board")
    expect(board.locator("html")).to_have_attribute("data-live", "open")
    expect(standings.locator("html")).to_have_attribute("data-live", "open")
    expect(board.get_by_test_id(f"live-ply-{games[0].pk}")).to_have_text("0 plies")
    game_move_record(acting_user=world["referee"], game_id=games[0].pk, move="11-15")
    expect(board.get_by_test_id(f"live-ply-{games[0].pk}")).to_have_text("1 plies")

    match = MatchGame.objects.get(game=games[0]).match
    leader = match.player_one.name
    row = standings.get_by_test_id("standings-row").filter(has_text=leader)
    expect(row.locator("td.points")).to_have_text("0")
    for mg in MatchGame.objects.filter(match=match).select_related("game"):
        winner = "1-0" if mg.game.black_id == match.player_one_id else "0-1"
        services.game_result_set(acting_user=world["director"], tournament=world["tournament"], game_id=mg.game_id,
                                 result=winner, reason="Recorded at the board")
    expect(standings.get_by_test_id("standings-row").first).to_contain_text(leader)
    expect(row.locator("td.points")).not_to_have_text("0")


def test_a_normal_page_refuses_to_be_framed_by_another_site(world, server, live_page, club_site):
    blocked = []
    live_page.on("console", lambda msg: blocked.append(msg.text) if "frame-ancestors" in msg.text else None)
    club_page(live_page, club_site, server, {"page": f"{server.url}/tournaments/spring/",
                          "embed": f"{server.url}/embed/tournaments/spring/standings/"})
    expect(live_page.frame_locator("#embed").get_by_test_id("standings-row")).to_have_count(4)
    # The tournament's page was refused: its frame holds no part of it (Chromium shows its error page there).
    assert live_page.frame_locator("#page").get_by_test_id("standings").count() == 0
    assert live_page.frame_locator("#page").get_by_test_id("main-nav").count() == 0
    assert any("frame-ancestors" in text for text in blocked), blocked


def test_the_embeds_and_the_webhooks_page_pass_axe_on_a_phone(world, page, settings):
    """axe-core finds no serious violation and nothing scrolls sideways at 390 px: the three embeds,
    and the webhooks page of the director with a webhook and a delivery in its log."""
    from django.utils import timezone

    from integrations import services
    from integrations.models import WebhookDelivery, WebhookStream
    from tests.e2e.test_accessibility import axe_serious, sideways
    from tests.support.browser import sign_in

    settings.WEBHOOK_ALLOW_LOOPBACK = True
    page.set_viewport_size({"width": 390, "height": 844})
    for path in ["/embed/tournaments/spring/standings/", "/embed/tournaments/spring/rounds/1/pairings/",
                 "/embed/tournaments/spring/live/"]:
        page.goto(path)
        assert axe_serious(page) == [], path
        assert sideways(page) is None, path
    hook = services.webhook_create(acting_user=world["director"], tournament=world["tournament"],
                                   url="http://127.0.0.1:9/hook", events=["move"])
    stream = WebhookStream.objects.create(webhook=hook, key="g:1", last_seq=1)
    WebhookDelivery.objects.create(webhook=hook, stream=stream, seq=1, event="move", body="{}", status="failed",
                                   attempts=3, last_status_code=500, last_answer="not now",
                                   next_attempt_at=timezone.now(), give_up_at=timezone.now())
    sign_in(page, "td")
    page.goto("/tournaments/spring/webhooks/")
    expect(page.get_by_test_id("delivery")).to_have_count(1)
    assert axe_serious(page) == []
    assert sideways(page) is None
