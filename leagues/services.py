"""Every write to a league: leagues, seasons, teams and rosters, fixtures, team sheets, boards as games,
result cards and disputes, defaults and postponements. Each writes a row of the league's chained log in
its transaction; the table changes only with a ``card_confirmed``, ``dispute_decided``, ``match_defaulted`` or
``card_corrected`` row (a board game's result corrected after the card was entered)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone

from accounts.roles import is_director
from arbitration.creation import game_create
from arbitration.rulings.corrections import live_ending
from clubs.models import Club, club_key
from clubs.services import club_for_name
from games.models import Game
from leagues.access import (
    authorise_captain,
    authorise_secretary,
    authorise_team_entry,
    authorise_team_writer,
    captain_side,
    is_secretary,
)
from leagues.core.cup import cup_draw, cup_winner, next_round
from leagues.core.match import (
    board_default,
    game_points,
    home_colour,
    match_score,
    sheet_problem,
)
from leagues.core.match import (
    match_default as default_score,
)
from leagues.core.schedule import ScheduleError, double_round_robin, weekly_dates
from leagues.errors import FixtureConflict, InvalidInput, NotAllowed, RuleBroken
from leagues.log import log_append
from leagues.models import (
    BoardGame,
    Cup,
    Division,
    Fixture,
    League,
    LeagueLog,
    Postponement,
    RosterEntry,
    Season,
    SheetLine,
    Team,
)
from players.models import Player
from tournaments.ballots import draw_ballots
from tournaments.lots import new_seed

Kind = LeagueLog.Kind
Status = Fixture.Status

#: The statuses whose points count in the table.
COUNTED = (Status.RESULT, Status.DEFAULTED)


def _lock_league(league: League) -> League:
    return League.objects.select_for_update().get(pk=league.pk)


def _lock_fixture(fixture: Fixture | int) -> Fixture:
    pk = fixture.pk if isinstance(fixture, Fixture) else fixture
    return Fixture.objects.select_for_update(of=("self",)).select_related(
        "home", "away", "season__league", "division").get(pk=pk)


# --- leagues, divisions, seasons, teams, rosters -------------------------------------------------------

@transaction.atomic
def league_create(*, acting_user: Any, name: str, slug: str, secretary: Any = None, **rules: Any) -> League:
    """Creates a league (a director does; he is its secretary unless another is named) and its log row #1."""
    if not is_director(acting_user):
        raise NotAllowed("Only a director may create a league.")
    allowed = {"board_count", "opening", "rule_set", "match_points_win", "match_points_draw", "match_points_loss",
               "board_order_by_rating", "higher_team_limit", "promotion_places", "relegation_places",
               "clubs_enter_teams"}
    unknown = set(rules) - allowed
    if unknown:
        raise InvalidInput.field(sorted(unknown)[0], "Not a rule of a league.")
    if League.objects.filter(slug=slug).exists():
        raise InvalidInput.field("slug", f"A league {slug!r} exists already.")
    try:
        with transaction.atomic():
            league = League.objects.create(name=name, slug=slug, secretary=secretary or acting_user, **rules)
    except IntegrityError as error:
        raise InvalidInput.field("match_points_win", f"The league's rules do not hold: {error}") from error
    log_append(league=league, kind=Kind.CREATED, actor=acting_user,
               data={"name": name, "secretary": league.secretary_id, **{k: rules[k] for k in sorted(rules)}})
    return league


@transaction.atomic
def division_add(*, acting_user: Any, league: League, name: str, rank: int) -> Division:
    """Adds a division to the league (its secretary does); rank 1 is the top."""
    league = _lock_league(league)
    authorise_secretary(league, acting_user)
    if league.divisions.filter(rank=rank).exists():
        raise InvalidInput.field("rank", f"The league has a division of rank {rank} already.")
    division = Division.objects.create(league=league, name=name, rank=rank)
    log_append(league=league, kind=Kind.DIVISION_ADDED, actor=acting_user,
               data={"division": division.pk, "name": name, "rank": rank})
    return division


@transaction.atomic
def season_create(*, acting_user: Any, league: League, name: str) -> Season:
    """Opens a season of the league; the seasons before it are kept as they are."""
    league = _lock_league(league)
    authorise_secretary(league, acting_user)
    if league.seasons.filter(name=name).exists():
        raise InvalidInput.field("name", f"The league has a season {name!r} already.")
    season = Season.objects.create(league=league, name=name)
    log_append(league=league, kind=Kind.SEASON_CREATED, actor=acting_user, data={"season": season.pk, "name": name})
    return season


