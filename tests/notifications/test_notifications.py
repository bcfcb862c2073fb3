"""Email notifications: sent after the commit, once per event and person, each person's choices respected.

The tasks run in the test's process (eager); the transactions' on-commit hooks are run by
``django_capture_on_commit_callbacks``. The real worker and its retries: test_notification_worker.py.
"""

from __future__ import annotations

import re
import smtplib
from datetime import UTC, datetime

import pytest
from django.core import mail

from arbitration.models import LogEntry
from arbitration.services import ruling_issue
from games.models import Game
from notifications import services as notify
from notifications.models import Notification, Unsubscription
from notifications.tasks import log_row_notify
from players.models import Player
from tests.support.mail_files import messages_in
from tests.tournaments.test_services import make_players, running_tournament
from tournaments import services
from tournaments.models import Match, TournamentLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(make_user):
    """Four players, three with accounts and addresses, the fourth with none."""
    players = make_players(4)
    for n, player in enumerate(players[:3]):
        account = make_user(f"player{n}", "player")
        account.email = f"player{n}@example.org"
        account.save(update_fields=["email"])
        player.user = account
        player.save(update_fields=["user"])
    return players


def publish_round(director, tournament, capture, *, scheduled_at=None):
    """Pairs the next round, sets its time, and publishes it; the on-commit hooks run (and the eager tasks)."""
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    if scheduled_at is not None:
        services.round_schedule_set(acting_user=director, tournament=tournament, number=round_.number,
                                    scheduled_at=scheduled_at)
    with capture(execute=True):
        services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    return round_


def to(address):
    return [m for m in mail.outbox if m.to == [address]]


def test_a_published_round_sends_each_paired_player_one_message_with_his_board(
        director, field, django_capture_on_commit_callbacks):
    tournament = running_tournament(director, field, opening="three-move-ballot")
    round_ = publish_round(director, tournament, django_capture_on_commit_callbacks,
                           scheduled_at=datetime(2030, 5, 2, 10, 0, tzinfo=UTC))
    assert len(mail.outbox) == 3  # the fourth player has no address
    for match in Match.objects.filter(round=round_).select_related("player_one__user", "player_two__user"):
        for me, opponent in ((match.player_one, match.player_two), (match.player_two, match.player_one)):
            if me.user is None:
                continue
            [message] = to(me.user.email)
            colour = "Black" if match.first_black_id == me.pk else "White"
            assert f"board {match.board}, {colour} against {opponent.name}" in message.subject
            assert re.search(rf"Board:\s+{match.board}\n", message.body)
            assert f"Opponent: {opponent.name}" in message.body and f"Colour:   {colour} in game 1" in message.body
            assert f"Ballot:   No. {match.ballots[0]['number']}, {match.ballots[0]['moves']}" in message.body
            assert "Thursday 02 May 2030, 10:00 (UTC)" in message.body
            [(html, kind)] = message.alternatives
            assert kind == "text/html" and f'data-board="{match.board}"' in html
            assert message.extra_headers["List-Unsubscribe"].startswith("<http")
            assert "/notifications/unsubscribe/" in message.body
    row = Notification.objects.get(player=field[3])
    assert row.status == "no_email" and row.email == ""
    assert Notification.objects.filter(status="sent").count() == 3


def test_a_second_publish_or_a_task_run_again_sends_nothing(director, field, django_capture_on_commit_callbacks):
    tournament = running_tournament(director, field)
    round_ = publish_round(director, tournament, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 3
    with pytest.raises(services.RoundConflict), django_capture_on_commit_callbacks(execute=True):
        services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    row = TournamentLog.objects.get(tournament=tournament, kind="round_published")
    log_row_notify(row.pk)  # a redelivered task, or a second worker on the same event
    log_row_notify.delay(row.pk)
    assert len(mail.outbox) == 3
    assert Notification.objects.count() == 4


def test_the_message_files_under_the_demo_settings_are_read_back(director, field, settings, tmp_path,
                                                                 django_capture_on_commit_callbacks):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path / "mail")
    tournament = running_tournament(director, field)
    round_ = publish_round(director, tournament, django_capture_on_commit_callbacks)
    messages = messages_in(settings.EMAIL_FILE_PATH)
    assert sorted(m["To"] for m in messages) == [f"player{n}@example.org" for n in range(3)]
    for message in messages:
        player = Player.objects.get(user__email=message["To"])
        match = Match.objects.get(round=round_, player_one=player) if Match.objects.filter(
            round=round_, player_one=player).exists() else Match.objects.get(round=round_, player_two=player)
        assert f"board {match.board}," in message["Subject"]


