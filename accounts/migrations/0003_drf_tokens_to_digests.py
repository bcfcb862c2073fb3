"""Turns each plain DRF authtoken key (table ``authtoken_token``) into an ApiToken digest row, then empties that table.

The keys keep working (their digests are what is looked up now) but are no longer stored;
each becomes a token named "migrated DRF token" that expires API_TOKEN_DAYS after the
migration, so that clients have time to get a new one. ``rest_framework.authtoken`` is no
longer installed; its table is left in place, empty. Without that table (a new database)
this does nothing. Reversing does not bring the plain keys back (they are gone).
"""

import hashlib
from datetime import timedelta

from django.conf import settings
from django.db import migrations
from django.utils import timezone

OLD_TABLE = "authtoken_token"


def digests_from_plain_keys(apps, schema_editor):
    connection = schema_editor.connection
    if OLD_TABLE not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("accounts", "ApiToken")
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {qn('key')}, {qn('user_id')}, {qn('created')} FROM {qn(OLD_TABLE)}")
        rows = cursor.fetchall()
    expires = timezone.now() + timedelta(days=getattr(settings, "API_TOKEN_DAYS", 90))
    ApiToken.objects.bulk_create([
        ApiToken(user_id=user_id, name="migrated DRF token", digest=hashlib.sha256(key.encode()).hexdigest(),
                 prefix=key[:8], created=created or timezone.now(), expires=expires)
        for key, user_id, created in rows
    ])
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {qn(OLD_TABLE)}")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_api_tokens")]
    operations = [migrations.RunPython(digests_from_plain_keys, migrations.RunPython.noop)]
