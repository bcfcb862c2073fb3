"""Ratings: when a rated tournament finishes, each player's rating moves (Glicko-2), with a history row."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.models import Game
from players.models import Player
from tournaments.models import Entry, RatingHistory, Tournament, TournamentLog
from tournaments.services import pure
from tournaments.services.access import log_write

#: Glicko-2 starting values: an unrated player, and a rating given without its deviation
#: (imported from elsewhere), which is taken as moderately reliable.
DEFAULT_RATING = 1500
UNRATED_DEVIATION = 350.0
IMPORTED_DEVIATION = 200.0
DEFAULT_VOLATILITY = 0.06


def glicko_before(player: Player) -> tuple[float, float, float]:
    """Returns the player's Glicko-2 (rating, deviation, volatility) before a tournament."""
    rating = float(player.rating) if player.rating is not None else float(DEFAULT_RATING)
    if player.rating_deviation is not None:
        deviation = player.rating_deviation
    else:
        deviation = UNRATED_DEVIATION if player.rating is None else IMPORTED_DEVIATION
    return rating, deviation, player.rating_volatility or DEFAULT_VOLATILITY


@transaction.atomic
def ratings_update(*, acting_user: Any, tournament: Tournament) -> list[RatingHistory]:
    """Updates the ratings of the players of a finished, rated tournament from its played games.

    Glicko-2 (``tournaments.ratings``), the tournament as one rating period: every game played
    over the board counts (adjudicated and forfeited-by-ruling games included); byes and
    forfeits (unplayed) do not. Each player who played gets a history row; one without a game
    keeps his rating and deviation and gets none. Called once, by the status change to finished.
    """
    if RatingHistory.objects.filter(tournament=tournament).exists():
        return list(RatingHistory.objects.filter(tournament=tournament))
    players = {e.player_id: e.player for e in Entry.objects.filter(tournament=tournament).select_related("player")}
    before = {pid: glicko_before(p) for pid, p in players.items()}
    games = []
    counts = dict.fromkeys(players, 0)
    for black, white, result in Game.objects.filter(
        round__tournament=tournament, status=Game.Status.FINISHED, match_game__isnull=False,
    ).values_list("black_id", "white_id", "result"):
        if black not in before or white not in before:
            continue
        score = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        games.append((black, white, score))
        counts[black] += 1
        counts[white] += 1
    after = pure.glicko2_ratings(before, games)
    rows: list[RatingHistory] = []
    changed: list[Player] = []
    for pid, player in players.items():
        rating, deviation, volatility = after[pid]
        if not counts[pid]:
            continue
        new_rating = round(rating)
        rows.append(RatingHistory(player=player, tournament=tournament, rating_before=player.rating,
                                  rating_after=new_rating, deviation_before=before[pid][1],
                                  deviation_after=deviation, volatility_after=volatility, games=counts[pid]))
        player.rating, player.rating_deviation, player.rating_volatility = new_rating, deviation, volatility
        changed.append(player)
    Player.objects.bulk_update(changed, ["rating", "rating_deviation", "rating_volatility"])
    RatingHistory.objects.bulk_create(rows)
    log_write(tournament=tournament, kind=TournamentLog.Kind.RATINGS_UPDATED, actor=acting_user,
              data={"method": "glicko2",
                    "changes": {str(r.player_id): [r.rating_before, r.rating_after] for r in rows}})
    return rows