@transaction.atomic
def team_add(*, acting_user: Any, season: Season, division: Division, name: str, club: Club | None = None,
             club_name: str = "", number: int = 1, captain: Any = None) -> Team:
    """Enters a club's team in a season's division, with its captain.

    The club is a record, or a name resolved by its key (case and spacing ignored); a name no club has
    becomes a club record when the league's secretary enters it. The league's secretary enters any club's
    team; a club's secretary enters his own club's when the league lets clubs enter teams.
    """
    league = _lock_league(season.league)
    if club is None:
        if is_secretary(league, acting_user):
            club = club_for_name(acting_user=acting_user, name=club_name)
        else:
            club = Club.objects.filter(key=club_key(club_name)).first()
    authorise_team_entry(league, club, acting_user)
    assert club is not None  # authorise_team_entry lets no one but the league's secretary through without a club
    if division.league_id != league.pk:
        raise InvalidInput.field("division", "The division is not one of this league's.")
    if season.fixtures.filter(division=division).exists():
        raise FixtureConflict("The division's fixtures are made: no team joins it this season.")
    if Team.objects.filter(season=season, name=name).exists():
        raise InvalidInput.field("name", f"The season has a team {name!r} already.")
    if Team.objects.filter(season=season, number=number).filter(Q(club=club) | Q(club_name=club.name)).exists():
        raise InvalidInput.field("number", f"{club.name} has a team number {number} this season already.")
    team = Team.objects.create(season=season, division=division, club=club, club_name=club.name, name=name,
                               number=number, captain=captain)
    log_append(league=league, kind=Kind.TEAM_ADDED, actor=acting_user,
               data={"team": team.pk, "name": name, "club": club.name, "club_id": club.pk, "number": number,
                     "division": division.pk, "captain": getattr(captain, "pk", None)})
    return team


def _higher_teams(team: Team) -> Any:
    """The club's teams above ``team`` this season: in a higher division, or the same with a lower number."""
    same_club = Q(club_id=team.club_id) if team.club_id is not None else Q(club__isnull=True, club_name=team.club_name)
    return Team.objects.filter(season_id=team.season_id).filter(same_club).filter(
        Q(division__rank__lt=team.division.rank) | Q(division__rank=team.division.rank, number__lt=team.number))


def _played_for_higher(team: Team, player_ids: Sequence[int]) -> dict[int, int]:
    """Returns, of ``player_ids``, how many matches each played for a higher team of his club this season."""
    higher = list(_higher_teams(team).values_list("pk", flat=True))
    if not higher or not player_ids:
        return {}
    rows = (SheetLine.objects.filter(player_id__in=player_ids, fixture__status__in=COUNTED)
            .filter(Q(side="home", fixture__home_id__in=higher) | Q(side="away", fixture__away_id__in=higher))
            .values("player_id").annotate(n=Count("id")))
    return {row["player_id"]: row["n"] for row in rows}


def _eligibility(team: Team, player_ids: Sequence[int]) -> None:
    """Refuses (422 ``league_rule``) a player another team of the division has, or one who may not drop."""
    league = team.season.league
    elsewhere = (RosterEntry.objects.filter(team__season_id=team.season_id, team__division_id=team.division_id,
                                            player_id__in=player_ids).exclude(team=team)
                 .values_list("player__name", "team__name").first())
    if elsewhere:
        raise RuleBroken(f"Rule 'one team per division and season': {elsewhere[0]} is on {elsewhere[1]}'s roster "
                         "in this division this season.", details={"rule": "one_team_per_division"})
    played = _played_for_higher(team, player_ids)
    limit = league.higher_team_limit
    for player_id, count in played.items():
        if limit and count >= limit:
            name = Player.objects.filter(pk=player_id).values_list("name", flat=True).first()
            raise RuleBroken(f"Rule 'played {limit} times for a higher team': {name} has played {count} matches for "
                             f"a higher team of {team.club_name} this season and may not drop to {team.name}.",
                             details={"rule": "higher_team_limit", "player": player_id})


@transaction.atomic
def roster_set(*, acting_user: Any, team: Team, players: Sequence[int]) -> list[RosterEntry]:
    """Sets the team's roster, players in their nominated board order (the captain or the secretary does).

    Under the league's rule "board order by rating" the roster must list players by rating. A
    player who has played for the team keeps his place on the sheets he played on.
    """
    _lock_league(team.season.league)
    team = Team.objects.select_related("season__league", "division", "club").get(pk=team.pk)
    authorise_team_writer(team, acting_user)
    ids = list(players)
    if len(set(ids)) != len(ids):
        raise InvalidInput.field("players", "A player is named twice.")
    found = dict(Player.objects.filter(pk__in=ids).values_list("pk", "rating"))
    missing = [pk for pk in ids if pk not in found]
    if missing:
        raise InvalidInput.field("players", f"There is no player {missing[0]}.")
    if team.season.league.board_order_by_rating:
        for upper, lower in zip(ids, ids[1:], strict=False):
            if (found[lower] or 0) > (found[upper] or 0):
                raise RuleBroken(f"Rule 'board order by rating': player {lower} (rating {found[lower]}) is listed "
                                 f"below player {upper} (rating {found[upper]}).", details={"rule": "board_order"})
    _eligibility(team, ids)
    played = set(SheetLine.objects.filter(player__isnull=False).filter(
        Q(side="home", fixture__home=team) | Q(side="away", fixture__away=team)).values_list("player_id", flat=True))
    dropped = played - set(ids)
    if dropped:
        raise RuleBroken(f"Rule 'roster': player {sorted(dropped)[0]} has played for {team.name} and stays on its "
                         "roster this season.", details={"rule": "roster"})
    RosterEntry.objects.filter(team=team).delete()
    entries = RosterEntry.objects.bulk_create(
        [RosterEntry(team=team, player_id=pk, board=n) for n, pk in enumerate(ids, start=1)])
    log_append(league=team.season.league, kind=Kind.ROSTER_CHANGED, actor=acting_user,
               data={"team": team.pk, "players": ids})
    return entries


