"""A board game keeps the result the match's card was written from (``BoardGame.counted_result``), so that the
card, the match's points and the table follow when the game's result is corrected, with a ``card_corrected`` row
on the league's log. The board games of the matches whose card is entered already take their game's present
result (the card was written from it)."""

from django.db import migrations, models

CARDED = ("card_entered", "disputed", "result")


def counted_from_games(apps, schema_editor):
    BoardGame = apps.get_model("leagues", "BoardGame")
    rows = list(BoardGame.objects.filter(fixture__status__in=CARDED, game__result__isnull=False)
                .select_related("game"))
    for row in rows:
        row.counted_result = row.game.result
    BoardGame.objects.bulk_update(rows, ["counted_result"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0003_team_club"),
    ]

    operations = [
        migrations.AddField(
            model_name="boardgame",
            name="counted_result",
            field=models.CharField(blank=True, default="", help_text="The game's result the match's card was last written from (the card follows a corrected game: leagues.services.fixture_games_finished).", max_length=8),
        ),
        migrations.AlterField(
            model_name="leaguelog",
            name="kind",
            field=models.CharField(choices=[("created", "League created"), ("division_added", "Division added"), ("season_created", "Season created"), ("team_added", "Team added"), ("roster_changed", "Roster changed"), ("fixtures_made", "Fixtures made"), ("fixture_dated", "Fixture date set"), ("sheet_submitted", "Team sheet submitted"), ("match_started", "Match started: boards became games"), ("card_entered", "Result card entered"), ("card_confirmed", "Result card confirmed"), ("card_corrected", "Result card follows a board game's corrected result"), ("card_disputed", "Result card disputed"), ("dispute_decided", "Dispute decided by the secretary"), ("match_defaulted", "Match defaulted"), ("postponement", "Postponement"), ("cup_drawn", "Cup drawn (lots)"), ("cup_round", "Cup round made"), ("cup_through", "Cup match decided: a side goes through")], max_length=24),
        ),
        migrations.RunPython(counted_from_games, migrations.RunPython.noop),
    ]
