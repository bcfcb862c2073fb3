"""The pages pass their Content-Security-Policy: no violation in the browser, on any main page.

Every page is served with the policy of config/settings.py (scripts, styles, images only from
the server, no inline script or style); the API docs page with its own (config/urls.py). A
listener installed before any page script records each ``securitypolicyviolation`` event, and
the console's CSP errors are collected too; an inline script injected on purpose shows that the
listener does see a violation.
"""

from __future__ import annotations

import pytest

from tests.support.browser import TEST_PASSWORD, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LISTENER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + event.blockedURI + " " + event.sourceFile
                              + ":" + event.lineNumber);
});
"""


def _world():
    """A running round robin with round 1 published (its games refereed by ref1)."""
    from accounts.services import user_create_with_role
    from games.models import Game
    from players.models import Player
    from tournaments import services

    director = user_create_with_role(username="td", password=TEST_PASSWORD, role="director")
    user_create_with_role(username="ref1", password=TEST_PASSWORD, role="referee")
    players = [Player.objects.create(name=name, club="Leith", rating=2000 - i)
               for i, name in enumerate(["Agnes Calder", "Bram Okafor", "Cora Dunn", "Dev Rao"])]
    tournament = services.tournament_create(acting_user=director, name="Spring Open", slug="spring",
                                            format="round_robin", opening="go-as-you-please", referees=["ref1"])
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    for player in players:
        services.entry_add(acting_user=director, tournament=tournament, player=player)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="running")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    return tournament, Game.objects.filter(round__tournament=tournament).order_by("id").first()


def _watch(page) -> list[str]:
    page.add_init_script(LISTENER)
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text)
            if msg.type == "error" and "Content Security Policy" in msg.text else None)
    return errors


def _visit(page, path: str, console_errors: list[str]) -> None:
    response = page.goto(path, wait_until="networkidle")
    assert response is not None and response.status == 200, path
    assert "script-src 'self'" in response.headers["content-security-policy"], path
    assert page.evaluate("window.__cspViolations") == [], path
    assert console_errors == [], path


def test_the_main_pages_raise_no_csp_violation(page):
    from playwright.sync_api import expect

    tournament, game = _world()
    errors = _watch(page)
    for path in ("/", "/accounts/login/", f"/tournaments/{tournament.slug}/", f"/games/{game.id}"):
        _visit(page, path, errors)
    expect(page.get_by_test_id("board")).to_be_visible()  # the game page's ES modules ran

    sign_in(page, "ref1")
    _visit(page, f"/games/{game.id}/console", errors)
    expect(page.get_by_test_id("legal-moves")).to_contain_text("9-13")  # the console's modules ran
    _visit(page, f"/tournaments/{tournament.slug}/", errors)


def test_the_directors_pages_raise_no_csp_violation(page):
    tournament, game = _world()
    errors = _watch(page)
    sign_in(page, "td")
    for path in ("/tournaments/manage/", f"/tournaments/{tournament.slug}/manage/",
                 f"/tournaments/{tournament.slug}/players/{game.black_id}/", "/tournaments/",
                 "/games/", "/admin/"):
        _visit(page, path, errors)


def test_the_api_docs_render_under_their_own_policy(page):
    from playwright.sync_api import expect

    errors = _watch(page)
    _visit(page, "/api/v1/docs/", errors)
    expect(page.get_by_text("Draughts tournament and arbitration API").first).to_be_visible()
    expect(page.locator(".opblock").first).to_be_visible()  # the operations are listed
    assert page.evaluate("window.__cspViolations") == [] and errors == []


def test_an_inline_script_is_blocked_and_seen(page):
    errors = _watch(page)
    _visit(page, "/accounts/login/", errors)
    page.evaluate("""() => {
        const script = document.createElement("script");
        script.textContent = "window.__ran = true";
        document.body.appendChild(script);
    }""")
    page.wait_for_function("window.__cspViolations.length > 0")
    assert page.evaluate("window.__ran") is None
    assert page.evaluate("window.__cspViolations")[0].startswith("script-src")
