"""On PostgreSQL, the arbitration log refuses UPDATE and DELETE in the database itself, by trigger.

The ORM already refuses (``AppendOnlyError``); the trigger stops raw SQL too, from any client.
A superuser can still switch triggers off (``session_replication_role = replica``, ``ALTER
TABLE ... DISABLE TRIGGER``): against that, the hashes are HMACs under a key the database does
not hold (core.chain). TRUNCATE is not refused (the test suite empties tables with it). Other
databases (the embedded SQLite) have no trigger: the ORM's refusal and the key remain.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION arbitration_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the arbitration log is append-only: % on % refused (add a correction entry instead)',
        TG_OP, TG_TABLE_NAME;
END
$$;
CREATE TRIGGER logentry_append_only BEFORE UPDATE OR DELETE ON arbitration_logentry
    FOR EACH ROW EXECUTE FUNCTION arbitration_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS logentry_append_only ON arbitration_logentry;
DROP FUNCTION IF EXISTS arbitration_append_only();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):

    dependencies = [
        ('arbitration', '0005_logentry_key_id_and_seal'),
    ]

    operations = [
        migrations.RunPython(create, drop),
    ]
