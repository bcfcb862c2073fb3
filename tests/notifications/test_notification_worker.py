"""A real Celery worker sends the messages of a published round after the commit, retrying a mail server
that drops the connection, and each player gets his message once."""

from __future__ import annotations

import time

import pytest

from notifications.models import Notification
from tests.conftest import worker_env
from tests.support.celery_worker import WorkerProcess
from tests.support.mail_files import messages_in
from tests.tournaments.test_services import make_players, running_tournament
from tournaments import services
from tournaments.models import Match

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def flaky_mail_worker(transactional_db, tmp_path):
    """A worker whose mail server drops the first two sends (tests/support/flaky_mail.py), writing files after."""
    folder = tmp_path / "mail"
    worker = WorkerProcess(env={**worker_env(), "CLOCK_SWEEPER_ENABLED": "false",
                                "EMAIL_BACKEND": "tests.support.flaky_mail.FlakyFileBackend",
                                "EMAIL_FILE_PATH": str(folder), "FLAKY_MAIL_FAILURES": "2",
                                "NOTIFICATIONS_RETRY_SECONDS": "0.5"},
                           log_path=tmp_path / "worker.log")
    worker.start()
    with worker.alone():  # the session's worker (another test's) would send with the real backend
        yield folder
    worker.stop()


def test_the_worker_retries_a_dropped_connection_and_sends_each_player_his_board_once(director, make_user,
                                                                                      flaky_mail_worker):
    players = make_players(2)
    for n, player in enumerate(players):
        account = make_user(f"player{n}", "player")
        account.email = f"player{n}@example.org"
        account.save(update_fields=["email"])
        player.user = account
        player.save(update_fields=["user"])
    tournament = running_tournament(director, players)
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)  # commits: the worker
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and Notification.objects.filter(status="sent").count() < 2:
        time.sleep(0.2)
    rows = list(Notification.objects.order_by("id"))
    assert [r.status for r in rows] == ["sent", "sent"], [(r.status, r.last_error) for r in rows]
    assert sum(r.attempts for r in rows) == 4  # two sends dropped, then each message once
    assert (flaky_mail_worker / "attempts").read_text() == "4"
    time.sleep(1)  # nothing more comes: no retry of a row already sent
    messages = messages_in(flaky_mail_worker)
    assert sorted(m["To"] for m in messages) == ["player0@example.org", "player1@example.org"]
    match = Match.objects.get(round=round_)
    for message in messages:
        me, opponent = players if message["To"] == "player0@example.org" else players[::-1]
        colour = "Black" if match.first_black_id == me.pk else "White"
        assert message["Subject"].endswith(f"board {match.board}, {colour} against {opponent.name}")
