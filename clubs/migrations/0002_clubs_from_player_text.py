"""Makes a club record of each club named in the players' text field, and a member of each player who named one.

Names that differ only in case and spacing are one club (``club_key``). The club takes the
spelling most of its players used (on a tie, the one of the player registered first), and a
player whose text was spelt otherwise gets that spelling, with a row on the registry's record
(``PlayerLog``: changed, club before and after) and a ``joined`` row on the club's record.
Going back removes the records and leaves the text as it is.
"""

from collections import Counter, defaultdict

from django.db import migrations

REASON = "club records made from the players' club names (migration clubs 0002)"


def _key(name):
    return " ".join((name or "").lower().split())


def clubs_from_text(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    PlayerLog = apps.get_model("players", "PlayerLog")
    Club = apps.get_model("clubs", "Club")
    ClubMember = apps.get_model("clubs", "ClubMember")
    ClubLog = apps.get_model("clubs", "ClubLog")
    groups = defaultdict(list)
    for pk, text in Player.objects.exclude(club="").order_by("id").values_list("id", "club"):
        if _key(text):
            groups[_key(text)].append((pk, text))
    for key, players in groups.items():
        spellings = Counter(" ".join(text.split()) for _, text in players)
        first_seen = {}
        for _, text in players:
            first_seen.setdefault(" ".join(text.split()), len(first_seen))
        name = min(spellings, key=lambda s: (-spellings[s], first_seen[s]))
        club = Club.objects.filter(key=key).first() or Club.objects.create(name=name, key=key)
        if not ClubLog.objects.filter(club=club, kind="created").exists():
            ClubLog.objects.create(club=club, kind="created", reason=REASON, changes={"name": {"before": None,
                                                                                               "after": name}})
        for pk, text in players:
            if ClubMember.objects.filter(player_id=pk).exists():
                continue
            ClubMember.objects.create(player_id=pk, club=club)
            ClubLog.objects.create(club=club, kind="joined", player_id=pk, reason=REASON)
            if text != club.name:
                Player.objects.filter(pk=pk).update(club=club.name)
                PlayerLog.objects.create(player_id=pk, kind="changed", reason=REASON,
                                         changes={"club": {"before": text, "after": club.name}})


def records_removed(apps, schema_editor):
    apps.get_model("clubs", "ClubLog").objects.all().delete()
    apps.get_model("clubs", "ClubMember").objects.all().delete()
    apps.get_model("clubs", "Club").objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0001_initial"),
        ("players", "0004_player_claims"),
    ]

    operations = [migrations.RunPython(clubs_from_text, records_removed)]
