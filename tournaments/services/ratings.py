"""Ratings: when a rated tournament finishes, each player's rating moves, with a history row."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.models import Game
from tournaments.models import Entry, Player, RatingHistory, Tournament, TournamentLog
from tournaments.services import pure
from tournaments.services.tournaments import log_write

DEFAULT_RATING = 1500


@transaction.atomic
def ratings_update(*, acting_user: Any, tournament: Tournament) -> list[RatingHistory]:
    """Updates the ratings of the players of a finished, rated tournament from its played games.

    Byes and forfeits (unplayed) do not count. Called once, by the status change to finished.
    """
    if RatingHistory.objects.filter(tournament=tournament).exists():
        return list(RatingHistory.objects.filter(tournament=tournament))
    players = {e.player_id: e.player for e in Entry.objects.filter(tournament=tournament).select_related("player")}
    ratings = {pid: (p.rating if p.rating is not None else DEFAULT_RATING) for pid, p in players.items()}
    games = []
    counts = dict.fromkeys(players, 0)
    for black, white, result in Game.objects.filter(
        round__tournament=tournament, status=Game.Status.FINISHED, match_game__isnull=False,
    ).values_list("black_id", "white_id", "result"):
        if black not in ratings or white not in ratings:
            continue
        score = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        games.append((black, white, score))
        counts[black] += 1
        counts[white] += 1
    new = pure.elo_update(ratings, games)
    rows = []
    for pid, player in players.items():
        rows.append(RatingHistory(player=player, tournament=tournament, rating_before=player.rating,
                                  rating_after=new[pid], games=counts[pid]))
        player.rating = new[pid]
    Player.objects.bulk_update(list(players.values()), ["rating"])
    RatingHistory.objects.bulk_create(rows)
    log_write(tournament=tournament, kind=TournamentLog.Kind.RATINGS_UPDATED, actor=acting_user,
              data={"method": "elo", "changes": {str(r.player_id): [r.rating_before, r.rating_after] for r in rows}})
    return rows
