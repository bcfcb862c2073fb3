"""The clocks live in the browser: a referee starts the clock from the console, watches it count
down, and sees the server call time (Law 25) and adjudicate the loss by delay without
reloading; a visitor's public page follows the same clocks to the result.

The server decides every deadline (a real Celery worker's clock sweeper); the pages only show
what it says. The console runs with its browser's clock 90 s slow, so the display must work
from the offset to the server's clock, not from the browser's clock.
"""

from __future__ import annotations

import re
import time
from datetime import datetime

import pytest

from tests.support.browser import TEST_PASSWORD, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CLOCK = {"control": "per-move", "move_seconds": 2, "sole_capture_seconds": 1, "grace_seconds": 2}
BROWSER_SKEW_MS = -90_000  # the referee's tablet is 90 s slow

# Runs before the page's scripts: skews Date.now, keeps the real clock for the recorder, and
# records every change of the clocks panel with the real time (the host's clock, which is also
# the database's: the same machine).
RECORDER = """
(() => {
  const realNow = Date.now.bind(Date);
  const skew = %(skew)d;
  if (skew) { Date.now = () => realNow() + skew; }
  window.__realNow = realNow;
  window.__clockLog = [];
  const snapshot = () => {
    const text = (id) => { const e = document.querySelector(`[data-testid="${id}"]`); return e ? e.textContent : null; };
    const row = {
      t: realNow(), black: text("clock-black-time"), blackFlag: text("clock-black-flag"),
      white: text("clock-white-time"), status: text("clock-status"),
    };
    const last = window.__clockLog[window.__clockLog.length - 1];
    if (!last || last.black !== row.black || last.blackFlag !== row.blackFlag || last.status !== row.status ||
        last.white !== row.white) {
      window.__clockLog.push(row);
    }
  };
  document.addEventListener("DOMContentLoaded", () => {
    const section = document.getElementById("clocks");
    if (section) {
      new MutationObserver(snapshot).observe(section, { subtree: true, childList: true, characterData: true, attributes: true });
      snapshot();
    }
  });
})();
"""


def _seconds(text: str) -> float:
    """Reads a clock face: "0:01.9" or "4:59"."""
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + float(seconds)


def _game(referee_username: str):
    from accounts.services import user_create_with_role
    from arbitration.services import game_create
    from players.models import Player

    director = user_create_with_role(username="td", password=TEST_PASSWORD, role="director")
    return game_create(
        acting_user=director, black=Player.objects.create(name="Agnes Calder"),
        white=Player.objects.create(name="Bram Okafor"), rule_set="standard", referees=[referee_username],
        clock=CLOCK,
    )


