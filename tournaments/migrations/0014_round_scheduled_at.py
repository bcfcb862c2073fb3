from django.db import migrations, models


class Migration(migrations.Migration):
    """Rounds get a scheduled start the director sets (the notices and the calendar feeds read it)."""

    dependencies = [
        ("tournaments", "0013_round_lengths_and_decks"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="scheduled_at",
            field=models.DateTimeField(
                blank=True, null=True,
                help_text="When the round is to start, as the director set it (the notices and the calendar feeds); "
                "empty: not set.",
            ),
        ),
    ]
