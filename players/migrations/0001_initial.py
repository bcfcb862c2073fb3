"""The Player model moves from tournaments to players: state only, the table stays as it is.

The table is renamed to ``players_player`` in 0002, once no app's state points at
``tournaments.Player`` any more (games 0005, tournaments 0005).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("tournaments", "0004_glicko2_ratings"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Player",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=120)),
                        ("club", models.CharField(blank=True, max_length=120)),
                        ("federation", models.CharField(blank=True, help_text="Country or federation.", max_length=60)),
                        ("federation_id", models.CharField(blank=True, max_length=40)),
                        ("rating", models.IntegerField(blank=True, null=True)),
                        ("rating_deviation", models.FloatField(blank=True, help_text="Glicko-2 rating deviation (RD); empty: not rated by us yet.", null=True)),
                        ("rating_volatility", models.FloatField(blank=True, help_text="Glicko-2 volatility; empty: 0.06.", null=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("user", models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="player", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "ordering": ["name", "id"],
                        "db_table": "tournaments_player",
                        "constraints": [
                            models.UniqueConstraint(condition=models.Q(("federation_id", ""), _negated=True), fields=("federation", "federation_id"), name="player_unique_federation_id"),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
