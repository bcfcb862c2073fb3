"""Previews: a late entry or a withdrawal makes one out of date; the director's edits are checked."""

from __future__ import annotations

import pytest
from django.db.models import Q

from players.models import Player
from tests.tournaments.test_services import finish_games, make_players, play_round, running_tournament
from tournaments import services
from tournaments.models import Match, TournamentLog

pytestmark = pytest.mark.django_db


def swiss(director, count=4, rounds=3):
    players = make_players(count)
    return running_tournament(director, players, format="swiss", round_count=rounds,
                              opening="go-as-you-please"), players


def pairs(round_):
    return [(m.player_one_id, m.player_two_id) for m in round_.matches.order_by("board")]


def edit(director, tournament, number, pairings, reason="director's choice"):
    return services.round_pairings_edit(acting_user=director, tournament=tournament, number=number,
                                        pairings=pairings, reason=reason)


def test_a_late_entry_while_a_preview_is_open_must_be_paired_before_publishing(director):
    tournament, _players = swiss(director)
    play_round(director, tournament)
    preview = services.round_pair(acting_user=director, tournament=tournament)
    late = Player.objects.create(name="Late Comer", rating=1500)
    entry = services.entry_add(acting_user=director, tournament=tournament, player=late)
    assert entry.first_round == preview.number
    row = TournamentLog.objects.filter(tournament=tournament, kind="entry_added").last()
    assert row.data["stale_preview"] == preview.number
    with pytest.raises(services.RoundConflict, match="Late Comer entered after it was paired") as refused:
        services.round_publish(acting_user=director, tournament=tournament, number=preview.number)
    assert "Pair the round again" in refused.value.message
    services.round_discard(acting_user=director, tournament=tournament, number=preview.number, reason="late entry")
    again = services.round_pair(acting_user=director, tournament=tournament)
    assert late.pk in {p for pair in pairs(again) for p in pair}
    services.round_publish(acting_user=director, tournament=tournament, number=again.number)


def test_a_withdrawal_after_pairing_needs_a_forfeit_or_a_new_pairing(director):
    tournament, players = swiss(director)
    preview = services.round_pair(acting_user=director, tournament=tournament)
    services.entry_withdraw(acting_user=director, tournament=tournament, player=players[0], reason="ill")
    with pytest.raises(services.RoundConflict, match="withdrawn since"):
        services.round_publish(acting_user=director, tournament=tournament, number=preview.number)
    match = Match.objects.get(Q(player_one=players[0]) | Q(player_two=players[0]), round=preview)
    opponent = match.player_two_id if match.player_one_id == players[0].pk else match.player_one_id
    services.match_forfeit_set(acting_user=director, tournament=tournament, number=preview.number, board=match.board,
                               winner=opponent, reason="withdrew")
    services.round_publish(acting_user=director, tournament=tournament, number=preview.number)


def test_an_edit_may_not_leave_out_an_active_player(director):
    tournament, players = swiss(director)
    services.round_pair(acting_user=director, tournament=tournament)
    ids = [p.pk for p in players]
    with pytest.raises(services.InvalidInput) as refused:
        edit(director, tournament, 1, [(ids[0], ids[1])])
    assert refused.value.details["fields"]["pairings"] == [
        f"{players[2].name} is left out: pair him or give him a bye.",
        f"{players[3].name} is left out: pair him or give him a bye.",
    ]
    edit(director, tournament, 1, [(ids[0], ids[1]), (ids[2], None), (ids[3], None)])  # byes are a choice


def test_an_edit_may_not_pair_a_withdrawn_player_in_a_swiss(director):
    tournament, players = swiss(director, count=5)
    services.entry_withdraw(acting_user=director, tournament=tournament, player=players[4], reason="ill")
    services.round_pair(acting_user=director, tournament=tournament)
    ids = [p.pk for p in players]
    with pytest.raises(services.InvalidInput, match="has withdrawn"):
        edit(director, tournament, 1, [(ids[0], ids[1]), (ids[2], ids[3]), (ids[4], None)])


def test_an_edit_may_not_make_a_swiss_rematch_or_a_second_bye(director):
    tournament, _players = swiss(director, count=3)
    first = play_round(director, tournament)
    a, b = next(p for p in pairs(first) if p[1] is not None)
    byed = next(p[0] for p in pairs(first) if p[1] is None)
    services.round_pair(acting_user=director, tournament=tournament)
    with pytest.raises(services.InvalidInput) as refused:
        edit(director, tournament, 2, [(a, b), (byed, None)])
    problems = refused.value.details["fields"]["pairings"]
    assert any("have met already (no rematch in a Swiss)" in p for p in problems)
    assert any("has had a bye already" in p for p in problems)
    edit(director, tournament, 2, [(a, byed), (b, None)])


def test_an_edit_keeps_the_forfeits_set_before_it(director):
    tournament, players = swiss(director, count=6)
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    kept, *others = pairs(round_)
    services.match_forfeit_set(acting_user=director, tournament=tournament, number=1, board=1, winner=kept[1],
                               reason="absent")
    (c, d), (e, f) = others
    edit(director, tournament, 1, [(e, c), (kept[1], kept[0]), (d, f)])
    forfeit = Match.objects.get(round=round_, kind="forfeit")
    assert {forfeit.player_one_id, forfeit.player_two_id} == set(kept) and forfeit.forfeit_winner_id == kept[1]
    assert not forfeit.edited
    assert Match.objects.filter(round=round_, kind="played").count() == 2
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    finish_games(director, tournament, round_)
    assert not Match.objects.get(pk=forfeit.pk).match_games.exists()


def test_the_api_answers_a_refused_edit_with_400_and_the_problems(director):
    from rest_framework.test import APIClient

    tournament, players = swiss(director)
    services.round_pair(acting_user=director, tournament=tournament)
    api = APIClient()
    api.force_authenticate(user=director)
    response = api.put(f"/api/v1/tournaments/{tournament.slug}/rounds/1/pairings/",
                       {"pairings": [[players[0].pk, players[1].pk]], "reason": "x"}, format="json")
    assert response.status_code == 400
    body = response.json()["error"]
    assert body["code"] == "validation_error" and "left out" in body["message"]
    assert len(body["details"]["fields"]["pairings"]) == 2