def test_unsubscribing_needs_no_sign_in_and_the_next_round_skips_him(director, field, client,
                                                                     django_capture_on_commit_callbacks):
    tournament = running_tournament(director, field)
    publish_round(director, tournament, django_capture_on_commit_callbacks)
    [message] = to("player0@example.org")
    url = re.search(r"http://[^/\s]+(/notifications/unsubscribe/[^\s]+/)", message.body).group(1)
    page = client.get(url)  # a link checker or a preview: asks, changes nothing
    assert page.status_code == 200 and "p***@example.org" in page.content.decode()
    assert not Unsubscription.objects.exists()
    done = client.post(url)  # the button, or a mail program's one-click (RFC 8058): no sign-in, no CSRF token
    assert done.status_code == 200 and 'data-testid="unsubscribed"' in done.content.decode()
    assert list(Unsubscription.objects.values_list("user__username", "kind")) == [("player0", "round_published")]
    assert client.post(url).status_code == 200  # twice is once
    assert Unsubscription.objects.count() == 1
    forged = url.replace(url.split("/")[-2][-6:], "AAAAAA")
    assert client.post(forged).status_code == 400 and Unsubscription.objects.count() == 1
    mail.outbox.clear()
    for game in Game.objects.filter(round__tournament=tournament):
        services.game_result_set(acting_user=director, tournament=tournament, game_id=game.pk, result="1-0",
                                 reason="slip")
    publish_round(director, tournament, django_capture_on_commit_callbacks)
    assert to("player0@example.org") == [] and len(to("player1@example.org")) == 1
    assert Notification.objects.filter(player=field[0], status="unsubscribed").count() == 1


def test_the_preferences_page_sets_what_a_person_receives(field, client):
    account = field[1].user
    client.force_login(account)
    page = client.get("/notifications/").content.decode()
    assert "player1@example.org" in page and page.count('type="checkbox"') == 7 and page.count(" checked") == 7
    client.post("/notifications/", {"kind": ["result_to_confirm", "appeal_decided"]})
    assert set(notify.kinds_unsubscribed(account)) == {"round_published", "tournament_reopened", "fixture_reminder",
                                                       "fixture_postponed", "card_corrected"}
    client.post("/notifications/", {"kind": ["round_published", "result_to_confirm", "appeal_decided",
                                             "tournament_reopened", "fixture_reminder", "fixture_postponed",
                                             "card_corrected", "not-a-kind"]})
    assert notify.kinds_unsubscribed(account) == set()
    client.logout()
    assert client.get("/notifications/").status_code == 302


class FlakyBackend:
    """A locmem-like backend whose first sends fail as a mail server that is away, or refuses for good."""

    failures = 2
    error: type[Exception] = smtplib.SMTPServerDisconnected
    tried = 0

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        FlakyBackend.tried += 1
        if FlakyBackend.tried <= FlakyBackend.failures:
            raise FlakyBackend.error("away")
        mail.outbox.extend(messages)
        return len(messages)


def test_a_transient_failure_is_retried_and_the_message_goes_once(director, field, settings,
                                                                   django_capture_on_commit_callbacks):
    settings.EMAIL_BACKEND = "tests.notifications.test_notifications.FlakyBackend"
    settings.NOTIFICATIONS_RETRY_SECONDS = 0
    FlakyBackend.tried, FlakyBackend.failures, FlakyBackend.error = 0, 2, smtplib.SMTPServerDisconnected
    tournament = running_tournament(director, field[:2])
    publish_round(director, tournament, django_capture_on_commit_callbacks)
    rows = list(Notification.objects.order_by("id"))
    assert [r.status for r in rows] == ["sent", "sent"]
    assert sorted(r.attempts for r in rows) == [1, 3]  # the first failed twice, then went
    assert len(mail.outbox) == 2 and FlakyBackend.tried == 4


def test_a_permanent_failure_fails_at_once_with_the_error_shown(director, field, settings,
                                                                django_capture_on_commit_callbacks):
    settings.EMAIL_BACKEND = "tests.notifications.test_notifications.FlakyBackend"
    FlakyBackend.tried, FlakyBackend.failures = 0, 1

    def refused(_text):
        return smtplib.SMTPRecipientsRefused({"player0@example.org": (550, b"no such user")})
    FlakyBackend.error = refused
    tournament = running_tournament(director, field[:2])
    publish_round(director, tournament, django_capture_on_commit_callbacks)
    statuses = sorted(Notification.objects.values_list("status", "attempts"))
    assert statuses == [("failed", 1), ("sent", 1)]
    assert "SMTPRecipientsRefused" in Notification.objects.get(status="failed").last_error


