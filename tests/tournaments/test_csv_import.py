"""Importing players from CSV: rows refused with their line and reason, duplicates caught."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from players.models import Player
from tournaments.csv_import import CSVFormatError, players_import

pytestmark = pytest.mark.django_db

CSV = """name,club,federation,federation_id,rating
Agnes Calder,Edinburgh DC,SCO,S-101,1900
Bram Okafor,Leeds Checkers,ENG,E-7,1850
,Nowhere,ENG,E-8,1500
Cora Lindqvist,Edinburgh DC,SCO,S-102,strong
Agnes Twin,Other,SCO,S-101,1700
Declan Murray,Glasgow Draughts,,,
declan  murray,Glasgow draughts,,,1600
Elif Aydin,Leeds Checkers,ENG,E-9,99999
"""


def test_rows_are_imported_and_refused_with_line_and_reason():
    report = players_import(CSV)
    assert [p.name for p in report.created] == ["Agnes Calder", "Bram Okafor", "Declan Murray"]
    refused = {r.line: r.reason for r in report.refused}
    assert refused == {
        4: "the name is missing",
        5: "the rating 'strong' is not a whole number",
        6: "duplicate of line 2 (SCO S-101)",
        8: "duplicate of line 7 (same name and club)",
        9: "the rating 99999 is out of range (0 to 4000)",
    }
    assert Player.objects.count() == 3
    assert Player.objects.get(federation_id="S-101").rating == 1900


def test_players_already_registered_are_refused():
    Player.objects.create(name="Bram Okafor", club="Leeds Checkers", federation="ENG", federation_id="E-7")
    Player.objects.create(name="Declan Murray", club="Glasgow Draughts")
    report = players_import(CSV)
    refused = {r.line: r.reason for r in report.refused}
    assert refused[3] == "ENG E-7 is already registered"
    assert refused[7] == "Declan Murray (Glasgow Draughts) is already registered"


def test_dry_run_writes_nothing():
    report = players_import(CSV, dry_run=True)
    assert len(report.created) == 3 and Player.objects.count() == 0


def test_a_file_without_a_name_column_is_refused_whole():
    with pytest.raises(CSVFormatError):
        players_import("club,rating\nX,1\n")


def test_the_command_reports_refused_rows(tmp_path):
    path = tmp_path / "players.csv"
    path.write_text(CSV, encoding="utf-8")
    out = io.StringIO()
    call_command("import_players", str(path), stdout=out)
    text = out.getvalue()
    assert "3 player(s) imported." in text
    assert "line 5: the rating 'strong' is not a whole number" in text
    with pytest.raises(CommandError):
        call_command("import_players", str(tmp_path / "missing.csv"))


def test_the_api_imports_for_a_director_only(make_user):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(make_user("pla", "player"))
    assert client.post("/api/v1/players/import/", {"csv": CSV}, format="json").status_code == 403
    client.force_authenticate(make_user("td", "director"))
    body = client.post("/api/v1/players/import/", {"csv": CSV}, format="json").json()
    assert len(body["created"]) == 3 and body["refused"][0] == {
        "line": 4, "reason": "the name is missing",
        "row": {"name": "", "club": "Nowhere", "federation": "ENG", "federation_id": "E-8", "rating": "1500"}}
    error = client.post("/api/v1/players/import/", {"csv": "x\n1\n"}, format="json").json()["error"]
    assert error["code"] == "validation_error" and "csv" in error["details"]["fields"]


def test_a_field_over_the_csv_modules_limit_is_refused_whole_with_its_line_not_a_server_error(make_user):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(make_user("td", "director"))
    text = "name,club\nAgnes Calder,Edinburgh DC\n" + "B" * 200_000 + ",Leeds\n"
    response = client.post("/api/v1/players/import/", {"csv": text}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "validation_error" and "Line 3 cannot be read as CSV" in error["details"]["fields"]["csv"][0]
    assert not Player.objects.exists()  # refused whole: the line before it is not imported either
    with pytest.raises(CSVFormatError, match="Line 1 cannot be read"):
        players_import("n" * 200_000 + "ame,club\n")