# --- fixtures ----------------------------------------------------------------------------------------

@transaction.atomic
def fixtures_make(*, acting_user: Any, season: Season, division: Division, start: date | None = None,
                  weekday: int | None = None) -> list[Fixture]:
    """Makes the division's double round robin for the season, home and away in Berger order (a bye for an
    odd count), dated one a week on ``weekday`` from ``start`` when both are given."""
    league = _lock_league(season.league)
    authorise_secretary(league, acting_user)
    if division.league_id != league.pk:
        raise InvalidInput.field("division", "The division is not one of this league's.")
    if Fixture.objects.filter(season=season, division=division).exists():
        raise FixtureConflict("The division's fixtures are made already this season.")
    teams = list(Team.objects.filter(season=season, division=division).order_by("id").values_list("pk", flat=True))
    try:
        rounds = double_round_robin(teams)
        dates = weekly_dates(start, len(rounds), weekday) if start is not None and weekday is not None else []
    except ScheduleError as error:
        raise FixtureConflict(f"No fixtures: {error}.") from error
    fixtures = []
    for number, plans in enumerate(rounds, start=1):
        for plan in plans:
            fixtures.append(Fixture(season=season, division=division, round=number, home_id=plan.home,
                                    away_id=plan.away, date=dates[number - 1] if dates else None,
                                    status=Status.BYE if plan.is_bye else Status.SCHEDULED))
    Fixture.objects.bulk_create(fixtures)
    if season.status == Season.Status.REGISTRATION:
        season.status = Season.Status.RUNNING
        season.save(update_fields=["status"])
    log_append(league=league, kind=Kind.FIXTURES_MADE, actor=acting_user,
               data={"season": season.pk, "division": division.pk, "teams": teams, "rounds": len(rounds),
                     "first_date": dates[0].isoformat() if dates else None, "weekday": weekday})
    return list(Fixture.objects.filter(season=season, division=division))


@transaction.atomic
def fixture_date_set(*, acting_user: Any, fixture: Fixture, on: date) -> Fixture:
    """Sets the fixture's date (the secretary does)."""
    fixture = _lock_fixture(fixture)
    authorise_secretary(fixture.season.league, acting_user)
    before = fixture.date
    fixture.date = on
    fixture.save(update_fields=["date"])
    log_append(league=fixture.season.league, kind=Kind.FIXTURE_DATED, actor=acting_user,
               data={"fixture": fixture.pk, "before": before.isoformat() if before else None,
                     "date": on.isoformat()})
    return fixture


# --- team sheets and boards ----------------------------------------------------------------------------

def _sides_in(fixture: Fixture) -> set[str]:
    return set(SheetLine.objects.filter(fixture=fixture).values_list("side", flat=True).distinct())


@transaction.atomic
def sheet_submit(*, acting_user: Any, fixture: Fixture, side: str | None = None,
                 players: Sequence[int | None]) -> list[SheetLine]:
    """Records the team sheet of the captain's side: a player (or None, a defaulted bottom board) per board.

    Hidden from the other side until both sheets are in or the match starts
    (``selectors.sheet_visible``). Refused, naming the rule, when it breaks one of the league's:
    board count, roster, bottom-board defaults, board order, or a player who may not drop.
    """
    fixture = _lock_fixture(fixture)
    side = side or captain_side(fixture, acting_user) or "home"
    if side not in ("home", "away"):
        raise InvalidInput.field("side", "home or away.")
    authorise_captain(fixture, acting_user, side)
    if fixture.status not in (Status.SCHEDULED, Status.POSTPONED):
        raise FixtureConflict(f"The match is {fixture.get_status_display().lower()}: sheets are closed.")
    team = fixture.home if side == "home" else fixture.away
    league = fixture.season.league
    ids = list(players)
    roster = dict(RosterEntry.objects.filter(team=team).values_list("player_id", "board"))
    ratings = dict(Player.objects.filter(pk__in=[p for p in ids if p is not None]).values_list("pk", "rating"))
    problem = sheet_problem(ids, board_count=league.board_count, order_by_rating=league.board_order_by_rating,
                            ratings=ratings, roster_order=roster)
    if problem:
        raise RuleBroken(problem, details={"rule": problem.split("'")[1]})
    team = Team.objects.select_related("season__league", "division").get(pk=team.pk)
    _eligibility(team, [p for p in ids if p is not None])
    SheetLine.objects.filter(fixture=fixture, side=side).delete()
    lines = SheetLine.objects.bulk_create(
        [SheetLine(fixture=fixture, side=side, board=n, player_id=p) for n, p in enumerate(ids, start=1)])
    log_append(league=league, kind=Kind.SHEET_SUBMITTED, actor=acting_user,
               data={"fixture": fixture.pk, "side": side, "fielded": sum(p is not None for p in ids)})
    return lines


