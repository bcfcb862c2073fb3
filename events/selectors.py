"""Event reads: an event's sections with standings and live boards, the desk, a title match's score line, a series."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, QuerySet

from events.matchplay import ScoreLine, half_points_text, score_line
from events.models import Event, Registration, Section, Series, SeriesStage, TitleMatch, TitleMatchGame
from events.series import SeriesRow, StageRow, series_standings
from events.services import entry_rules_of, match_results
from games.models import Game
from players.models import Player
from tournaments import selectors as tournament_selectors
from tournaments.models import Entry, Presence, Round, Tournament
from tournaments.services import next_round_number


def event_list() -> QuerySet[Event]:
    return Event.objects.prefetch_related("sections").order_by("-start_date", "name")


def sections_of(event: Event) -> list[Section]:
    """Returns the event's sections in order, each with its tournament and the sections that bar it."""
    return list(event.sections.select_related("tournament").prefetch_related("barred_by").order_by("order", "id"))


@dataclass
class SectionView:
    section: Section
    rules: str
    standings: list[Any]
    live: list[Game]
    round_number: int | None


def rules_text(section: Section) -> str:
    """Returns the section's entry rules in one line, as the programme prints them."""
    from events.entry_rules import band_text

    rules = entry_rules_of(section)
    parts = []
    if section.rating_min is not None or section.rating_max is not None:
        parts.append(f"rating {band_text(rules)}" + ("" if section.unrated_allowed else ", rated players only"))
    if section.age_min is not None:
        parts.append(f"aged {section.age_min} and over")
    if section.age_max is not None:
        parts.append(f"aged {section.age_max} and under")
    if section.titles:
        parts.append("titles " + ", ".join(section.titles))
    barred = sorted(rules.barred_by.values())
    if barred:
        parts.append("not open to players of " + ", ".join(barred))
    return "; ".join(parts) or "open"


def event_overview(event: Event) -> list[SectionView]:
    """Returns each section with its rules, standings and the games being played in it now."""
    views = []
    for section in sections_of(event):
        tournament = section.tournament
        live = list(Game.objects.filter(round__tournament=tournament, status=Game.Status.IN_PROGRESS)
                    .exclude(round__status=Round.Status.PREVIEW).select_related("black", "white", "round")
                    .order_by("round__number", "match_game__match__board", "match_game__number"))
        current = tournament.rounds.exclude(status=Round.Status.PREVIEW).order_by("-number").values_list(
            "number", flat=True).first()
        views.append(SectionView(section=section, rules=rules_text(section),
                                 standings=tournament_selectors.standings(tournament), live=live,
                                 round_number=current))
    return views


@dataclass
class DeskLine:
    player: Player
    sections: list[Section] = field(default_factory=list)
    present: dict[int, bool | None] = field(default_factory=dict)  # section id -> mark for its next round

    @property
    def checked_in(self) -> bool:
        return bool(self.present) and all(v is True for v in self.present.values())


def desk(event: Event) -> list[DeskLine]:
    """Returns the event's registered players, by name, each with his sections and his marks for their next round.

    Three queries and one a section (its next round's number), whatever the number of players.
    """
    lines: dict[int, DeskLine] = {}
    registrations = list(Registration.objects.filter(event=event).select_related("player", "section__tournament")
                         .order_by("player__name", "player_id", "section__order"))
    tournaments = {r.section.tournament_id: r.section.tournament for r in registrations}
    active = set(Entry.objects.filter(tournament_id__in=list(tournaments), status=Entry.Status.ACTIVE)
                 .values_list("tournament_id", "player_id"))
    next_round = {pk: next_round_number(t) for pk, t in tournaments.items()}
    marks = {(t, n, p): present for t, n, p, present in Presence.objects.filter(
        tournament_id__in=list(tournaments)).values_list("tournament_id", "round_number", "player_id", "present")}
    for registration in registrations:
        tournament_id = registration.section.tournament_id
        if (tournament_id, registration.player_id) not in active:
            continue
        line = lines.setdefault(registration.player_id, DeskLine(player=registration.player))
        line.sections.append(registration.section)
        line.present[registration.section_id] = marks.get(
            (tournament_id, next_round[tournament_id], registration.player_id))
    return list(lines.values())


