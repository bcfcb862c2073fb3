"""The embeds' pages (no sign-in, allowed in frames) against every other page (refusing frames), the
snippet on the tournament's page, and the webhooks page (its directors' only; register, send again)."""

from __future__ import annotations

import pytest

from tests.support.integrations_world import shared_world, world_rows  # noqa: F401 (world_rows: a fixture)

pytestmark = [pytest.mark.django_db]
world = shared_world  # the world built once for the module's tests (world_rows), fresh copies for each

EMBEDS = ["/embed/tournaments/spring/standings/", "/embed/tournaments/spring/rounds/1/pairings/",
          "/embed/tournaments/spring/live/", "/embed/tournaments/spring/live/?board=1"]


def _frame_ancestors(response) -> str:
    policy = response.headers["Content-Security-Policy"]
    return next(part.strip() for part in policy.split(";") if part.strip().startswith("frame-ancestors"))


@pytest.mark.parametrize("path", EMBEDS)
def test_an_embed_is_served_without_sign_in_and_may_be_framed(world, client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert _frame_ancestors(response) == "frame-ancestors *"
    assert "X-Frame-Options" not in response.headers
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]  # the rest of the policy holds
    assert b"site-header" not in response.content  # small: no site navigation


def test_the_embeds_show_the_tournament(world, client):
    standings = client.get(EMBEDS[0]).content.decode()
    assert all(name in standings for name in ["Agnes Calder", "Bram Okafor", "Cora Dunn", "Dev Rao"])
    pairings = client.get(EMBEDS[1]).content.decode()
    assert pairings.count('data-testid="match"') == 2
    live = client.get(EMBEDS[2]).content.decode()
    assert all(f'data-testid="live-board-{g.pk}"' in live for g in world["games"])
    one = client.get(EMBEDS[3]).content.decode()
    assert one.count('class="live-board"') == 2  # board 1's two games


@pytest.mark.parametrize("path", ["/embed/tournaments/nowhere/standings/", "/embed/tournaments/spring/rounds/9/pairings/",
                                  "/embed/tournaments/spring/live/?board=x"])
def test_an_embed_of_nothing_is_404(world, client, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize("path", ["/", "/tournaments/spring/", "/tournaments/spring/live/", "/games/"])
def test_every_other_page_refuses_frames(world, client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert _frame_ancestors(response) == "frame-ancestors 'none'"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_the_tournament_page_carries_the_snippet(world, client):
    page = client.get("/tournaments/spring/").content.decode()
    assert ('&lt;iframe src="http://testserver/embed/tournaments/spring/standings/" title="Spring Open: standings"'
            in page)


def test_the_webhooks_page_is_for_the_tournaments_managers(world, client, loopback_allowed):
    from integrations.models import Webhook

    assert client.get("/tournaments/spring/webhooks/").status_code == 302  # to sign in
    client.force_login(world["other"])
    assert client.get("/tournaments/spring/webhooks/").status_code == 404
    assert client.post("/tournaments/spring/webhooks/add", {"url": "http://127.0.0.1:9/h",
                                                            "events": ["move"]}).status_code == 404
    client.force_login(world["director"])
    response = client.post("/tournaments/spring/webhooks/add", {"url": "http://127.0.0.1:9/h",
                                                                "events": ["move", "ruling"]}, follow=True)
    hook = Webhook.objects.get()
    assert hook.events == ["move", "ruling"] and hook.tournament == world["tournament"]
    assert hook.secret in response.content.decode()
    refused = client.post("/tournaments/spring/webhooks/add", {"url": "http://10.0.0.1/h", "events": ["move"]},
                          follow=True)
    assert "private or local address" in refused.content.decode() and Webhook.objects.count() == 1