def _wait_for_sweeper(worker, timeout: float = 60.0) -> None:
    """Waits until the worker's pool process logs that its clock sweeper runs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if worker.log_path and worker.log_path.exists() and "clock sweeper started" in worker.log_path.read_text(
            errors="replace"
        ):
            return
        time.sleep(0.1)
    raise AssertionError("the worker's clock sweeper did not start")


def _ms(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp() * 1000


def test_the_clocks_count_down_and_show_time_called_and_the_loss_by_delay_live(
    page, browser, live_server, make_user, clock_workers, tmp_path,
):
    from playwright.sync_api import expect

    from arbitration.models import LogEntry
    from games.models import Game

    make_user("ref", "referee")
    game = _game("ref")

    # The worker and its sweeper first, so that the deadlines are enforced as they fall due.
    worker = clock_workers()
    _wait_for_sweeper(worker)

    page.add_init_script(RECORDER % {"skew": BROWSER_SKEW_MS})
    sign_in(page, "ref")
    page.goto(f"/games/{game.id}/console")
    expect(page.get_by_test_id("game-status")).to_contain_text("Black to move")
    clocks = page.get_by_test_id("clocks")
    expect(clocks).to_be_visible()
    expect(page.get_by_test_id("clock-status")).to_contain_text("Not started")
    expect(page.get_by_test_id("clock-black-time")).to_have_text("0:02.0")
    expect(page.get_by_test_id("clock-white-time")).to_have_text("0:02.0")
    expect(page.get_by_test_id("clock-control")).to_contain_text("2 s a move")
    expect(page.get_by_test_id("ruling-clock_pause")).to_be_disabled()
    expect(page.get_by_test_id("ruling-clock_resume")).to_be_disabled()
    expect(page.get_by_test_id("ruling-clock_adjust")).to_have_count(0)  # directors only

    # A visitor follows the game on the public page (a browser of his own, not signed in).
    visitor_context = browser.new_context(base_url=live_server.url)
    visitor_context.set_default_timeout(10_000)
    visitor = visitor_context.new_page()
    visitor.add_init_script(RECORDER % {"skew": 0})
    visitor.goto(f"/games/{game.id}")
    expect(visitor.get_by_test_id("clocks")).to_be_visible()
    expect(visitor.get_by_test_id("clock-status")).to_contain_text("Not started")
    expect(visitor.get_by_test_id("clock-black-name")).to_have_text("Agnes Calder")

    # Start the clock: the button asks for confirmation, like every ruling.
    start = page.get_by_role("button", name="Start clock (Laws 24-25)")
    start.click()
    dialog = page.get_by_test_id("ruling-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Start clock (Laws 24-25)")
    dialog.get_by_role("button", name="Confirm").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("clock-black")).to_have_class(re.compile(r"\bis-running\b"))
    expect(page.get_by_test_id("ruling-clock_start")).to_be_disabled()
    expect(page.get_by_test_id("ruling-clock_pause")).to_be_enabled()
    start_entry = LogEntry.objects.get(game=game, kind="clock_start")
    assert start_entry.law == "24" and start_entry.side == "black"
    deadline_ms = start_entry.created_at.timestamp() * 1000 + CLOCK["move_seconds"] * 1000

    # Time called appears by itself, then the loss by delay, without a reload.
    status = page.get_by_test_id("clock-status")
    expect(status).to_contain_text("Time called on Black", timeout=15_000)
    expect(page.get_by_test_id("clock-black-flag")).to_have_text("Time called")
    expect(page.get_by_test_id("clock-black")).to_have_class(re.compile(r"\bis-called\b"))
    expect(page.get_by_test_id("log").locator("tbody tr").first).to_contain_text("Time called", timeout=5_000)
    expect(status).to_contain_text("Loss by delay", timeout=15_000)
    expect(page.get_by_test_id("game-status")).to_contain_text("White won (0-1)")
    expect(page.get_by_test_id("termination")).to_contain_text("loss_by_delay")
    expect(page.get_by_test_id("clock-black-flag")).to_have_text("Loss by delay")
    expect(page.get_by_test_id("log").locator("tbody tr").first).to_contain_text("Game ended")
    expect(page.get_by_test_id("ruling-clock_pause")).to_be_disabled()

    # The visitor's page followed: its clocks and the result.
    expect(visitor.get_by_test_id("clock-status")).to_contain_text("Loss by delay", timeout=10_000)
    expect(visitor.get_by_test_id("result")).to_contain_text("White won (0-1)")
    expect(visitor.get_by_test_id("termination")).to_have_text("Loss by improper delay (Laws 24-25)")
    expect(visitor.get_by_test_id("clock-black-flag")).to_have_text("Loss by delay")
    page.screenshot(path=str(tmp_path / "console-loss-by-delay.png"), full_page=True)
    visitor.screenshot(path=str(tmp_path / "game-page-loss-by-delay.png"), full_page=True)
    console_log = page.evaluate("window.__clockLog")
    visitor_log = visitor.evaluate("window.__clockLog")
    visitor_context.close()

    # The server's record: time called at the deadline, the loss when the grace had passed.
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == (Game.Status.FINISHED, "0-1", "loss_by_delay")
    call = LogEntry.objects.get(game=game, kind="time_call")
    end = LogEntry.objects.get(game=game, kind="game_end")
    assert call.law == "25" and call.side == "black"
    assert abs(_ms(call.data["deadline"]) - deadline_ms) < 50
    called_ms = call.created_at.timestamp() * 1000

    rows = {
        name: [row for row in console_log if row["status"] and row["status"].startswith(prefix)]
        for name, prefix in (("running", "Running"), ("called", "Time called"), ("lost", "Loss by delay"))
    }
    assert rows["running"] and rows["called"] and rows["lost"], console_log
    # While it runs, Black's clock counts down smoothly from 2 s (in tenths, never back up), on
    # the server's time although the browser's clock is 90 s slow.
    values = [_seconds(row["black"]) for row in rows["running"]]
    assert values == sorted(values, reverse=True), values
    assert values[0] <= 2.0 and len(set(values)) >= 5, values
    # Just before the call, the face had run down to (nearly) nothing.
    assert _seconds(rows["running"][-1]["black"]) <= 0.5, rows["running"][-1]
    # Time called shows after the server called it, under a second later, and loosely within
    # 1.5 s of the deadline.
    shown = rows["called"][0]["t"]
    assert called_ms - 50 <= shown <= deadline_ms + 1500, (shown - deadline_ms, called_ms - deadline_ms)
    assert shown - called_ms < 1000, shown - called_ms
    # The grace counts down after the call; then the loss shows soon after the server decided it.
    grace = [_seconds(row["black"]) for row in rows["called"]]
    assert grace == sorted(grace, reverse=True) and grace[0] <= CLOCK["grace_seconds"], grace
    assert rows["lost"][0]["t"] - end.created_at.timestamp() * 1000 < 1500

    # The public page polls every 3 s until it sees the clock run (then every 500 ms): it may
    # have missed the start, but whatever it showed ran down, and it ended on the result.
    running = [_seconds(row["black"]) for row in visitor_log if (row["status"] or "").startswith("Running")]
    assert running == sorted(running, reverse=True) and all(value <= 2.0 for value in running), running
    assert any((row["status"] or "").startswith("Loss by delay") for row in visitor_log), visitor_log
    assert worker.process.poll() is None


def test_a_director_pauses_adjusts_and_resumes_the_clock_from_the_console(page, make_user):
    from playwright.sync_api import expect

    from arbitration.models import LogEntry
    from arbitration.services import game_create
    from players.models import Player

    director = make_user("td", "director")
    game = game_create(
        acting_user=director, black=Player.objects.create(name="Agnes Calder"),
        white=Player.objects.create(name="Bram Okafor"), rule_set="standard",
        clock={"control": "per-move", "move_seconds": 300, "sole_capture_seconds": 60, "grace_seconds": 60},
    )
    sign_in(page, "td")
    page.goto(f"/games/{game.id}/console")
    black = page.get_by_test_id("clock-black-time")
    expect(black).to_have_text("5:00")
    dialog = page.get_by_test_id("ruling-dialog")

    def rule(button: str, fill=None) -> None:
        page.get_by_role("button", name=button).click()
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text(button)
        if fill:
            fill()
        dialog.get_by_role("button", name="Confirm").click()
        expect(dialog).to_be_hidden()

    rule("Start clock (Laws 24-25)")
    expect(black).to_have_text(re.compile(r"^4:5\d$"), timeout=5_000)

    rule("Pause clock (Law 28)")
    status = page.get_by_test_id("clock-status")
    expect(status).to_contain_text("paused")
    expect(page.get_by_test_id("clock-black-flag")).to_have_text("paused")
    expect(page.get_by_test_id("clock-black")).not_to_have_class(re.compile(r"\bis-running\b"))
    expect(page.get_by_test_id("ruling-clock_resume")).to_be_enabled()
    frozen = black.text_content()
    page.wait_for_timeout(1_200)
    expect(black).to_have_text(frozen)
    pause = LogEntry.objects.get(game=game, kind="clock_pause")
    assert pause.law == "28"

    def adjust() -> None:
        dialog.get_by_label("Black").check()
        dialog.get_by_label("Seconds to add").fill("30.5")
        dialog.get_by_label("Reason").fill("The clock ran during the dispute.")

    rule("Adjust clock", adjust)
    adjusted = LogEntry.objects.get(game=game, kind="clock_adjust")
    assert adjusted.data["seconds"] == 30.5
    assert adjusted.side == "black" and adjusted.note == "The clock ran during the dispute."
    expect(black).to_have_text(re.compile(r"^5:[23]\d$"))
    expect(page.get_by_test_id("log").locator("tbody tr").first).to_contain_text("Clock adjusted")

    rule("Resume clock")
    expect(status).to_contain_text("Running: Black's clock")
    expect(page.get_by_test_id("clock-black")).to_have_class(re.compile(r"\bis-running\b"))
    expect(page.get_by_test_id("ruling-clock_start")).to_be_disabled()