def title_match_list() -> QuerySet[TitleMatch]:
    return TitleMatch.objects.select_related("player_one", "player_two", "first_black", "event").order_by(
        "-created_at")


@dataclass
class MatchGameLine:
    number: int
    black: Player
    white: Player
    ballot: dict[str, Any] | None
    game: Game | None
    first_score: str  # the first player's points in the game, or "" if not played
    second_score: str
    running: str  # the score after it


def title_match_detail(match: TitleMatch, match_games: list[TitleMatchGame] | None = None,
                       ) -> tuple[ScoreLine, list[MatchGameLine]]:
    """Returns the match's score line and one line per game of the match (played, being played, or to come).

    ``match_games``: the match's games read already, with their games (``title_match_page``); else one query.
    """
    if match_games is None:
        match_games = list(TitleMatchGame.objects.filter(match=match).select_related("game__black", "game__white"))
    line = score_line(match.games, match_results(match, match_games))
    games = {mg.number: mg.game for mg in match_games}
    players = {match.player_one_id: match.player_one, match.player_two_id: match.player_two}
    other = match.player_two_id if match.first_black_id == match.player_one_id else match.player_one_id
    rows = []
    for number in range(1, match.games + 1):
        black, white = (match.first_black_id, other) if number % 2 == 1 else (other, match.first_black_id)
        ballot = match.ballots[(number - 1) // 2] if match.ballots else None
        played = number <= line.played
        first = line.results[number - 1] if played else None
        running = line.running[number - 1] if played else None
        rows.append(MatchGameLine(
            number=number, black=players[black], white=players[white], ballot=ballot, game=games.get(number),
            first_score=half_points_text(first) if first is not None else "",
            second_score=half_points_text(2 - first) if first is not None else "",
            running=f"{half_points_text(running[0])}-{half_points_text(running[1])}" if running else ""))
    return line, rows


def title_match_page(matches: list[TitleMatch]) -> list[tuple[TitleMatch, ScoreLine, list[MatchGameLine]]]:
    """Returns each match of a page (from ``title_match_list``: its players read with it) with its score line and
    its games' lines, from one query for the games of them all, whatever their number."""
    by_match: dict[int, list[TitleMatchGame]] = {match.pk: [] for match in matches}
    for mg in TitleMatchGame.objects.filter(match_id__in=list(by_match)).select_related("game"):
        by_match[mg.match_id].append(mg)
    return [(match, *title_match_detail(match, by_match[match.pk])) for match in matches]


def series_list() -> QuerySet[Series]:
    """The series, newest first, each with its stages' tournaments (one query for the stages of them all)."""
    stages = SeriesStage.objects.select_related("tournament").order_by("number")
    return Series.objects.prefetch_related(Prefetch("stages", queryset=stages)).order_by("-created_at")


def series_table(series: Series) -> tuple[list[Tournament], list[tuple[SeriesRow, Player]]]:
    """Returns the series' stages (tournaments, in order) and its standings with the players."""
    stages = [s.tournament for s in series.stages.select_related("tournament").order_by("number")]
    rows = []
    for tournament in stages:
        rows.append([StageRow(player=r.player.pk, place=r.rank, score=float(r.points))
                     for r in tournament_selectors.standings(tournament)])
    players = {p.pk: p for p in Player.objects.filter(pk__in={r.player for stage in rows for r in stage})}
    table = series_standings(rows, method=series.method, place_points=series.place_points or (),
                             best_of=series.best_of, names={pk: p.name for pk, p in players.items()})
    return stages, [(row, players[row.player]) for row in table]


def event_for_tournament(tournament: Tournament) -> Event | None:
    """Returns the event whose section the tournament is, if any."""
    return Event.objects.filter(sections__tournament=tournament).first()


__all__ = ["desk", "event_list", "event_overview", "sections_of", "series_list", "series_table", "title_match_detail",
           "title_match_list", "title_match_page"]
