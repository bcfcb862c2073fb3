"""Who may register, see, change, delete a webhook and send a delivery again: a director of THIS
tournament or an administrator; the addresses refused (private, loopback, link-local) unless an
administrator allows them; bad input is a 4xx in the project's error shape."""

from __future__ import annotations

import pytest

from tests.support.integrations_world import given_up_delivery, shared_world, world_rows  # noqa: F401 (world_rows: a fixture)

pytestmark = [pytest.mark.django_db]
world = shared_world  # the world built once for the module's tests (world_rows), fresh copies for each


@pytest.fixture
def admin(make_user):
    user = make_user("root", "director")
    user.is_superuser = True
    user.save(update_fields=["is_superuser"])
    return user


@pytest.fixture
def hook(world, loopback_allowed):
    from integrations import services

    return services.webhook_create(acting_user=world["director"], tournament=world["tournament"],
                                   url="http://127.0.0.1:9/hook", events=["move"])


@pytest.mark.parametrize("url", [
    "http://10.0.0.5/hook", "http://192.168.1.20/hook", "http://172.16.3.4/hook", "http://169.254.169.254/latest",
    "http://127.0.0.1:8000/hook", "http://localhost/hook", "http://[::1]/hook", "http://[fd00::1]/hook",
    "http://0.0.0.0/hook", "http://[::ffff:127.0.0.1]/hook", "ftp://example.org/hook",
    "http://user:pw@example.org/hook",
])
def test_a_private_or_local_url_is_refused(world, client_as, settings, url):
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    answer = client_as(world["director"]).post("/api/v1/webhooks/", {"tournament": "spring", "url": url,
                                                                      "events": ["move"]}, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] == "validation_error"
    assert "url" in answer.json()["error"]["details"]["fields"]


def test_the_loopback_setting_allows_the_loopback_only(world, client_as, settings):
    settings.WEBHOOK_ALLOW_LOOPBACK = True
    client = client_as(world["director"])
    ok = client.post("/api/v1/webhooks/", {"tournament": "spring", "url": "http://127.0.0.1:8000/hook",
                                           "events": ["move"]}, format="json")
    assert ok.status_code == 201, ok.content
    refused = client.post("/api/v1/webhooks/", {"tournament": "spring", "url": "http://10.1.2.3/hook",
                                                "events": ["move"]}, format="json")
    assert refused.status_code == 400


def test_only_an_administrator_may_allow_a_private_address(world, client_as, admin, settings):
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    body = {"tournament": "spring", "url": "http://10.0.0.5/hook", "events": ["move"], "allow_private": True}
    assert client_as(world["director"]).post("/api/v1/webhooks/", body, format="json").status_code == 403
    answer = client_as(admin).post("/api/v1/webhooks/", body, format="json")
    assert answer.status_code == 201 and answer.json()["allow_private"] is True


def test_a_delivery_to_an_address_refused_later_is_not_sent(world, settings):
    """The address is checked again before each delivery (a name may resolve elsewhere later)."""
    from integrations.delivery import post
    from integrations.models import Webhook

    settings.WEBHOOK_ALLOW_LOOPBACK = False
    hook = Webhook.objects.create(tournament=world["tournament"], url="http://127.0.0.1:9/hook", events=["move"],
                                  secret="s")
    code, text = post(hook, given_up_delivery(hook))
    assert code is None and text.startswith("refused:")


def test_a_director_registers_for_his_tournament_only(world, client_as):
    body = {"tournament": "spring", "url": "https://example.org/hook", "events": ["move"]}
    assert client_as(world["other"]).post("/api/v1/webhooks/", body, format="json").status_code == 403
    assert client_as(world["referee"]).post("/api/v1/webhooks/", body, format="json").status_code == 403
    answer = client_as(world["director"]).post("/api/v1/webhooks/", {**body, "tournament": None}, format="json")
    assert answer.status_code == 403  # every tournament's: administrators only


def test_an_administrator_registers_for_every_tournament(world, client_as, admin, loopback_allowed):
    answer = client_as(admin).post("/api/v1/webhooks/", {"tournament": None, "url": "http://127.0.0.1:9/h",
                                                         "events": ["round_published"]}, format="json")
    assert answer.status_code == 201 and answer.json()["tournament"] is None
    assert len(answer.json()["secret"]) == 64


