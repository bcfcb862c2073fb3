"""API tokens stored as SHA-256 digests, with an expiry (replaces DRF's plain authtoken)."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0001_role_groups'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ApiToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(help_text='What the token is for, as the owner named it.', max_length=100)),
                ('digest', models.CharField(editable=False, help_text='SHA-256 of the key (hex); the key itself is not stored.', max_length=64, unique=True)),
                ('prefix', models.CharField(editable=False, help_text="The key's first characters, so that the owner recognises it.", max_length=8)),
                ('created', models.DateTimeField(default=django.utils.timezone.now, editable=False)),
                ('expires', models.DateTimeField()),
                ('last_used', models.DateTimeField(blank=True, editable=False, help_text='Updated at most once an hour.', null=True)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'API token',
                'ordering': ['-created', '-id'],
            },
        ),
    ]
