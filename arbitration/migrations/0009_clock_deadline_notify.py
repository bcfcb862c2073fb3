"""PostgreSQL tells the clock sweepers when a nearer deadline is written (arbitration.sweeper).

Two triggers on the clock row send ``NOTIFY clock_deadline, '<deadline as epoch seconds>'`` when
a deadline is written that is nearer than the row's previous one (or the row had none) and falls
within the next 60 seconds. A notification is sent at commit, never for a rolled-back write.
Deadlines that move later (every move of a per-move control, a time call) or lie further ahead
send nothing: a sweeper already wakes for them (it sleeps at most CLOCK_SWEEP_MAX_SLEEP, capped
well under the 60 s). Nothing on SQLite: the sweeper there watches the database's change counter.
"""

from django.db import migrations

CHANNEL = "clock_deadline"  # arbitration.sweeper.NOTIFY_CHANNEL
HORIZON = "60 seconds"  # arbitration.sweeper.NOTIFY_HORIZON

FORWARD = [
    f"""
CREATE OR REPLACE FUNCTION arbitration_clock_deadline_notify() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('{CHANNEL}', extract(epoch FROM NEW.deadline)::text);
    RETURN NULL;
END
$$ LANGUAGE plpgsql""",
    f"""
CREATE TRIGGER arbitration_clock_deadline_inserted
    AFTER INSERT ON arbitration_gameclock FOR EACH ROW
    WHEN (NEW.deadline IS NOT NULL AND NEW.deadline < clock_timestamp() + interval '{HORIZON}')
    EXECUTE FUNCTION arbitration_clock_deadline_notify()""",
    f"""
CREATE TRIGGER arbitration_clock_deadline_nearer
    AFTER UPDATE OF deadline ON arbitration_gameclock FOR EACH ROW
    WHEN (NEW.deadline IS NOT NULL AND (OLD.deadline IS NULL OR NEW.deadline < OLD.deadline)
          AND NEW.deadline < clock_timestamp() + interval '{HORIZON}')
    EXECUTE FUNCTION arbitration_clock_deadline_notify()""",
]

BACKWARD = [
    "DROP TRIGGER IF EXISTS arbitration_clock_deadline_nearer ON arbitration_gameclock",
    "DROP TRIGGER IF EXISTS arbitration_clock_deadline_inserted ON arbitration_gameclock",
    "DROP FUNCTION IF EXISTS arbitration_clock_deadline_notify()",
]


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in FORWARD:
            schema_editor.execute(statement, params=None)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in BACKWARD:
            schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):

    dependencies = [
        ('arbitration', '0008_result_confirmed_kind'),
    ]

    operations = [
        migrations.RunPython(forward, backward),
    ]
