"""The club pages: the list, a club with its players, its keepers' forms (and nobody else's), the sections hook."""

import pytest

from clubs import services
from clubs.models import ClubMember
from clubs.pages import _SECTIONS, ClubPageSection, club_page_section_register
from players.models import Player
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(director, make_user):
    club = services.club_create(acting_user=director, name="Bristol DC", secretary=make_user("sec", "player"))
    for name in ("Asa Long", "Ed Jackson"):
        tournament_services.player_create(acting_user=director, name=name, club="Bristol DC")
    return club


def test_the_club_page_lists_its_players_and_shows_the_forms_to_its_keepers_only(client, club, make_user):
    page = client.get(f"/clubs/{club.pk}/").content.decode()
    assert "Asa Long" in page and "Ed Jackson" in page and 'data-testid="club-keeper"' not in page
    assert "sec" not in page.split("Secretary:")[1][:20]  # the public does not see the username
    client.force_login(make_user("someone", "director"))
    assert 'data-testid="club-keeper"' not in client.get(f"/clubs/{club.pk}/").content.decode()
    client.force_login(club.secretary)
    assert 'data-testid="club-keeper"' in client.get(f"/clubs/{club.pk}/").content.decode()
    assert "Bristol DC" in client.get("/clubs/").content.decode()
    assert client.get("/clubs/999999/").status_code == 404


def test_the_secretary_changes_removes_and_adds_players_from_the_page(client, club, director):
    asa = Player.objects.get(name="Asa Long")
    client.force_login(club.secretary)
    answer = client.post(f"/clubs/{club.pk}/members/change", {"player": asa.pk, "name": "", "federation": "ACF",
                                                             "federation_id": "501"}, follow=True)
    assert "is changed" in answer.content.decode()
    asa.refresh_from_db()
    assert (asa.name, asa.federation, asa.federation_id) == ("Asa Long", "ACF", "501")
    client.post(f"/clubs/{club.pk}/members/remove", {"player": asa.pk, "reason": "moved"})
    assert not ClubMember.objects.filter(player=asa).exists()
    client.post(f"/clubs/{club.pk}/members/add", {"player": asa.pk})
    assert ClubMember.objects.get(player=asa).club == club
    refused = client.post(f"/clubs/{club.pk}/members/add", {"player": "abc"}, follow=True).content.decode()
    assert "Some fields are invalid" in refused
    other = tournament_services.player_create(acting_user=director, name="Tom Wiswell", club="Glasgow")
    refused = client.post(f"/clubs/{club.pk}/members/change", {"player": other.pk, "name": "X"},
                          follow=True).content.decode()
    assert "not a member of Bristol DC" in refused
    other.refresh_from_db()
    assert other.name == "Tom Wiswell"


def test_a_section_registered_by_a_higher_app_is_shown_under_its_heading(client, club, monkeypatch, settings,
                                                                         tmp_path):
    (tmp_path / "clubs").mkdir()
    (tmp_path / "clubs" / "_section_test.html").write_text("<p>{{ section.words }}</p>\n")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], tmp_path]}]
    monkeypatch.setattr("clubs.pages._SECTIONS", dict(_SECTIONS))
    club_page_section_register(ClubPageSection(key="teams", title="Teams and fixtures",
                                               template="clubs/_section_test.html",
                                               context=lambda c, r: {"words": f"teams of {c.name}"}))
    page = client.get(f"/clubs/{club.pk}/").content.decode()
    assert 'data-testid="club-section-teams"' in page and "Teams and fixtures" in page
    assert "teams of Bristol DC" in page


def test_the_club_page_takes_as_many_queries_for_12_players_as_for_2(client, club, director):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def count(url: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    few = count(f"/clubs/{club.pk}/")
    for i in range(10):
        tournament_services.player_create(acting_user=director, name=f"Member {i}", club="Bristol DC")
    assert count(f"/clubs/{club.pk}/") == few
    print(f"club page: {few} queries")