def test_a_finished_game_asks_both_players_to_confirm_and_an_appeal_decided_tells_them(
        director, make_user, field, django_capture_on_commit_callbacks):
    arbiter = make_user("arb", "referee")
    tournament = running_tournament(director, field[:2], arbiters=[arbiter.username])
    publish_round(director, tournament, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    game = Game.objects.filter(round__tournament=tournament).order_by("id").first()
    with django_capture_on_commit_callbacks(execute=True):
        ruling_issue(acting_user=director, game_id=game.pk, kind="adjudicate",
                     payload={"result": "1-0", "reason": "slip"})
    assert sorted(m.to[0] for m in mail.outbox) == ["player0@example.org", "player1@example.org"]
    assert all("confirm your result" in m.subject and f"/games/{game.pk}#signatures" in m.body for m in mail.outbox)
    mail.outbox.clear()
    end = LogEntry.objects.get(game=game, kind="game_end")
    with django_capture_on_commit_callbacks(execute=True):
        ruling_issue(acting_user=game.black.user, game_id=game.pk, kind="appeal",
                     payload={"entry": end.seq, "statement": "no"})
    appeal = LogEntry.objects.get(game=game, kind="appeal")
    with django_capture_on_commit_callbacks(execute=True):
        ruling_issue(acting_user=arbiter, game_id=game.pk, kind="appeal_decision",
                     payload={"appeal": appeal.seq, "decision": "overturned", "result": "0-1", "reason": "miscounted"})
    decided = [m for m in mail.outbox if "appeal" in m.subject]
    assert sorted(m.to[0] for m in decided) == ["player0@example.org", "player1@example.org"]
    assert all("overturned" in m.subject and "miscounted" in m.body for m in decided)
    # The overturned result is a new ending: the players are asked to confirm it too, once.
    again = [m for m in mail.outbox if "confirm your result" in m.subject]
    assert len(again) == 2 and all("(0-1)" in m.subject for m in again)


def test_a_reopened_tournament_tells_every_entered_player(director, field, django_capture_on_commit_callbacks):
    tournament = running_tournament(director, field)
    publish_round(director, tournament, django_capture_on_commit_callbacks)
    for game in Game.objects.filter(round__tournament=tournament):
        services.game_result_set(acting_user=director, tournament=tournament, game_id=game.pk, result="1-0",
                                 reason="slip")
    services.tournament_status_set(acting_user=director, tournament=tournament, status="finished")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_status_set(acting_user=director, tournament=tournament, status="running",
                                       reason="a slip misread")
    assert sorted(m.to[0] for m in mail.outbox) == [f"player{n}@example.org" for n in range(3)]
    assert all("is reopened" in m.subject and "a slip misread" in m.body for m in mail.outbox)
    assert Notification.objects.filter(kind="tournament_reopened", status="no_email").count() == 1


def test_the_director_sees_what_was_sent_to_whom_and_no_one_else_does(director, make_user, field, client,
                                                                        client_as, django_capture_on_commit_callbacks):
    tournament = running_tournament(director, field)
    publish_round(director, tournament, django_capture_on_commit_callbacks)
    client.force_login(director)
    page = client.get(f"/notifications/tournaments/{tournament.slug}/").content.decode()
    assert page.count('data-testid="notification"') == 4 and page.count('data-status="no_email"') == 1
    assert field[3].name in page and "Not sent: no email address" in page
    body = client_as(director).get(f"/api/v1/tournaments/{tournament.slug}/notifications/").json()
    assert body["count"] == 4
    by_player = {row["player"]["id"]: row for row in body["results"]}
    assert by_player[field[3].pk]["status"] == "no_email" and not by_player[field[3].pk]["has_email"]
    assert by_player[field[0].pk]["status"] == "sent" and by_player[field[0].pk]["context"]["board"] >= 1
    other = make_user("dir2", "director")
    client.force_login(other)
    assert client.get(f"/notifications/tournaments/{tournament.slug}/").status_code == 403
    response = client_as(other).get(f"/api/v1/tournaments/{tournament.slug}/notifications/")
    assert response.status_code == 403 and response.json()["error"]["code"]
    from rest_framework.test import APIClient

    assert APIClient().get(f"/api/v1/tournaments/{tournament.slug}/notifications/").status_code == 401
    assert client_as(director).get("/api/v1/tournaments/nope/notifications/").status_code == 404


def test_the_unsubscribe_page_offers_to_stop_every_kind_at_once(field, client):
    account = field[2].user
    page = client.get(f"/notifications/unsubscribe/{notify.unsubscribe_token(account.pk, 'appeal_decided')}/")
    every = re.search(r'action="(/notifications/unsubscribe/[^"]+/)"', page.content.decode()).group(1)
    assert client.post(every).status_code == 200
    assert notify.kinds_unsubscribed(account) == {"round_published", "result_to_confirm", "appeal_decided",
                                                  "tournament_reopened", "fixture_reminder", "fixture_postponed",
                                                  "card_corrected"}
    assert notify.kinds_unsubscribed(field[1].user) == set()


def test_a_row_left_pending_by_a_lost_task_is_sent_by_the_sweep_once(director, field):
    from io import StringIO

    from django.core.management import call_command

    tournament = running_tournament(director, field[:2])
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)  # no commit hook ran
    row = TournamentLog.objects.get(tournament=tournament, kind="round_published")
    from notifications import planners

    ids = notify.plan_record(planners.plan_of_log_row(row.pk))  # recorded, and the worker died before sending
    assert len(ids) == 2 and mail.outbox == []
    out = StringIO()
    call_command("notifications_send_pending", minutes=0, stdout=out)
    assert "2 pending" in out.getvalue() and len(mail.outbox) == 2
    call_command("notifications_send_pending", minutes=0, stdout=StringIO())
    assert len(mail.outbox) == 2