def test_signed_out_is_401(world, api_client):
    assert api_client.get("/api/v1/webhooks/").status_code == 401
    assert api_client.post("/api/v1/webhooks/", {}, format="json").status_code == 401


def test_bad_input_is_a_400_naming_the_field(world, client_as):
    client = client_as(world["director"])
    for body, field in [({"tournament": "spring", "url": "not a url", "events": ["move"]}, "url"),
                        ({"tournament": "spring", "url": "https://example.org/h", "events": ["dance"]}, "events"),
                        ({"tournament": "spring", "url": "https://example.org/h", "events": []}, "events"),
                        ({"tournament": "spring", "url": "https://example.org/h", "events": "move"}, "events")]:
        answer = client.post("/api/v1/webhooks/", body, format="json")
        assert answer.status_code == 400, (body, answer.content)
        assert field in answer.json()["error"]["details"]["fields"]
    missing = client.post("/api/v1/webhooks/", {"tournament": "nowhere", "url": "https://example.org/h",
                                                "events": ["move"]}, format="json")
    assert missing.status_code == 404


def test_each_write_to_a_webhook_is_authorised_for_its_tournament(world, client_as, hook, admin):
    """The walk: every write on a webhook of "spring", by each who may not, is refused and changes nothing;
    by its director and by an administrator it is done."""
    from integrations.models import Webhook, WebhookDelivery

    delivery = given_up_delivery(hook)
    writes = [
        ("patch", f"/api/v1/webhooks/{hook.pk}/", {"active": False}),
        ("post", f"/api/v1/webhook-deliveries/{delivery.pk}/resend", None),
        ("delete", f"/api/v1/webhooks/{hook.pk}/", None),
    ]
    reads = [f"/api/v1/webhooks/{hook.pk}/", f"/api/v1/webhooks/{hook.pk}/deliveries/"]
    for outsider in (world["other"], world["referee"]):
        client = client_as(outsider)
        for method, path, body in writes:
            answer = getattr(client, method)(path, body, format="json")
            assert answer.status_code in (403, 404), (outsider, path, answer.status_code)
            assert answer.json()["error"]["code"] in ("permission_denied", "webhook_not_found", "delivery_not_found")
        for path in reads:
            assert client.get(path).status_code == 404
        assert client.get("/api/v1/webhooks/").json() == []
    hook.refresh_from_db()
    delivery.refresh_from_db()
    assert hook.active and delivery.status == "failed"
    assert Webhook.objects.filter(pk=hook.pk).exists()
    for insider in (world["director"], admin):
        client = client_as(insider)
        assert client.patch(f"/api/v1/webhooks/{hook.pk}/", {"active": True}, format="json").status_code == 200
        assert [w["id"] for w in client.get("/api/v1/webhooks/").json()] == [hook.pk]
        log = client.get(f"/api/v1/webhooks/{hook.pk}/deliveries/").json()
        assert log["results"][0]["id"] == delivery.pk and log["results"][0]["attempts"] == 9
    assert client_as(world["director"]).delete(f"/api/v1/webhooks/{hook.pk}/").status_code == 204
    assert not WebhookDelivery.objects.filter(pk=delivery.pk).exists()


def test_hostile_values_in_every_field_are_a_4xx_in_the_error_shape(world, client_as, hook, admin):
    """As tests/config/test_bad_input_types.py does for the rest of the API: every field of every write."""
    from tests.config.test_bad_input_types import HOSTILE

    writes = [("post", "/api/v1/webhooks/", {"tournament": "spring", "url": "http://127.0.0.1:9/h",
                                             "events": ["move"], "allow_private": False}),
              ("patch", f"/api/v1/webhooks/{hook.pk}/", {"active": True, "events": ["move"]})]
    failures = []
    for user in (world["director"], admin):
        api = client_as(user)
        api.raise_request_exception = False
        for method, path, body in writes:
            for field in body:
                for value in HOSTILE:
                    answer = getattr(api, method)(path, {**body, field: value}, format="json")
                    if answer.status_code >= 500 or (answer.status_code >= 400 and set(answer.json()) != {"error"}):
                        failures.append((method, field, repr(value)[:40], answer.status_code))
            for value in [v for v in [*HOSTILE, ["a"], "text"] if not isinstance(v, dict | None)]:  # not an object
                answer = getattr(api, method)(path, value, format="json")
                if not 400 <= answer.status_code < 500:
                    failures.append((method, "body", repr(value)[:40], answer.status_code))
    assert not failures, failures
