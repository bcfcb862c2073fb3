"""The periodic tasks (CELERY_BEAT_SCHEDULE) are sent under `make run` too: its one worker embeds the beat."""

import shlex
from pathlib import Path

from django.conf import settings

from config.celery import app

ROOT = Path(__file__).resolve().parents[2]


def procfile(name: str) -> dict[str, list[str]]:
    lines = (ROOT / name).read_text().splitlines()
    return {line.split(":", 1)[0]: shlex.split(line.split(":", 1)[1]) for line in lines if ":" in line}


def test_make_runs_worker_embeds_the_beat_and_production_runs_one():
    worker = procfile("Procfile.run")["worker"]
    assert "-B" in worker or "--beat" in worker
    assert "--pool" in worker and worker[worker.index("--pool") + 1] == "solo"  # -B refuses gevent/eventlet only
    assert procfile("Procfile")["beat"][:4] == ["celery", "-A", "config", "beat"]


def test_the_beats_schedule_file_is_under_the_var_dir_and_every_entry_names_a_task():
    assert Path(settings.CELERY_BEAT_SCHEDULE_FILENAME).parent == Path(settings.VAR_DIR)
    assert app.conf.beat_schedule_filename == settings.CELERY_BEAT_SCHEDULE_FILENAME
    app.loader.import_default_modules()
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        assert entry["task"] in app.tasks, name
