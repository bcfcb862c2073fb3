"""Each pytest-xdist worker of `make test` has its own Redis databases, live channel and var folder
(tests/support/xdist.py), so that one worker's Celery process never takes another's task and no
stream carries another's entries."""

import os

import pytest

from tests.support.xdist import give_each_worker_its_own, shifted_redis_url, worker_environment

pytestmark = pytest.mark.smoke


class Spec:
    """Stands for an execnet gateway spec: what a worker process starts with is its ``env``."""

    def __init__(self) -> None:
        self.env: dict[str, str] = {}


def test_each_worker_takes_the_base_database_plus_its_index_and_a_channel_of_its_own():
    environ = {"CELERY_BROKER_URL": "redis://127.0.0.1:6379/10", "CACHE_URL": "redis://127.0.0.1:6379/12",
               "DJANGO_TEST_DATABASE_NAME": "test_draughts_7", "PATH": "/usr/bin"}
    specs = [Spec(), Spec()]
    give_each_worker_its_own(specs, environ)
    assert [spec.env["CELERY_BROKER_URL"] for spec in specs] == ["redis://127.0.0.1:6379/10", "redis://127.0.0.1:6379/11"]
    assert [spec.env["CACHE_URL"] for spec in specs] == ["redis://127.0.0.1:6379/12", "redis://127.0.0.1:6379/13"]
    assert [spec.env["LIVE_CHANNEL"] for spec in specs] == ["draughts-live:test_draughts_7_gw0",
                                                            "draughts-live:test_draughts_7_gw1"]
    assert "LIVE_REDIS_URL" not in specs[1].env  # unset: the settings take the worker's broker
    assert "PATH" not in specs[1].env and environ["CELERY_BROKER_URL"] == "redis://127.0.0.1:6379/10"


def test_a_given_live_channel_and_redis_url_with_options_are_kept_apart_too():
    env = worker_environment({"LIVE_CHANNEL": "club", "LIVE_REDIS_URL": "rediss://:pw@r.example:6380/2?ssl_cert_reqs=none"}, 3)
    assert env["LIVE_CHANNEL"] == "club_gw3"
    assert env["LIVE_REDIS_URL"] == "rediss://:pw@r.example:6380/5?ssl_cert_reqs=none"
    assert shifted_redis_url("redis://127.0.0.1:6379", 1) == "redis://127.0.0.1:6379/1"


def test_a_worker_past_the_last_redis_database_is_refused_with_what_to_change():
    with pytest.raises(ValueError, match="TEST_BROKER_URL"):
        worker_environment({"CELERY_BROKER_URL": "redis://127.0.0.1:6379/14"}, 2)


def test_on_the_embedded_defaults_each_worker_has_its_own_var_folder(tmp_path):
    env = worker_environment({"CELERY_BROKER_URL": "", "DJANGO_VAR_DIR": str(tmp_path)}, 1)
    assert env["DJANGO_VAR_DIR"] == str(tmp_path / "gw1")
    assert (tmp_path / "gw1").is_dir()


def test_this_run_uses_the_settings_of_its_own_worker():
    """Under xdist, the settings this process (and the servers and workers it starts) read are its worker's."""
    from django.conf import settings

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        assert not settings.LIVE_CHANNEL.endswith(("_gw0", "_gw1"))
        return
    assert settings.LIVE_CHANNEL.endswith(f"_{worker}")
    assert os.environ["LIVE_CHANNEL"] == settings.LIVE_CHANNEL  # inherited by the processes it starts
    if settings.CELERY_BROKER_URL.startswith("redis://"):
        assert os.environ["CELERY_BROKER_URL"] == settings.CELERY_BROKER_URL
        assert settings.LIVE_REDIS_URL == settings.CELERY_BROKER_URL
    else:
        assert settings.VAR_DIR.name == worker