def _sheets(fixture: Fixture) -> dict[str, dict[int, int | None]]:
    sheets: dict[str, dict[int, int | None]] = {"home": {}, "away": {}}
    for side, board, player in SheetLine.objects.filter(fixture=fixture).values_list("side", "board", "player_id"):
        sheets[side][board] = player
    return sheets


@transaction.atomic
def match_start(*, acting_user: Any, fixture: Fixture) -> list[BoardGame]:
    """Starts the match: each board both sides fielded becomes ``games_per_board`` ordinary games of the system.

    The secretary does (he directs the games from the console: they are his, ``created_by``).
    A board one side did not field is defaulted to the other (``board_default``). With the
    3-move ballot one opening is drawn for the match (its seed on the log) and each board plays
    it twice, colours reversed; the home team has Black on odd boards in game 1.
    """
    fixture = _lock_fixture(fixture)
    league = fixture.season.league
    authorise_secretary(league, acting_user)
    if fixture.status not in (Status.SCHEDULED, Status.POSTPONED):
        raise FixtureConflict(f"The match is {fixture.get_status_display().lower()}: it cannot start.")
    sheets = _sheets(fixture)
    if not sheets["home"] or not sheets["away"]:
        raise FixtureConflict("Both captains submit their team sheets before the match starts.")
    seed = new_seed()
    ballot = draw_ballots([], seed, 1)[0] if league.games_per_board == 2 else None
    made = []
    for board in range(1, league.board_count + 1):
        home, away = sheets["home"].get(board), sheets["away"].get(board)
        if home is None or away is None:
            continue
        for number in range(1, league.games_per_board + 1):
            colour = home_colour(board, number)
            black, white = (home, away) if colour == "black" else (away, home)
            game = game_create(acting_user=acting_user, black=black, white=white, rule_set=league.rule_set,
                               start_fen=ballot.fen if ballot else "", opening=ballot.pdn if ballot else "")
            made.append(BoardGame(fixture=fixture, board=board, number=number, home_colour=colour, game=game))
    BoardGame.objects.bulk_create(made)
    fixture.status = Status.STARTED
    fixture.save(update_fields=["status"])
    log_append(league=league, kind=Kind.MATCH_STARTED, actor=acting_user,
               data={"fixture": fixture.pk, "games": [bg.game_id for bg in made], "ballot_seed": str(seed),
                     "ballot": ballot.number if ballot else None})
    return made


# --- result cards ------------------------------------------------------------------------------------

def _points(value: Any) -> Decimal:
    try:
        points = Decimal(str(value))
    except (InvalidOperation, ValueError) as error:
        raise InvalidInput.field("boards", f"{value!r} is not a game's points (1, 0.5 or 0).") from error
    if points not in (Decimal(0), Decimal("0.5"), Decimal(1)):
        raise InvalidInput.field("boards", f"{value!r} is not a game's points (1, 0.5 or 0).")
    return points


