"""Each tournament keeps its log's chain head (the seq and hash of its last row) on its own row.

As the game row does for its arbitration log: rows deleted from the end of a tournament's log
then show (``tournament_log_verify``), and the head can be printed and kept outside. The head of
each existing tournament is its last row as it stands.
"""

from django.db import migrations, models

GENESIS = "0" * 64


def fill_heads(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    TournamentLog = apps.get_model("tournaments", "TournamentLog")
    for tournament_id in Tournament.objects.values_list("pk", flat=True).iterator():
        last = TournamentLog.objects.filter(tournament_id=tournament_id).order_by("-seq").values_list(
            "seq", "hash").first()
        if last is not None:
            Tournament.objects.filter(pk=tournament_id).update(log_seq=last[0], log_head=last[1])


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0009_arbiters_appeals_log_kinds"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="log_seq",
            field=models.PositiveIntegerField(default=0, editable=False, help_text="The seq of the log's last row."),
        ),
        migrations.AddField(
            model_name="tournament",
            name="log_head",
            field=models.CharField(default=GENESIS, editable=False, max_length=64,
                                   help_text="The hash of the log's last row (the chain head)."),
        ),
        migrations.RunPython(fill_heads, migrations.RunPython.noop),
    ]
