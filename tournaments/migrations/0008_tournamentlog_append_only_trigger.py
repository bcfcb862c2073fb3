"""On PostgreSQL, the tournament log refuses UPDATE and DELETE in the database itself, by trigger.

The services only ever insert; the trigger stops raw SQL too, from any client.
A superuser can still switch triggers off (``session_replication_role = replica``, ``ALTER
TABLE ... DISABLE TRIGGER``): against that, the hashes are HMACs under a key the database does
not hold (core.chain). TRUNCATE is not refused (the test suite empties tables with it). Other
databases (the embedded SQLite) have no trigger: the ORM's refusal and the key remain.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION tournaments_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the tournament log is append-only: % on % refused (add a correcting row instead)',
        TG_OP, TG_TABLE_NAME;
END
$$;
CREATE TRIGGER tournamentlog_append_only BEFORE UPDATE OR DELETE ON tournaments_tournamentlog
    FOR EACH ROW EXECUTE FUNCTION tournaments_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS tournamentlog_append_only ON tournaments_tournamentlog;
DROP FUNCTION IF EXISTS tournaments_append_only();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0007_tournamentlog_chain_required'),
    ]

    operations = [
        migrations.RunPython(create, drop),
    ]
