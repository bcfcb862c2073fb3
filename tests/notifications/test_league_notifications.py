"""League messages: the fixture reminder (players on a submitted sheet and both captains, once per match and
person) and a postponement's steps (both captains), read back from the outbox and from the file backend.

The tasks run eagerly in the test's process; the on-commit hooks by ``django_capture_on_commit_callbacks``.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from leagues import services
from leagues.models import Fixture, Postponement
from notifications.models import Notification
from notifications.tasks import fixture_reminder_notify, fixture_reminders_sweep
from players.models import Player
from tests.leagues.conftest import build_league, captain_of, sheet
from tests.support.mail_files import messages_in

pytestmark = pytest.mark.django_db


def _account(make_user, player: Player, username: str) -> str:
    account = make_user(username, "player")
    account.email = f"{username}@example.org"
    account.save(update_fields=["email"])
    player.user = account
    player.save(update_fields=["user"])
    return account.email


@pytest.fixture
def match(make_user):
    """A league of two teams; both captains and the home team's top two boards with addresses."""
    world = build_league(make_user, slug="notes", teams=2, boards=4)
    services.fixtures_make(acting_user=world.secretary, season=world.season, division=world.division)
    fixture = Fixture.objects.filter(season=world.season).select_related("home", "away").order_by("round", "id")[0]
    for n, team in enumerate((fixture.home, fixture.away)):
        captain = captain_of(world, team)
        captain.email = f"captain{n}@example.org"
        captain.save(update_fields=["email"])
        Player.objects.create(name=f"Captain {n}", user=captain)
    for board in (0, 1):
        _account(make_user, world.players[fixture.home.pk][board], f"home{board + 1}")
    return world, fixture


def to(address):
    return [m for m in mail.outbox if m.to == [address]]


def test_a_near_match_reminds_its_sheet_players_and_captains_once(match, django_capture_on_commit_callbacks):
    world, fixture = match
    services.fixture_date_set(acting_user=world.secretary, fixture=fixture, on=timezone.localdate() + timedelta(days=1))
    services.sheet_submit(acting_user=captain_of(world, fixture.home), fixture=fixture, side="home",
                          players=sheet(world, fixture.home))
    assert fixture_reminders_sweep() == [fixture.pk]
    assert sorted(m.to[0] for m in mail.outbox) == ["captain0@example.org", "captain1@example.org",
                                                    "home1@example.org", "home2@example.org"]
    [message] = to("home2@example.org")
    assert message.subject.endswith("(you play board 2)") and fixture.home.name in message.subject
    assert f"You play board 2 for {fixture.home.name}" in message.body
    assert "/notifications/unsubscribe/" in message.body
    [(html, _kind)] = message.alternatives
    assert 'data-board="2"' in html
    assert f"You captain {fixture.away.name}" in to("captain1@example.org")[0].body
    # the sheet's other two players have no address: rows that say so, nothing sent
    assert Notification.objects.filter(kind="fixture_reminder", status="no_email").count() == 2
    fixture_reminders_sweep()  # the next hourly run, a redelivered task: nothing more
    fixture_reminder_notify(fixture.pk)
    assert len(mail.outbox) == 4 and Notification.objects.filter(kind="fixture_reminder").count() == 6


def test_a_match_further_off_or_already_played_is_not_reminded(match):
    world, fixture = match
    services.fixture_date_set(acting_user=world.secretary, fixture=fixture,
                              on=timezone.localdate() + timedelta(days=10))
    assert fixture_reminders_sweep() == [] and mail.outbox == []
    services.fixture_date_set(acting_user=world.secretary, fixture=fixture, on=timezone.localdate())
    services.match_default(acting_user=world.secretary, fixture=fixture, side="away", reason="no team")
    assert fixture_reminders_sweep() == [] and fixture_reminder_notify(fixture.pk) == 0 and mail.outbox == []


