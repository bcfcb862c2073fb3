"""Clubs through the services: registering, keeping, members, and the registry's club text following the record."""

import pytest

from clubs import selectors, services
from clubs.models import Club, ClubLog, ClubMember
from core.api import AppError
from players.models import Player, PlayerLog
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def bristol(director, make_user):
    secretary = make_user("sec_bristol", "player")
    return services.club_create(acting_user=director, name="Bristol DC", short_name="BDC",
                                contact="secretary@bristol.example", secretary=secretary)


def test_a_director_registers_a_club_and_a_second_spelling_is_refused(director, bristol):
    assert (bristol.key, bristol.created_by, bristol.secretary.username) == ("bristol dc", director, "sec_bristol")
    with pytest.raises(AppError) as refused:
        services.club_create(acting_user=director, name="  bristol   DC ")
    assert refused.value.status_code == 400 and "fields" in refused.value.details
    assert ClubLog.objects.filter(club=bristol, kind="created").count() == 1


def test_a_player_or_the_public_cannot_register_a_club(player_user):
    for user in (player_user, None):
        with pytest.raises(AppError) as refused:
            services.club_create(acting_user=user, name="Nowhere")
        assert refused.value.status_code == 403
    assert not Club.objects.exists()


def test_a_director_registering_a_player_with_a_club_text_makes_him_a_member_spelt_as_the_club(director, bristol):
    player = tournament_services.player_create(acting_user=director, name="Asa Long", club="BRISTOL  dc")
    assert player.club == "Bristol DC"
    assert selectors.player_club(player) == bristol
    other = tournament_services.player_create(acting_user=director, name="Tom Wiswell", club="New York CC")
    new_club = selectors.player_club(other)
    assert (new_club.name, new_club.created_by) == ("New York CC", director)
    tournament_services.player_update(acting_user=director, player=other, club="bristol dc")
    other.refresh_from_db()
    assert (other.club, selectors.player_club(other)) == ("Bristol DC", bristol)
    tournament_services.player_update(acting_user=director, player=other, club="")
    assert selectors.player_club(other) is None
    assert list(ClubLog.objects.filter(player=other).order_by("id").values_list("club__name", "kind")) == [
        ("New York CC", "joined"), ("New York CC", "left"), ("Bristol DC", "joined"), ("Bristol DC", "left")]


def test_the_csv_import_makes_its_players_members(director, bristol):
    from tournaments.csv_import import players_import

    report = players_import("name,club\nAsa Long,bristol dc\nEd Jackson,Glasgow\n", acting_user=director)
    assert len(report.created) == 2
    assert {p.name: (p.club, selectors.player_club(p).name) for p in Player.objects.all()} == {
        "Asa Long": ("Bristol DC", "Bristol DC"), "Ed Jackson": ("Glasgow", "Glasgow")}


def test_the_secretary_changes_his_clubs_players_and_not_another_clubs(director, bristol, make_user):
    mine = tournament_services.player_create(acting_user=director, name="Asa Long", club="Bristol DC")
    theirs = tournament_services.player_create(acting_user=director, name="Ed Jackson", club="Glasgow")
    secretary = bristol.secretary
    services.club_player_update(acting_user=secretary, club=bristol, player=mine, name="Asa A. Long",
                                federation="ACF", federation_id="1001")
    mine.refresh_from_db()
    assert (mine.name, mine.federation, mine.federation_id) == ("Asa A. Long", "ACF", "1001")
    row = PlayerLog.objects.filter(player=mine, actor=secretary).get()
    assert row.changes["name"] == {"before": "Asa Long", "after": "Asa A. Long"}
    with pytest.raises(AppError) as refused:  # not a member of Bristol: 404 as a member of this club
        services.club_player_update(acting_user=secretary, club=bristol, player=theirs, name="X")
    assert refused.value.status_code == 404
    glasgow = selectors.player_club(theirs)
    with pytest.raises(AppError) as refused:  # through his own club's endpoint: not its keeper
        services.club_player_update(acting_user=secretary, club=glasgow, player=theirs, name="X")
    assert refused.value.status_code == 403
    with pytest.raises(AppError) as refused:  # a rating is not a club's to change
        services.club_player_update(acting_user=secretary, club=bristol, player=mine, rating=2400)
    assert refused.value.status_code == 400
    theirs.refresh_from_db()
    assert theirs.name == "Ed Jackson"


def test_a_secretary_takes_a_free_player_but_not_another_clubs_until_it_releases_him(director, bristol, make_user):
    free = tournament_services.player_create(acting_user=director, name="Free Player")
    services.club_player_add(acting_user=bristol.secretary, club=bristol, player=free)
    free.refresh_from_db()
    assert free.club == "Bristol DC"
    glasgow_secretary = make_user("sec_glasgow", "player")
    glasgow = services.club_create(acting_user=director, name="Glasgow", secretary=glasgow_secretary)
    with pytest.raises(AppError) as refused:
        services.club_player_add(acting_user=glasgow_secretary, club=glasgow, player=free)
    assert refused.value.status_code == 409
    services.club_player_remove(acting_user=bristol.secretary, club=bristol, player=free, reason="moved away")
    services.club_player_add(acting_user=glasgow_secretary, club=glasgow, player=free)
    free.refresh_from_db()
    assert (free.club, ClubMember.objects.get(player=free).club) == ("Glasgow", glasgow)
    # The director who registered both clubs keeps both: he transfers at once.
    services.club_player_add(acting_user=director, club=bristol, player=free)
    assert ClubMember.objects.get(player=free).club == bristol


def test_renaming_a_club_renames_its_players_text_and_only_its_creator_names_the_secretary(director, bristol,
                                                                                           make_user):
    member = tournament_services.player_create(acting_user=director, name="Asa Long", club="Bristol DC")
    services.club_update(acting_user=bristol.secretary, club=bristol, name="Bristol Draughts Club", contact="x@y.z")
    member.refresh_from_db()
    assert member.club == "Bristol Draughts Club"
    assert Club.objects.get(pk=bristol.pk).key == "bristol draughts club"
    with pytest.raises(AppError) as refused:
        services.club_update(acting_user=bristol.secretary, club=bristol, secretary=make_user("other", "player"))
    assert refused.value.status_code == 403
    services.club_update(acting_user=director, club=bristol, secretary=None)
    assert Club.objects.get(pk=bristol.pk).secretary is None
    with pytest.raises(AppError) as refused:
        services.club_update(acting_user=make_user("dir2", "director"), club=bristol, contact="mine now")
    assert refused.value.status_code == 403