def card_lines(fixture: Fixture, boards: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    """Returns the card's lines from the home team's points per game of each board; the boards a side did
    not field are defaulted whatever the card says."""
    league = fixture.season.league
    if not isinstance(boards, (list, tuple)) or len(boards) != league.board_count:
        raise InvalidInput.field("boards", f"The card has one line a board: {league.board_count}.")
    sheets = _sheets(fixture)
    lines = []
    for board, games in enumerate(boards, start=1):
        home_present = sheets["home"].get(board) is not None
        away_present = sheets["away"].get(board) is not None
        if not (home_present and away_present):
            home, away = board_default(league.games_per_board, home_present=home_present, away_present=away_present)
            lines.append({"board": board, "home": str(home), "away": str(away), "default": True})
            continue
        if not isinstance(games, (list, tuple)) or len(games) != league.games_per_board:
            raise InvalidInput.field("boards", f"Board {board}: {league.games_per_board} game(s) a board.")
        home = sum((_points(g) for g in games), Decimal(0))
        lines.append({"board": board, "home": str(home), "away": str(league.games_per_board - home),
                      "games": [str(_points(g)) for g in games]})
    return lines


def _apply(fixture: Fixture, lines: list[dict[str, Any]], status: str) -> None:
    league = fixture.season.league
    score = match_score([(Decimal(line["home"]), Decimal(line["away"])) for line in lines],
                        win=league.match_points_win, draw=league.match_points_draw, loss=league.match_points_loss)
    fixture.card = lines
    fixture.home_points, fixture.away_points = score.home_points, score.away_points
    fixture.home_match_points, fixture.away_match_points = score.home_match_points, score.away_match_points
    fixture.status = status
    fixture.save(update_fields=["card", "home_points", "away_points", "home_match_points", "away_match_points",
                                "status"])


@transaction.atomic
def card_enter(*, acting_user: Any, fixture: Fixture, boards: Sequence[Sequence[Any]]) -> Fixture:
    """Records the home captain's result card (the home team's points per game, board by board); the away
    captain confirms or disputes it. A match whose boards are games of the system has its card from them."""
    fixture = _lock_fixture(fixture)
    authorise_captain(fixture, acting_user, "home")
    if fixture.status not in (Status.SCHEDULED, Status.POSTPONED, Status.CARD_ENTERED):
        raise FixtureConflict(f"The match is {fixture.get_status_display().lower()}: no card is entered now.")
    if _sides_in(fixture) != {"home", "away"}:
        raise FixtureConflict("Both team sheets are in before the card (they say who played, and who defaulted).")
    lines = card_lines(fixture, boards)
    fixture.card, fixture.card_by, fixture.status = lines, acting_user, Status.CARD_ENTERED
    fixture.save(update_fields=["card", "card_by", "status"])
    log_append(league=fixture.season.league, kind=Kind.CARD_ENTERED, actor=acting_user,
               data={"fixture": fixture.pk, "card": lines})
    return fixture


@transaction.atomic
def card_confirm(*, acting_user: Any, fixture: Fixture) -> Fixture:
    """The away captain confirms the card: the result stands and the table counts it."""
    fixture = _lock_fixture(fixture)
    authorise_captain(fixture, acting_user, "away")
    if fixture.status != Status.CARD_ENTERED:
        raise FixtureConflict("There is no card waiting for confirmation.")
    _apply(fixture, fixture.card, Status.RESULT)
    log_append(league=fixture.season.league, kind=Kind.CARD_CONFIRMED, actor=acting_user,
               data={"fixture": fixture.pk, "home_points": str(fixture.home_points),
                     "away_points": str(fixture.away_points), "card": fixture.card})
    _cup_after(fixture, actor=acting_user)
    return fixture


@transaction.atomic
def card_dispute(*, acting_user: Any, fixture: Fixture, reason: str) -> Fixture:
    """The away captain disputes the card; the league's secretary decides."""
    fixture = _lock_fixture(fixture)
    authorise_captain(fixture, acting_user, "away")
    if fixture.status != Status.CARD_ENTERED:
        raise FixtureConflict("There is no card waiting for confirmation.")
    if not reason.strip():
        raise InvalidInput.field("reason", "A dispute says why.")
    fixture.status, fixture.dispute = Status.DISPUTED, reason
    fixture.save(update_fields=["status", "dispute"])
    log_append(league=fixture.season.league, kind=Kind.CARD_DISPUTED, actor=acting_user, reason=reason,
               data={"fixture": fixture.pk})
    return fixture


@transaction.atomic
def dispute_decide(*, acting_user: Any, fixture: Fixture, reason: str,
                   boards: Sequence[Sequence[Any]] | None = None) -> Fixture:
    """The secretary decides a disputed card: the card as entered (no ``boards``) or as he gives it."""
    fixture = _lock_fixture(fixture)
    authorise_secretary(fixture.season.league, acting_user)
    if fixture.status != Status.DISPUTED:
        raise FixtureConflict("The match's card is not disputed.")
    if not reason.strip():
        raise InvalidInput.field("reason", "A decision says why.")
    lines = card_lines(fixture, boards) if boards is not None else fixture.card
    _apply(fixture, lines, Status.RESULT)
    log_append(league=fixture.season.league, kind=Kind.DISPUTE_DECIDED, actor=acting_user, reason=reason,
               data={"fixture": fixture.pk, "card": lines, "home_points": str(fixture.home_points),
                     "away_points": str(fixture.away_points)})
    _cup_after(fixture, actor=acting_user)
    return fixture


@transaction.atomic
def match_default(*, acting_user: Any, fixture: Fixture, side: str, reason: str) -> Fixture:
    """The secretary records that ``side`` (home, away or both) did not come: every board goes to the other."""
    fixture = _lock_fixture(fixture)
    authorise_secretary(fixture.season.league, acting_user)
    return _default(fixture, side=side, reason=reason, actor=acting_user)


def _default(fixture: Fixture, *, side: str, reason: str, actor: Any) -> Fixture:
    league = fixture.season.league
    if side not in ("home", "away", "both"):
        raise InvalidInput.field("side", "home, away or both.")
    if fixture.status in (*COUNTED, Status.BYE, Status.STARTED):
        raise FixtureConflict(f"The match is {fixture.get_status_display().lower()}: it cannot be defaulted.")
    score = default_score(league.board_count, league.games_per_board, defaulting=side,
                          win=league.match_points_win, loss=league.match_points_loss)
    fixture.home_points, fixture.away_points = score.home_points, score.away_points
    fixture.home_match_points, fixture.away_match_points = score.home_match_points, score.away_match_points
    fixture.status, fixture.defaulted_by = Status.DEFAULTED, side
    fixture.save(update_fields=["home_points", "away_points", "home_match_points", "away_match_points", "status",
                                "defaulted_by"])
    log_append(league=league, kind=Kind.MATCH_DEFAULTED, actor=actor, reason=reason,
               data={"fixture": fixture.pk, "side": side, "home_points": str(score.home_points),
                     "away_points": str(score.away_points)})
    _cup_after(fixture, actor=actor)
    return fixture


#: The statuses of a match whose card is entered: its card follows a board game whose result is corrected.
CARDED = (Status.CARD_ENTERED, Status.DISPUTED, Status.RESULT)


@transaction.atomic
def fixture_games_finished(*, fixture_id: int) -> bool:
    """Enters the card of a started match once all its games are finished (the games arrive from the boards),
    and makes an entered card follow a board game whose result has changed since (``_card_follow``).

    Idempotent: a second call, one before the last game ends, or one that finds every game's result the one its
    card was written from, does nothing. Returns whether it entered or changed the card."""
    fixture = _lock_fixture(fixture_id)
    if fixture.status in CARDED:
        return _card_follow(fixture)
    if fixture.status != Status.STARTED:
        return False
    rows = list(BoardGame.objects.filter(fixture=fixture).select_related("game").order_by("board", "number"))
    if any(row.game.status != Game.Status.FINISHED for row in rows):
        return False
    by_board: dict[int, list[Decimal]] = {}
    for row in rows:
        by_board.setdefault(row.board, []).append(game_points(row.game.result, row.home_colour)[0])
        row.counted_result = row.game.result
    BoardGame.objects.bulk_update(rows, ["counted_result"])
    league = fixture.season.league
    boards = [by_board.get(board, [0] * league.games_per_board) for board in range(1, league.board_count + 1)]
    lines = card_lines(fixture, boards)
    fixture.card, fixture.status = lines, Status.CARD_ENTERED
    fixture.save(update_fields=["card", "status"])
    log_append(league=league, kind=Kind.CARD_ENTERED, actor=None, reason="from the boards' games",
               data={"fixture": fixture.pk, "card": lines})
    return True


def _said(points: Decimal) -> str:
    """A game's points as a card says them: 1, ½ or 0."""
    return "½" if points == Decimal("0.5") else str(int(points))


def _card_follow(fixture: Fixture) -> bool:
    """Makes the entered card of a match (locked) follow its board games whose result is no longer the one the
    card was written from: an ending corrected, or an appeal decided with another result (arbitration), then the
    game's new ending (``game_finished``). A game put back in play leaves the card as it is until it ends again.

    Each changed game's points replace that game's on its board's line, and only those: a line entered or decided
    by hand keeps its other games. A confirmed or decided match (``result``) has its points and match points, and
    so the table, computed again. One ``card_corrected`` row says, game by game, the result before and after, what
    the card said (and whether it said so by hand) and what it says now; the game's result, from its log, is the
    why. Exactly once per change: the row is written with the games' ``counted_result`` in one transaction.
    """
    rows = list(BoardGame.objects.filter(fixture=fixture).select_related("game").order_by("board", "number"))
    changed = [row for row in rows
               if row.game.status == Game.Status.FINISHED and row.game.result and row.game.result != row.counted_result]
    if not changed:
        return False
    league = fixture.season.league
    lines = [dict(line) for line in fixture.card]
    by_board = {line.get("board"): line for line in lines}
    changes, said = [], []
    for row in changed:
        now = game_points(row.game.result, row.home_colour)[0]
        line = by_board.get(row.board)
        games = list(line.get("games") or []) if line is not None and not line.get("default") else []
        if row.number > len(games):  # a board defaulted on the card: no game of it counts (cannot happen)
            card_before = None
        else:
            card_before = _points(games[row.number - 1])
            games[row.number - 1] = str(now)
            home = sum((_points(g) for g in games), Decimal(0))
            line.update({"games": games, "home": str(home), "away": str(league.games_per_board - home)})
        counted = game_points(row.counted_result, row.home_colour)[0] if row.counted_result else None
        by_hand = card_before is not None and counted is not None and card_before != counted
        entry = live_ending(row.game)
        ending = entry.seq if entry is not None else None
        changes.append({"board": row.board, "number": row.number, "game": row.game_id,
                        "result_before": row.counted_result or None, "result": row.game.result,
                        "termination": row.game.termination, "game_end": ending,
                        "card_before": str(card_before) if card_before is not None else None, "card": str(now),
                        "by_hand": by_hand})
        said.append(f"board {row.board} game {row.number} (game {row.game_id}): its result is now {row.game.result} "
                    f"({row.game.get_termination_display() if row.game.termination else 'ended'}"
                    + (f", entry #{ending} of its log" if ending else "") + "), "
                    + (f"was {row.counted_result}" if row.counted_result else "none was counted")
                    + (f"; the card said {_said(card_before)} for the home team" if card_before is not None else "")
                    + (" (entered by hand, not the game's result)" if by_hand else "")
                    + f", it says {_said(now)}")
        row.counted_result = row.game.result
    BoardGame.objects.bulk_update(changed, ["counted_result"])
    before = {"card": fixture.card, "home_points": _text(fixture.home_points), "away_points": _text(fixture.away_points),
              "home_match_points": fixture.home_match_points, "away_match_points": fixture.away_match_points}
    if fixture.status == Status.RESULT:
        _apply(fixture, lines, Status.RESULT)
    else:
        fixture.card = lines
        fixture.save(update_fields=["card"])
    reason = ("A board game's result changed after the card was entered (a ruling corrected, or an appeal decided, on "
              "the game's log); the card follows: " + "; ".join(said) + ".")
    if fixture.cup_id is not None and fixture.cup_through:
        reason += (f" The cup tie was decided ({fixture.cup_through} through) and stands: the secretary decides "
                   "any change to the draw.")
    data: dict[str, Any] = {"fixture": fixture.pk, "status": fixture.status, "changes": changes, "card": lines,
                            "before": before}
    if fixture.status == Status.RESULT:
        data.update({"home_points": _text(fixture.home_points), "away_points": _text(fixture.away_points),
                     "home_match_points": fixture.home_match_points, "away_match_points": fixture.away_match_points})
    log_append(league=league, kind=Kind.CARD_CORRECTED, actor=None, reason=reason, data=data)
    if fixture.cup_id is not None and fixture.status == Status.RESULT and not fixture.cup_through:
        _cup_after(fixture, actor=None)  # a level tie waiting for its decider may now have a winner
    return True


def _text(points: Decimal | None) -> str | None:
    """Board points as the row says them, to the half point (``3.5``, ``4.0``)."""
    return None if points is None else str(Decimal(points).quantize(Decimal("0.1")))


# --- postponements -----------------------------------------------------------------------------------

@transaction.atomic
def postponement_request(*, acting_user: Any, fixture: Fixture, deadline: datetime, reason: str = "") -> Postponement:
    """A captain asks to postpone the match to be played by ``deadline``; the other captain agrees."""
    fixture = _lock_fixture(fixture)
    side = captain_side(fixture, acting_user)
    if side is None:
        raise NotAllowed("Only a captain of one of the two teams may ask to postpone the match.")
    if fixture.status != Status.SCHEDULED:
        raise FixtureConflict(f"The match is {fixture.get_status_display().lower()}: it cannot be postponed.")
    if deadline <= timezone.now():
        raise InvalidInput.field("deadline", "The deadline is in the future.")
    if fixture.postponements.filter(status__in=["requested", "agreed"]).exists():
        raise FixtureConflict("A postponement of this match is pending already.")
    postponement = Postponement.objects.create(fixture=fixture, requested_by=side, reason=reason, deadline=deadline)
    log_append(league=fixture.season.league, kind=Kind.POSTPONEMENT, actor=acting_user, reason=reason,
               data={"fixture": fixture.pk, "postponement": postponement.pk, "status": "requested", "side": side,
                     "deadline": deadline.isoformat()})
    return postponement


def _lock_postponement(postponement: Postponement) -> Postponement:
    return Postponement.objects.select_for_update(of=("self",)).select_related(
        "fixture__home", "fixture__away", "fixture__season__league").get(pk=postponement.pk)


@transaction.atomic
def postponement_agree(*, acting_user: Any, postponement: Postponement) -> Postponement:
    """The other captain agrees to the postponement; the secretary approves it."""
    postponement = _lock_postponement(postponement)
    fixture = postponement.fixture
    other = "away" if postponement.requested_by == "home" else "home"
    authorise_captain(fixture, acting_user, other)
    if postponement.status != Postponement.Status.REQUESTED:
        raise FixtureConflict("The postponement is not waiting for the other captain.")
    postponement.status = Postponement.Status.AGREED
    postponement.save(update_fields=["status"])
    log_append(league=fixture.season.league, kind=Kind.POSTPONEMENT, actor=acting_user,
               data={"fixture": fixture.pk, "postponement": postponement.pk, "status": "agreed"})
    return postponement


@transaction.atomic
def postponement_approve(*, acting_user: Any, postponement: Postponement, approve: bool = True,
                         reason: str = "") -> Postponement:
    """The secretary approves (the match is postponed; it defaults at the deadline if unplayed) or refuses."""
    postponement = _lock_postponement(postponement)
    fixture = _lock_fixture(postponement.fixture)
    authorise_secretary(fixture.season.league, acting_user)
    if postponement.status != Postponement.Status.AGREED:
        raise FixtureConflict("The other captain has not agreed to the postponement.")
    postponement.status = Postponement.Status.APPROVED if approve else Postponement.Status.REFUSED
    postponement.save(update_fields=["status"])
    if approve:
        fixture.status = Status.POSTPONED
        fixture.save(update_fields=["status"])
    log_append(league=fixture.season.league, kind=Kind.POSTPONEMENT, actor=acting_user, reason=reason,
               data={"fixture": fixture.pk, "postponement": postponement.pk, "status": postponement.status,
                     "deadline": postponement.deadline.isoformat()})
    if approve:
        from leagues.tasks import postponement_deadline  # the task module imports this one

        pk, eta = postponement.pk, postponement.deadline
        transaction.on_commit(lambda: postponement_deadline.apply_async((pk,), eta=eta))
    return postponement


@transaction.atomic
def postponement_expire(*, postponement_id: int, now: datetime | None = None) -> bool:
    """Defaults a postponed match whose deadline has passed unplayed: the side that asked loses it.

    Exactly once: the postponement row is locked and only an approved one past its deadline
    whose match is still postponed is defaulted; a second run (a retry, the sweep) finds it done.
    Returns whether it defaulted the match.
    """
    postponement = Postponement.objects.select_for_update(of=("self",)).filter(pk=postponement_id).first()
    now = now or timezone.now()
    if postponement is None or postponement.status != Postponement.Status.APPROVED or postponement.deadline > now:
        return False
    fixture = _lock_fixture(postponement.fixture_id)
    if fixture.status != Status.POSTPONED:
        postponement.status = Postponement.Status.PLAYED
        postponement.save(update_fields=["status"])
        return False
    postponement.status = Postponement.Status.DEFAULTED
    postponement.save(update_fields=["status"])
    _default(fixture, side=postponement.requested_by, actor=None,
             reason=f"The postponed match was not played by its deadline ({postponement.deadline:%Y-%m-%d %H:%M} "
                    f"UTC): the {postponement.requested_by} team, which asked for it, defaults.")
    return True


# --- the team knockout cup -----------------------------------------------------------------------------

@transaction.atomic
def cup_create(*, acting_user: Any, league: League, season: Season, name: str, teams: Sequence[int],
               tie_rule: str = Cup.TieRule.BOARD_ELIMINATION) -> Cup:
    """Makes a cup of the season's ``teams`` and draws its first round by lots (the seed on the league's log).

    Byes bring the field to a power of two; a level match goes through by the cup's rule
    (``leagues.core.cup.cup_winner``): board elimination, or a decider the secretary records.
    """
    league = _lock_league(league)
    authorise_secretary(league, acting_user)
    if season.league_id != league.pk:
        raise InvalidInput.field("season", "The season is not one of this league's.")
    if tie_rule not in Cup.TieRule.values:
        raise InvalidInput.field("tie_rule", f"One of {', '.join(Cup.TieRule.values)}.")
    if Cup.objects.filter(season=season, name=name).exists():
        raise InvalidInput.field("name", f"The season has a cup {name!r} already.")
    ids = list(teams)
    known = set(Team.objects.filter(season=season, pk__in=ids).values_list("pk", flat=True))
    if set(ids) - known:
        raise InvalidInput.field("teams", f"Team {sorted(set(ids) - known)[0]} is not a team of this season.")
    seed = new_seed()
    try:
        plans = cup_draw(ids, seed)
    except ScheduleError as error:
        raise InvalidInput.field("teams", str(error)) from error
    cup = Cup.objects.create(league=league, season=season, name=name, tie_rule=tie_rule, draw_seed=str(seed))
    _cup_round_make(cup, plans)
    log_append(league=league, kind=Kind.CUP_DRAWN, actor=acting_user,
               data={"cup": cup.pk, "name": name, "teams": ids, "seed": str(seed), "tie_rule": tie_rule,
                     "draw": [[p.home, p.away] for p in plans]})
    return cup


def _cup_round_make(cup: Cup, plans: Sequence[Any]) -> list[Fixture]:
    return Fixture.objects.bulk_create(
        Fixture(season=cup.season, cup=cup, round=p.round, home_id=p.home, away_id=p.away,
                status=Status.BYE if p.is_bye else Status.SCHEDULED, cup_through="home" if p.is_bye else "")
        for p in plans)


def _cup_after(fixture: Fixture, *, actor: Any) -> None:
    """Decides who goes through a cup match that has its result, and makes the next round when the round is done."""
    if fixture.cup_id is None:
        return
    if fixture.status == Status.DEFAULTED:
        through = "away" if fixture.defaulted_by == "home" else "home"
    else:
        cup = Cup.objects.get(pk=fixture.cup_id)
        through = cup_winner([(Decimal(line["home"]), Decimal(line["away"])) for line in fixture.card], cup.tie_rule)
        if through is None:
            return  # level, under the decider rule: the secretary records the decider (cup_decider)
    _cup_through(fixture, through, actor=actor, reason="")


@transaction.atomic
def cup_decider(*, acting_user: Any, fixture: Fixture, side: str, reason: str) -> Fixture:
    """The secretary records who won the decider of a level cup match (the cup's rule ``decider``)."""
    fixture = _lock_fixture(fixture)
    authorise_secretary(fixture.season.league, acting_user)
    if fixture.cup_id is None or fixture.status != Status.RESULT or fixture.cup_through:
        raise FixtureConflict("Only a level cup match waiting for its decider takes one.")
    if side not in ("home", "away"):
        raise InvalidInput.field("side", "home or away.")
    _cup_through(fixture, side, actor=acting_user, reason=reason or "decider")
    return fixture


def _cup_through(fixture: Fixture, through: str, *, actor: Any, reason: str) -> None:
    league = fixture.season.league
    fixture.cup_through = through
    fixture.save(update_fields=["cup_through"])
    log_append(league=league, kind=Kind.CUP_THROUGH, actor=actor, reason=reason,
               data={"fixture": fixture.pk, "through": through,
                     "team": fixture.home_id if through == "home" else fixture.away_id})
    cup = Cup.objects.select_for_update().get(pk=fixture.cup_id)
    round_ = list(Fixture.objects.filter(cup=cup, round=fixture.round).order_by("id").values_list(
        "home_id", "away_id", "cup_through"))
    if any(not side for _h, _a, side in round_):
        return
    winners = [home if side == "home" else away for home, away, side in round_]
    if len(winners) == 1:
        cup.winner_id = winners[0]
        cup.save(update_fields=["winner"])
        log_append(league=league, kind=Kind.CUP_ROUND, actor=actor, data={"cup": cup.pk, "winner": winners[0]})
        return
    plans = next_round(winners, fixture.round + 1)
    _cup_round_make(cup, plans)
    log_append(league=league, kind=Kind.CUP_ROUND, actor=actor,
               data={"cup": cup.pk, "round": fixture.round + 1, "ties": [[p.home, p.away] for p in plans]})
