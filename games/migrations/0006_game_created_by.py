import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def created_by_from_log(apps, schema_editor):
    """Sets each game's creator from the actor of its ``game_created`` log entry."""
    Game = apps.get_model("games", "Game")
    LogEntry = apps.get_model("arbitration", "LogEntry")
    creators = dict(LogEntry.objects.filter(kind="game_created", actor__isnull=False).values_list("game_id", "actor_id"))
    for game in Game.objects.filter(created_by__isnull=True, pk__in=list(creators)).only("pk"):
        Game.objects.filter(pk=game.pk).update(created_by_id=creators[game.pk])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0005_player_moved"),
        ("arbitration", "0004_lean_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="created_by",
            field=models.ForeignKey(
                blank=True, help_text="Who created the game: a standalone game (no round) is directed by him "
                "(arbitration.access).", null=True, on_delete=django.db.models.deletion.PROTECT,
                related_name="+", to=settings.AUTH_USER_MODEL),
        ),
        migrations.RunPython(created_by_from_log, migrations.RunPython.noop),
    ]
