"""The players' club names become club records: one club per name, case and spacing ignored."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("clubs", "0001_initial"), ("players", "0004_player_claims")]
AFTER = [("clubs", "0002_clubs_from_player_text")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.usefixtures("scratch_database")
def test_club_names_differing_in_case_and_spacing_become_one_club_with_its_most_used_spelling():
    old = _migrate(BEFORE)
    Player = old.get_model("players", "Player")
    made = {name: Player.objects.create(name=name, club=club).pk for name, club in [
        ("Asa Long", "Bristol DC"), ("Ed Jackson", "bristol  dc"), ("Jim Morrison", " Bristol DC "),
        ("Derek Oldbury", "Devon"), ("Tom Wiswell", "DEVON"), ("Walter Hellman", ""),
        ("Newell Banks", "Detroit Checker Club"),
    ]}
    new = _migrate(AFTER)
    Club = new.get_model("clubs", "Club")
    Member = new.get_model("clubs", "ClubMember")
    NewPlayer = new.get_model("players", "Player")
    PlayerLog = new.get_model("players", "PlayerLog")
    assert sorted(Club.objects.values_list("name", "key")) == [
        ("Bristol DC", "bristol dc"), ("Detroit Checker Club", "detroit checker club"), ("Devon", "devon")]
    members = {m.player_id: m.club.name for m in Member.objects.select_related("club")}
    assert members == {made["Asa Long"]: "Bristol DC", made["Ed Jackson"]: "Bristol DC",
                       made["Jim Morrison"]: "Bristol DC", made["Derek Oldbury"]: "Devon",
                       made["Tom Wiswell"]: "Devon", made["Newell Banks"]: "Detroit Checker Club"}
    # Every player's text now spells his club's name; each change is on the registry's record.
    assert NewPlayer.objects.get(pk=made["Ed Jackson"]).club == "Bristol DC"
    assert NewPlayer.objects.get(pk=made["Tom Wiswell"]).club == "Devon"
    assert NewPlayer.objects.get(pk=made["Walter Hellman"]).club == ""
    changed = {r.player_id: r.changes["club"] for r in PlayerLog.objects.filter(kind="changed")}
    assert changed == {made["Ed Jackson"]: {"before": "bristol  dc", "after": "Bristol DC"},
                       made["Jim Morrison"]: {"before": " Bristol DC ", "after": "Bristol DC"},
                       made["Tom Wiswell"]: {"before": "DEVON", "after": "Devon"}}
    assert new.get_model("clubs", "ClubLog").objects.filter(kind="joined").count() == 6

    _migrate(BEFORE)  # and back: the records go, the players stay
    assert old.get_model("players", "Player").objects.count() == 7
    assert "clubs_club" in connection.introspection.table_names()
