"""The admin shows the arbitration log and lets no one add, change or delete an entry."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def test_the_log_admin_is_read_only(client, new_game):
    game = new_game()
    admin = User.objects.create_superuser("root", "root@example.org", "a-long-test-password")
    client.force_login(admin)
    assert client.get("/admin/arbitration/logentry/").status_code == 200
    entry = game.log_entries.get(seq=1)
    page = client.get(f"/admin/arbitration/logentry/{entry.pk}/change/")
    assert page.status_code == 200 and b"game_created" in page.content
    assert client.get("/admin/arbitration/logentry/add/").status_code == 403
    assert client.post(f"/admin/arbitration/logentry/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    assert game.log_entries.count() == 1
