"""The browser tests' demo (``demo_logins``): seeded once a process, then copied back, and the copy is the seeding.

No browser here, but the demo is seeded for the browser tests and only they ask for it (marked ``e2e``, out of
``make test-fast``: a seeding is 10-30 s of CPU).
"""

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_demo_copied_back_is_the_seedings_rows_and_works_as_seeded(demo_logins):
    from django.contrib.auth import authenticate
    from django.db import connection

    from arbitration.log import log_verify
    from games.models import Game
    from players.models import Player
    from tests.support import demo_snapshot
    from tournaments.demo import DEMO_SLUG

    snapshot = demo_snapshot._snapshot
    assert snapshot is not None and snapshot.database == connection.settings_dict["NAME"]
    assert demo_snapshot.take() == snapshot.tables  # what the fixture gave is the snapshot, seeded or copied back
    assert {login.username: login.password for login in snapshot.logins} == demo_logins
    seeded = {table: data for table, data in snapshot.tables.items() if len(data) > 21}  # (21 bytes: COPY's empty table)
    assert {"auth_user", "games_game", "arbitration_logentry", "tournaments_tournament"} <= set(seeded)

    # as the flush after a transactional test leaves it: the rows gone, the sequences where they were
    demo_snapshot.put_back({})
    assert not Game.objects.exists() and not Player.objects.exists()
    logins = demo_snapshot.seeded_demo()
    assert demo_snapshot.take() == snapshot.tables  # byte for byte, every table the flush empties
    assert {login.username: login.password for login in logins} == demo_logins

    # and it works as the seeding's did: the passwords sign in, the logs' chains hold, new rows get new ids
    for login in logins:
        assert authenticate(username=login.username, password=login.password) is not None, login.username
    games = Game.objects.filter(round__tournament__slug=DEMO_SLUG)
    assert games.filter(status="in_progress").exists()
    for game in games:
        verification = log_verify(game)
        assert verification.valid and verification.entries, (game.pk, verification)
    highest = Player.objects.order_by("-pk").values_list("pk", flat=True).first()
    assert Player.objects.create(name="After the copy").pk > highest
