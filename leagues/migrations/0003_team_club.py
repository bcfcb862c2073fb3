"""Links each team to its club record (``Team.club``), matching ``club_name`` by the club's key (case and spacing
ignored, as ``clubs.models.club_key``); a name no club has becomes a club record, with a ``created`` row on its
record. Adds the league's rule ``clubs_enter_teams``. Going back drops the link and leaves the clubs made."""

import django.db.models.deletion
from django.db import migrations, models

REASON = "club record made from a league team's club name (migration leagues 0003)"


def _key(name):
    return " ".join((name or "").lower().split())


def teams_to_clubs(apps, schema_editor):
    Team = apps.get_model("leagues", "Team")
    Club = apps.get_model("clubs", "Club")
    ClubLog = apps.get_model("clubs", "ClubLog")
    for team in Team.objects.filter(club__isnull=True).order_by("id"):
        key = _key(team.club_name)
        if not key:
            continue
        club = Club.objects.filter(key=key).first()
        if club is None:
            club = Club.objects.create(name=" ".join(team.club_name.split()), key=key)
            ClubLog.objects.create(club=club, kind="created", reason=REASON,
                                   changes={"name": {"before": None, "after": club.name}})
        team.club = club
        team.save(update_fields=["club"])


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0002_cup"),
        ("clubs", "0002_clubs_from_player_text"),
    ]

    operations = [
        migrations.AddField(
            model_name="league",
            name="clubs_enter_teams",
            field=models.BooleanField(default=False, help_text="A club's secretary may enter a team of his club in a "
                                      "division (else only the league's secretary enters teams)."),
        ),
        migrations.AddField(
            model_name="team",
            name="club",
            field=models.ForeignKey(blank=True, help_text="The club: its secretary keeps the team's roster.",
                                    null=True, on_delete=django.db.models.deletion.PROTECT, related_name="teams",
                                    to="clubs.club"),
        ),
        migrations.AlterField(
            model_name="team",
            name="club_name",
            field=models.CharField(help_text="The club's name as entered (the club record is the truth).",
                                   max_length=120),
        ),
        migrations.RunPython(teams_to_clubs, migrations.RunPython.noop),
    ]
