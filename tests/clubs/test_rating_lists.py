"""A federation's rating list read in: ids seeded, ratings set, bad rows refused with their line and column."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from clubs.rating_lists import RatingListError, rating_list_import, rating_list_parse
from players.models import Player, PlayerLog
from players.selectors import federation_rating

pytestmark = pytest.mark.django_db

LIST = "ID,Name,Rating,Games\n501,Asa Long,2210,340\n502,ED JACKSON,1980,12\n503,Nobody Here,1700,5\n"


@pytest.fixture
def admin(django_user_model):
    return django_user_model.objects.create_superuser("fed", "fed@example.org", "a-long-test-password")


@pytest.fixture
def registry():
    asa = Player.objects.create(name="Asa Long", federation="ACF", federation_id="501", federation_rating=2100)
    ed = Player.objects.create(name="Ed  Jackson")
    return asa, ed


def test_a_list_updates_by_id_seeds_by_name_and_reports_the_unmatched(admin, registry):
    asa, ed = registry
    report = rating_list_import(acting_user=admin, federation="ACF", text=LIST)
    asa.refresh_from_db()
    ed.refresh_from_db()
    assert (federation_rating(asa), asa.federation_games) == (2210, 340)
    assert (ed.federation, ed.federation_id, federation_rating(ed), ed.federation_games) == ("ACF", "502", 1980, 12)
    assert [p.pk for _, p in report.updated] == [asa.pk] and [p.pk for _, p in report.seeded] == [ed.pk]
    assert [r.name for r in report.unmatched] == ["Nobody Here"] and not Player.objects.filter(name="Nobody Here")
    row = PlayerLog.objects.get(player=ed, kind="changed")
    assert row.changes["federation_id"] == {"before": "", "after": "502"} and row.actor == admin
    again = rating_list_import(acting_user=admin, federation="ACF", text=LIST)
    assert len(again.unchanged) == 2 and not again.updated and not again.seeded


def test_create_missing_registers_the_lists_other_players(admin, registry):
    report = rating_list_import(acting_user=admin, federation="ACF", text=LIST, create_missing=True)
    new = Player.objects.get(name="Nobody Here")
    assert (new.federation_id, new.federation_rating, new.federation_games) == ("503", 1700, 5)
    assert [p.pk for _, p in report.created] == [new.pk]


def test_two_namesakes_without_an_id_are_ambiguous_and_left_alone(admin):
    twins = [Player.objects.create(name="Ed Jackson", club=c) for c in ("A", "B")]
    report = rating_list_import(acting_user=admin, federation="ACF", text=LIST)
    assert [[p.pk for p in ps] for _, ps in report.ambiguous] == [[t.pk for t in twins]]
    assert not Player.objects.filter(federation_id="502").exists()


def test_bad_rows_refuse_the_file_naming_each_line_and_column(admin, registry):
    text = "id,name,rating,games\n501,Asa Long,abc,3\n,Ed Jackson,1900,\n503,X,99999,1\n501,Again,1500,x\n"
    with pytest.raises(RatingListError) as refused:
        rating_list_import(acting_user=admin, federation="ACF", text=text)
    assert [(e.line, e.column) for e in refused.value.errors] == [
        (2, "rating"), (3, "id"), (4, "rating"), (5, "games"), (5, "id")]
    assert "line 2, column rating" in str(refused.value)
    assert Player.objects.get(name="Asa Long").federation_rating == 2100  # nothing written
    with pytest.raises(RatingListError) as no_header:
        rating_list_parse("501,Asa Long,2210\n")
    assert {e.column for e in no_header.value.errors} == {"id", "name", "rating"}


def test_only_an_administrator_imports_and_a_director_may_check(director, player_user, admin, registry, client_as):
    answer = client_as(director).post("/api/v1/rating-lists/import", {"federation": "ACF", "csv": LIST},
                                      format="json")
    assert answer.status_code == 403
    checked = client_as(director).post("/api/v1/rating-lists/import", {"federation": "ACF", "csv": LIST,
                                                                      "dry_run": True}, format="json")
    assert checked.status_code == 200 and checked.json()["seeded"][0]["id"] == "502"
    assert Player.objects.get(name="Asa Long").federation_rating == 2100  # a check writes nothing
    assert client_as(player_user).post("/api/v1/rating-lists/import", {"federation": "ACF", "csv": LIST,
                                                                      "dry_run": True}, format="json").status_code == 403
    bad = client_as(admin).post("/api/v1/rating-lists/import", {"federation": "ACF",
                                                                "csv": "id,name,rating\n1,A,high\n"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["error"]["details"]["rows"] == [{"line": 2, "column": "rating",
                                                       "message": "'high' is not a whole number"}]
    done = client_as(admin).post("/api/v1/rating-lists/import", {"federation": "ACF", "csv": LIST}, format="json")
    assert done.status_code == 200 and len(done.json()["updated"]) == 1


def test_the_command_line_imports_and_names_bad_rows(registry, tmp_path, capsys):
    good = tmp_path / "acf.csv"
    good.write_text(LIST, encoding="utf-8")
    call_command("import_rating_list", "ACF", str(good))
    assert Player.objects.get(name="Asa Long").federation_rating == 2210
    assert "1 federation id(s) were seeded" in capsys.readouterr().out
    bad = tmp_path / "bad.csv"
    bad.write_text("id,name,rating\n7,Someone,12.5\n", encoding="utf-8")
    with pytest.raises(CommandError):
        call_command("import_rating_list", "ACF", str(bad))
    assert "line 2, column rating" in capsys.readouterr().err