def recorded_not_sent(director, field):
    """A round published whose rows were recorded and whose sending tasks were lost (no commit hook ran)."""
    from notifications import planners

    tournament = running_tournament(director, field[:2])
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    row = TournamentLog.objects.get(tournament=tournament, kind="round_published")
    ids = notify.plan_record(planners.plan_of_log_row(row.pk))
    assert len(ids) == 2 and mail.outbox == []
    return ids


def recorded_ago(ids, minutes):
    from datetime import timedelta

    from django.utils import timezone

    Notification.objects.filter(pk__in=ids).update(created_at=timezone.now() - timedelta(minutes=minutes))


def test_the_beats_sweep_sends_a_row_whose_task_was_lost_once(director, field, settings):
    from notifications.tasks import pending_sweep

    assert settings.CELERY_BEAT_SCHEDULE["notifications-pending"]["task"] == pending_sweep.name
    settings.NOTIFICATIONS_SWEEP_MINUTES = 10
    ids = recorded_not_sent(director, field)
    assert pending_sweep() == [] and mail.outbox == []  # just recorded: its task may be on its way
    recorded_ago(ids, 11)
    assert pending_sweep() == ids and len(mail.outbox) == 2
    assert pending_sweep() == [] and len(mail.outbox) == 2
    assert sorted(Notification.objects.values_list("status", "attempts")) == [("sent", 1), ("sent", 1)]


def test_a_row_being_retried_is_left_to_its_retries_until_they_would_have_ended(director, field, settings):
    from notifications.tasks import SEND_RETRIES, pending_sweep

    settings.NOTIFICATIONS_SWEEP_MINUTES = 10
    settings.NOTIFICATIONS_RETRY_SECONDS = 30  # a chain of retries: 30 s .. 16 min, 31.5 min in all
    ids = recorded_not_sent(director, field)
    Notification.objects.filter(pk__in=ids).update(attempts=2, last_error="SMTPServerDisconnected: away")
    recorded_ago(ids, 30)
    assert pending_sweep() == [] and mail.outbox == []
    recorded_ago(ids, 30 * (2 ** SEND_RETRIES - 1) / 60 + 11)
    assert pending_sweep() == ids and len(mail.outbox) == 2
    assert sorted(Notification.objects.values_list("status", "attempts")) == [("sent", 3), ("sent", 3)]


def test_the_attempts_on_the_row_bound_every_task_of_it_together(director, field, settings):
    """A task queued again by the sweep starts its own retries; the row's count stops them at SEND_RETRIES + 1."""
    from notifications.tasks import SEND_RETRIES, notification_send

    settings.EMAIL_BACKEND = "tests.notifications.test_notifications.FlakyBackend"
    settings.NOTIFICATIONS_RETRY_SECONDS = 0
    FlakyBackend.tried, FlakyBackend.failures, FlakyBackend.error = 0, 100, smtplib.SMTPServerDisconnected
    ids = recorded_not_sent(director, field)
    Notification.objects.filter(pk=ids[0]).update(attempts=SEND_RETRIES - 1)
    notification_send.delay(ids[0])
    row = Notification.objects.get(pk=ids[0])
    assert (row.status, row.attempts, FlakyBackend.tried) == ("failed", SEND_RETRIES + 1, 2)
    assert "SMTPServerDisconnected" in row.last_error
