"""The one table of the infrastructure: the Celery workers' heartbeats, read by /healthz."""

from __future__ import annotations

from django.db import models


class WorkerHeartbeat(models.Model):
    """A Celery worker's last sign of life: one row per worker, refreshed every few seconds.

    The worker writes it (``config.heartbeat``) only while it is connected to the broker and
    consuming, with the database's clock; ``/healthz`` reads it and never waits on a worker.
    """

    name = models.CharField(max_length=200, primary_key=True, help_text="The worker's node name.")
    pid = models.IntegerField(default=0)
    beat_at = models.DateTimeField(db_index=True)

    class Meta:
        db_table = "core_worker_heartbeat"

    def __str__(self) -> str:
        return f"{self.name} at {self.beat_at:%Y-%m-%d %H:%M:%S}"
