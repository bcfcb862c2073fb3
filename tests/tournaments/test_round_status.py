"""A round's status moves only through ``round_status_set``, along ``ROUND_TRANSITIONS``."""

from __future__ import annotations

import pytest

from players.models import Player
from tournaments import services
from tournaments.models import Round, TournamentLog
from tournaments.services.rounds import ROUND_TRANSITIONS, round_status_set

pytestmark = pytest.mark.django_db

Status = Round.Status
ALLOWED = {(before, after) for before, steps in ROUND_TRANSITIONS.items() for after in steps}
REFUSED = [(before, after) for before in Status.values for after in Status.values if (before, after) not in ALLOWED]


def a_round(director, status: str) -> Round:
    tournament = services.tournament_create(acting_user=director, name="X", slug="x")
    return Round.objects.create(tournament=tournament, number=1, status=status)


def test_the_table_names_every_status_and_only_moves_forward():
    assert set(ROUND_TRANSITIONS) == set(Status.values)
    order = [Status.PREVIEW, Status.PUBLISHED, Status.IN_PROGRESS, Status.FINISHED]
    expected = {(Status.PREVIEW, Status.PUBLISHED), (Status.PUBLISHED, Status.FINISHED),
                (Status.IN_PROGRESS, Status.FINISHED)}
    assert expected == ALLOWED
    assert all(order.index(before) < order.index(after) for before, after in ALLOWED)
    assert ROUND_TRANSITIONS[Status.FINISHED] == {}


@pytest.mark.parametrize(("before", "after"), REFUSED)
def test_a_step_outside_the_table_is_refused_and_changes_nothing(director, before, after):
    round_ = a_round(director, before)
    rows = TournamentLog.objects.count()
    with pytest.raises(services.StatusTransitionRefused) as info:
        round_status_set(round_, after, acting_user=director)
    assert info.value.details == {"round": 1, "status": before, "requested": after,
                                  "allowed": list(ROUND_TRANSITIONS[before])}
    round_.refresh_from_db()
    assert round_.status == before and round_.published_at is None
    assert TournamentLog.objects.count() == rows


def test_publishing_stamps_the_round_and_writes_its_log_row(director):
    round_ = a_round(director, Status.PREVIEW)
    round_status_set(round_, Status.PUBLISHED, acting_user=director, data={"games": 4})
    round_.refresh_from_db()
    assert round_.status == Status.PUBLISHED and round_.published_at is not None
    row = TournamentLog.objects.filter(tournament=round_.tournament).latest("id")
    assert (row.kind, row.actor, row.data) == (TournamentLog.Kind.ROUND_PUBLISHED, director, {"round": 1, "games": 4})


@pytest.mark.parametrize("before", [Status.PUBLISHED, Status.IN_PROGRESS])
def test_finishing_writes_no_row_of_its_own(director, before):
    round_ = a_round(director, before)
    rows = TournamentLog.objects.count()
    round_status_set(round_, Status.FINISHED, acting_user=director)
    round_.refresh_from_db()
    assert round_.status == Status.FINISHED
    assert TournamentLog.objects.count() == rows


def test_the_services_move_rounds_along_the_table_with_the_same_log_rows(director):
    tournament = services.tournament_create(acting_user=director, name="X", slug="x", opening="go-as-you-please")
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    for i in range(3):
        services.entry_add(acting_user=director, tournament=tournament,
                           player=Player.objects.create(name=f"P{i}", rating=2000 - i))
    services.tournament_status_set(acting_user=director, tournament=tournament, status="running")

    def play(number: int) -> None:
        services.round_pair(acting_user=director, tournament=tournament)
        services.round_publish(acting_user=director, tournament=tournament, number=number)
        with pytest.raises(services.RoundConflict):
            services.round_publish(acting_user=director, tournament=tournament, number=number)
        for game in Round.objects.get(tournament=tournament, number=number).games.order_by("id"):
            services.game_result_set(acting_user=director, tournament=tournament, game_id=game.pk, result="1-0",
                                     reason="slip")

    play(1)
    start = TournamentLog.objects.latest("id").pk
    play(2)  # pairing round 2 finishes round 1
    assert Round.objects.get(tournament=tournament, number=1).status == Status.FINISHED
    kinds = list(TournamentLog.objects.filter(pk__gt=start).order_by("id").values_list("kind", flat=True))
    assert kinds[:2] == ["round_paired", "round_published"]
    assert set(kinds[2:]) == {"result_recorded"}
    play(3)
    start = TournamentLog.objects.latest("id").pk
    services.tournament_status_set(acting_user=director, tournament=tournament, status="finished")
    assert set(tournament.rounds.values_list("status", flat=True)) == {Status.FINISHED}
    kinds = list(TournamentLog.objects.filter(pk__gt=start).values_list("kind", flat=True))
    assert kinds == ["status_changed"]
