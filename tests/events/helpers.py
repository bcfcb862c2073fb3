"""Shared set-ups of the events tests: an event with sections, a title match's games finished."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.test import TestCase

from arbitration.rulings import ruling_issue
from events import services
from events.models import Event, Section, TitleMatch
from games.models import Game
from players.models import Player


def make_event(director: Any, slug: str = "nationals") -> Event:
    return services.event_create(acting_user=director, name="National Championships", slug=slug,
                                 venue="Blackpool", organiser="English Draughts Association",
                                 start_date=date(2026, 7, 1), end_date=date(2026, 7, 5))


def three_sections(director: Any, event: Event) -> tuple[Section, Section, Section]:
    """Masters (2000 and over, 4-game rounds), Major (1700 to 2099), Minor (up to 1799; masters may not enter)."""
    masters = services.section_create(acting_user=director, event=event, name="Masters", rating_min=2000,
                                      format="round_robin", games_per_match=4, opening="three-move-ballot")
    major = services.section_create(acting_user=director, event=event, name="Major", rating_min=1700,
                                    rating_max=2099, format="swiss", round_count=3, opening="three-move-ballot")
    minor = services.section_create(acting_user=director, event=event, name="Minor", rating_max=1799,
                                    barred_by=[masters.pk], format="swiss", round_count=3,
                                    opening="go-as-you-please")
    return masters, major, minor


def players(prefix: str, ratings: list[int]) -> list[Player]:
    return [Player.objects.create(name=f"{prefix} {i}", rating=r) for i, r in enumerate(ratings, start=1)]


def finish(director: Any, game: Game, winner: Player | None) -> None:
    """Adjudicates the game: a win for ``winner`` (None: a draw)."""
    result = "1/2-1/2" if winner is None else "1-0" if game.black_id == winner.pk else "0-1"
    with TestCase.captureOnCommitCallbacks(execute=True):  # game_finished, then the match's follow-up task
        ruling_issue(acting_user=director, game_id=game.pk, kind="adjudicate",
                     payload={"result": result, "reason": "the result slip"})


def current_game(match: TitleMatch) -> Game:
    return match.match_games.select_related("game").order_by("-number").first().game
