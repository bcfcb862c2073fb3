"""The notification pages in the browser: a player's choices, the unsubscribe link followed without signing in,
a director's list of what was sent and a round's time set on the manage page; each passes axe and fits a phone."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.core import mail
from playwright.sync_api import expect

from notifications.models import Notification, Unsubscription
from tests.e2e.test_accessibility import axe_serious, sideways
from tests.support.browser import sign_in
from tests.tournaments.test_services import make_players, running_tournament
from tournaments import services
from tournaments.models import Round

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def check(page) -> None:  # noqa: ANN001
    """Fails on a serious axe violation at 390 and 1280 px, or a sideways scroll at 390 px."""
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 844})
        assert axe_serious(page) == [], (page.url, width)
        if width == 390:
            assert sideways(page) is None, page.url


def test_a_player_chooses_unsubscribes_by_the_link_and_the_director_sees_it_all(page, director, make_user):
    players = make_players(4)
    for n, player in enumerate(players[:3]):
        account = make_user(f"player{n}", "player")
        account.email = f"player{n}@example.org"
        account.save(update_fields=["email"])
        player.user = account
        player.save(update_fields=["user"])
    tournament = running_tournament(director, players)
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)  # commits: sent
    assert Notification.objects.filter(status="sent").count() == 3

    sign_in(page, "player1")
    page.goto("/notifications/")
    check(page)
    page.get_by_label("A result of yours to confirm").uncheck()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_test_id("saved")).to_be_visible()
    assert list(Unsubscription.objects.values_list("user__username", "kind")) == [("player1", "result_to_confirm")]
    page.context.clear_cookies()

    [message] = [m for m in mail.outbox if m.to == ["player0@example.org"]]
    link = re.search(r"http://[^/\s]+(/notifications/unsubscribe/\S+/)", message.body).group(1)
    page.goto(link)
    check(page)
    page.get_by_test_id("unsubscribe-button").click()
    expect(page.get_by_test_id("unsubscribed")).to_be_visible()
    check(page)
    assert Unsubscription.objects.filter(user__username="player0", kind="round_published").exists()

    sign_in(page, director.username)
    page.goto(f"/tournaments/{tournament.slug}/manage/")
    page.get_by_test_id("messages-sent-link").click()
    expect(page.get_by_test_id("notification")).to_have_count(4)
    expect(page.locator('[data-status="no_email"]')).to_have_count(1)
    check(page)
    page.goto(f"/tournaments/{tournament.slug}/manage/")
    for game in round_.games.all():
        services.game_result_set(acting_user=director, tournament=tournament, game_id=game.pk, result="1-0",
                                 reason="slip")
    services.round_pair(acting_user=director, tournament=tournament)
    page.goto(f"/tournaments/{tournament.slug}/manage/")
    form = page.get_by_test_id("schedule-form-2")
    form.get_by_label("Round 2 starts at").fill("2030-05-02T10:00")
    form.get_by_role("button", name="Set the time").click()
    expect(page.get_by_text("Round 2 starts at 2030-05-02 10:00.")).to_be_visible()
    check(page)
    assert Round.objects.get(tournament=tournament, number=2).scheduled_at == datetime(2030, 5, 2, 10, tzinfo=UTC)