def test_the_reminder_is_written_to_files_by_the_demo_backend(match, settings, tmp_path):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path / "mail")
    world, fixture = match
    services.fixture_date_set(acting_user=world.secretary, fixture=fixture, on=timezone.localdate() + timedelta(days=2))
    fixture_reminders_sweep()
    messages = messages_in(settings.EMAIL_FILE_PATH)
    assert sorted(m["To"] for m in messages) == ["captain0@example.org", "captain1@example.org"]  # no sheet yet
    assert all(f"{fixture.home.name} v {fixture.away.name}" in m["Subject"] for m in messages)


def test_each_step_of_a_postponement_tells_both_captains_once(match, django_capture_on_commit_callbacks):
    world, fixture = match
    deadline = timezone.now() + timedelta(days=7)
    with django_capture_on_commit_callbacks(execute=True):
        postponement = services.postponement_request(acting_user=captain_of(world, fixture.home), fixture=fixture,
                                                     deadline=deadline, reason="the hall is closed")
    with django_capture_on_commit_callbacks(execute=True):
        services.postponement_agree(acting_user=captain_of(world, fixture.away), postponement=postponement)
    with django_capture_on_commit_callbacks(execute=True):
        services.postponement_approve(acting_user=world.secretary, postponement=postponement)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.postponement_expire(postponement_id=postponement.pk, now=deadline + timedelta(seconds=1))
    assert Postponement.objects.get(pk=postponement.pk).status == "defaulted"
    for address in ("captain0@example.org", "captain1@example.org"):
        steps = [re.search(r" is (\w+)", m.subject).group(1) for m in to(address)]
        assert steps == ["requested", "agreed", "approved", "defaulted"], steps
    requested = to("captain1@example.org")[0]
    assert "Reason: the hall is closed" in requested.body and f"asked by {fixture.home.name}" in requested.body
    defaulted = to("captain1@example.org")[3]
    assert f"{fixture.home.name}, which asked for it, defaults the match" in defaulted.body
    assert not to("home1@example.org")  # the players are not told of postponements
    from leagues.models import LeagueLog
    from notifications.tasks import league_log_row_notify

    for row in LeagueLog.objects.filter(league=world.league, kind__in=["postponement", "match_defaulted"]):
        league_log_row_notify(row.pk)  # a redelivered task: nothing more
    assert len(mail.outbox) == 8


def test_a_card_that_follows_a_corrected_game_tells_both_captains_once(match, django_capture_on_commit_callbacks):
    from leagues.models import LeagueLog
    from notifications.tasks import league_log_row_notify
    from tests.leagues.conftest import board_game, game_adjudicate, game_correct

    world, fixture = match
    capture = django_capture_on_commit_callbacks
    for team in (fixture.home, fixture.away):
        services.sheet_submit(acting_user=captain_of(world, team), fixture=fixture, players=sheet(world, team))
    services.match_start(acting_user=world.secretary, fixture=fixture)
    for board in range(1, 5):
        game_adjudicate(capture, world.secretary, board_game(fixture, board), "home")
    with capture(execute=True):
        services.card_confirm(acting_user=captain_of(world, fixture.away), fixture=fixture)
    assert not [m for m in mail.outbox if "corrected" in m.subject]  # the card and its confirmation tell no one
    game_correct(capture, world.secretary, board_game(fixture, 4), "away", reason="board 4: the wrong scoresheet")
    for address in ("captain0@example.org", "captain1@example.org"):
        [message] = [m for m in to(address) if "follows a corrected game" in m.subject]
        assert f"{fixture.home.name} v {fixture.away.name}" in message.subject
        assert "board 4, game 1" in message.body and "the card said 1" in message.body and "it says 0" in message.body
        assert "The match's points: 4.0-0.0 before, 3.0-1.0 now" in message.body
        [(html, _kind)] = message.alternatives
        assert 'data-board="4"' in html
    assert not [m for m in to("home1@example.org") if "follows a corrected game" in m.subject]  # captains only
    row = LeagueLog.objects.get(league=world.league, kind="card_corrected")
    league_log_row_notify(row.pk)  # a redelivered task: nothing more
    assert Notification.objects.filter(kind="card_corrected").count() == 2
    assert len([m for m in mail.outbox if "follows a corrected game" in m.subject]) == 2
