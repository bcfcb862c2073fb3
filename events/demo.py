"""What events add to the demo (``tournaments.demo.demo_extend``, registered in ``EventsConfig.ready()``).

Made through the same services as a director's: the Demo Nationals, an event of three sections
(Masters: a round robin of 4-game rounds, 2000 and over; Major: a 3-round Swiss, 1750 to 1999;
Minor: a 3-round Swiss, go as you please, up to 1749, closed to the Masters' players), each
player registered and checked in at the one desk and round 1 of every section paired (a preview
for the director to publish: the demo's own tournaments keep the only games being played, so the
pages that count them are as before); a short title match (4 games, openings drawn in advance)
between two of the Masters, decided after game 3 with a game to spare; and a series over the
demo's finished Swiss and the Masters.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from arbitration.services import ruling_issue
from events import services
from games.models import Game
from tournaments import services as tournament_services

EVENT_SLUG = "demo-nationals"
MATCH_SLUG = "demo-title-match"
SERIES_SLUG = "demo-grand-prix"

#: The title match's games until it is decided: the champion wins, draws, wins (2½-½ with one game to play: the
#: challenger could reach 1½ at most).
MATCH_GAMES = [("resign", "Resigned, a man down."), ("draw_agreed", "Agreed after move 30."),
               ("resign", "Resigned in a lost ending.")]

#: The event's own entrants: name, club, rating.
ENTRANTS = [
    ("Hamish Reid", "Edinburgh DC", 2240), ("Ines Ferreira", "Leeds Checkers", 2180),
    ("Jonah Pike", "Manchester DC", 2120), ("Kirsty Munro", "Glasgow Draughts", 2060),
    ("Lars Eriksen", "Leeds Checkers", 1950), ("Maeve Doyle", "Edinburgh DC", 1890),
    ("Nikhil Rao", "Manchester DC", 1830), ("Orla Quinn", "Glasgow Draughts", 1770),
    ("Piotr Nowak", "Leeds Checkers", 1690), ("Rosa Alvarez", "Edinburgh DC", 1610),
    ("Stan Whitby", "Manchester DC", 1540), ("Tove Holm", "Glasgow Draughts", 1460),
]


def demo_event_seed(*, director: Any, players: list[Any]) -> None:
    """Adds the Demo Nationals (three sections, round 1 under way), a title match and a series."""
    today = timezone.localdate()
    event = services.event_create(acting_user=director, name="Demo Nationals", slug=EVENT_SLUG,
                                  venue="Blackpool, Winter Gardens", organiser="Demo Draughts Association",
                                  start_date=today, end_date=today + dt.timedelta(days=3))
    masters = services.section_create(acting_user=director, event=event, name="Masters", rating_min=2000,
                                      unrated_allowed=False, format="round_robin", games_per_match=4,
                                      opening="three-move-ballot", referees=["referee1"])
    major = services.section_create(acting_user=director, event=event, name="Major", rating_min=1750,
                                    rating_max=1999, format="swiss", round_count=3, referees=["referee2"])
    minor = services.section_create(acting_user=director, event=event, name="Minor", rating_max=1749,
                                    barred_by=[masters.pk], format="swiss", round_count=3,
                                    opening="go-as-you-please", referees=["referee2"])
    entrants = [tournament_services.player_create(acting_user=director, name=name, club=club, rating=rating)
                for name, club, rating in ENTRANTS]
    for section, group in ((masters, entrants[:4]), (major, entrants[4:8]), (minor, entrants[8:])):
        for player in group:
            services.registration_add(acting_user=director, event=event, section=section, player=player)
    for player in entrants:
        services.event_check_in(acting_user=director, event=event, player=player)
    for section in (masters, major, minor):
        tournament = tournament_services.tournament_status_set(acting_user=director, tournament=section.tournament,
                                                               status="running")
        tournament_services.round_pair(acting_user=director, tournament=tournament)
    champion, challenger = entrants[0], entrants[1]
    match = services.title_match_create(acting_user=director, name="Demo Title Match", slug=MATCH_SLUG,
                                        player_one=champion, player_two=challenger, games=4, event=event)
    game_id: int | None = services.title_match_start(acting_user=director, match=match).game_id
    for kind, note in MATCH_GAMES:
        game = Game.objects.get(pk=game_id)
        challenger_side = "white" if game.black_id == champion.pk else "black"
        ruling_issue(acting_user=director, game_id=game.pk, kind=kind,
                     side=challenger_side if kind == "resign" else None, note=note)
        # the next game (the task after the commit then finds it done); None once the match is decided
        game_id = services.title_match_game_finished(game_id=game.pk)
    services.series_create(acting_user=director, name="Demo Grand Prix", slug=SERIES_SLUG, method="places",
                           place_points=[10, 6, 4, 3, 2, 1], best_of=1,
                           stages=["demo-autumn-swiss", masters.tournament.slug])
