from django.db import migrations, models


def mark_clocked_games(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    GameClock = apps.get_model("arbitration", "GameClock")
    Game.objects.filter(pk__in=GameClock.objects.values("game_id")).update(has_clock=True)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0002_arbitration_state"),
        ("arbitration", "0003_game_clock"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="has_clock",
            field=models.BooleanField(
                default=False,
                help_text="Whether the game has a clock row (arbitration.GameClock): moves skip the read when not.",
            ),
        ),
        migrations.RunPython(mark_clocked_games, migrations.RunPython.noop),
    ]
