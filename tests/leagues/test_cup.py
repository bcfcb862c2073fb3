"""The team knockout cup: the draw by lots from a recorded seed, byes, level matches by the cup's rule, rounds."""

from __future__ import annotations

from decimal import Decimal

import pytest

from leagues import selectors, services
from leagues.core.cup import BOARD_ELIMINATION, DECIDER, cup_draw, cup_winner, next_round
from leagues.errors import NotAllowed
from leagues.models import Fixture, LeagueLog
from tests.leagues.conftest import build_league, captain_of, sheet

D = Decimal


def test_the_draw_is_reproducible_from_its_seed_with_byes_to_a_power_of_two():
    first = cup_draw([1, 2, 3, 4, 5], seed=7)
    assert first == cup_draw([1, 2, 3, 4, 5], seed=7)
    assert len([p for p in first if p.is_bye]) == 3 and len([p for p in first if not p.is_bye]) == 1
    assert sorted(t for p in first for t in (p.home, p.away) if t is not None) == [1, 2, 3, 4, 5]
    assert len({tuple(p.home for p in cup_draw(list(range(1, 9)), seed=s)) for s in range(5)}) > 1  # lots vary
    assert [(p.home, p.away) for p in next_round([4, 1, 3, 2], 2)] == [(4, 1), (3, 2)]


def test_a_level_match_goes_through_by_board_elimination_or_waits_for_a_decider():
    boards = [(D(1), D(1)), (D(2), D(0)), (D(0), D(2)), (D(1), D(1))]
    assert cup_winner(boards, BOARD_ELIMINATION) == "home"  # 4-4; board 4 struck: 3-3; board 3 struck: 3-1
    assert cup_winner(boards, DECIDER) is None
    assert cup_winner([(D(2), D(0)), (D(0), D(2))], BOARD_ELIMINATION) == "home"  # board 2 struck: board 1 home
    assert cup_winner([(D(3), D(1))], DECIDER) == "home"


@pytest.mark.django_db
def test_a_five_team_cup_is_played_to_its_winner_with_a_decider(make_user):
    world = build_league(make_user, slug="cup", teams=5)
    cup = services.cup_create(acting_user=world.secretary, league=world.league, season=world.season,
                              name="Shield", teams=[t.pk for t in world.teams], tie_rule="decider")
    drawn = LeagueLog.objects.get(league=world.league, kind="cup_drawn")
    assert drawn.data["seed"] == cup.draw_seed and len(drawn.data["draw"]) == 4
    tie = Fixture.objects.select_related("home", "away").get(cup=cup, round=1, away__isnull=False)
    for side, team in (("home", tie.home), ("away", tie.away)):
        services.sheet_submit(acting_user=captain_of(world, team), fixture=tie, side=side, players=sheet(world, team))
    services.card_enter(acting_user=captain_of(world, tie.home), fixture=tie, boards=[[1], [0], [0.5], [0.5]])
    services.card_confirm(acting_user=captain_of(world, tie.away), fixture=tie)
    tie.refresh_from_db()
    assert tie.status == "result" and tie.cup_through == ""  # level: the decider is to come
    with pytest.raises(NotAllowed):
        services.cup_decider(acting_user=captain_of(world, tie.home), fixture=tie, side="home", reason="x")
    services.cup_decider(acting_user=world.secretary, fixture=tie, side="away", reason="decider won by the away team")
    second = list(Fixture.objects.filter(cup=cup, round=2).order_by("id"))
    assert len(second) == 2 and tie.away_id in {t for f in second for t in (f.home_id, f.away_id)}
    for fixture in second:
        services.match_default(acting_user=world.secretary, fixture=fixture, side="away", reason="did not come")
    final = Fixture.objects.get(cup=cup, round=3)
    assert {final.home_id, final.away_id} == {f.home_id for f in second}
    services.match_default(acting_user=world.secretary, fixture=final, side="home", reason="did not come")
    cup.refresh_from_db()
    assert cup.winner_id == final.away_id
    assert not Fixture.objects.filter(cup=cup, round=4).exists()
    assert all(row.played == 0 for row in selectors.division_table(world.season, world.division))  # cup matches are not in the league table
