"""Event writes: events and their sections, the one registration and check-in desk, title matches, series.

Every write checks that the acting user directs THIS event (or title match, or series) and
appends a row to ``EventLog``; a section's own writes (pairing, results) are the tournaments
app's, which its event's directors may make because they direct its tournament.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from accounts.roles import is_director
from arbitration.services import game_create
from core.text import control_characters_message
from events.entry_rules import Applicant, EntryRules, entry_refusal
from events.errors import EntryRefused, TitleMatchConflict
from events.matchplay import DRAW, LOSS, WIN, ScoreLine, score_line
from events.models import (
    Event,
    EventLog,
    Registration,
    Section,
    Series,
    SeriesStage,
    TitleMatch,
    TitleMatchGame,
)
from events.ratings import band_rating
from games.models import Game
from players.models import Player
from tournaments import services as tournament_services
from tournaments.ballots import draw_ballots
from tournaments.lots import Lots, cast_lots, new_seed, plan_match
from tournaments.models import Entry, Tournament
from tournaments.services import InvalidInput, NotDirector
from tournaments.services.tournaments import _referee_users as referee_users
from tournaments.services.tournaments import clock_control_clean

#: Section names that would clash with the event's pages.
RESERVED_SLUGS = {"matches", "series", "new"}


def _invalid(errors: dict[str, list[str]]) -> InvalidInput:
    return InvalidInput("Some fields are invalid: " + ", ".join(errors) + ".", details={"fields": errors})


def _log(*, kind: str, actor: Any, data: dict[str, Any] | None = None, event: Event | None = None,
         title_match: TitleMatch | None = None, series: Series | None = None) -> EventLog:
    return EventLog.objects.create(kind=kind, actor=actor if getattr(actor, "is_authenticated", False) else None,
                                   data=data or {}, event=event, title_match=title_match, series=series)


def directs(obj: Event | TitleMatch | Series, user: Any) -> bool:
    """Tells whether the user directs this event, title match or series (a superuser directs them all)."""
    if not is_director(user):
        return False
    return bool(user.is_superuser or obj.directors.filter(pk=user.pk).exists())


def authorise_director(obj: Event | TitleMatch | Series, user: Any) -> None:
    if not directs(obj, user):
        raise NotDirector(f"Only a director of this {obj._meta.verbose_name} may do this.")


def _slug_check(errors: dict[str, list[str]], model: Any, slug: str) -> None:
    if not slug or slugify(slug) != slug:
        errors["slug"] = ["A slug of lower-case letters, digits and hyphens."]
    elif slug in RESERVED_SLUGS:
        errors["slug"] = [f"{slug!r} is reserved for a page; choose another slug."]
    elif model.objects.filter(slug=slug).exists():
        errors["slug"] = [f"{slug!r} is taken."]


# --- events and sections ------------------------------------------------------------------------

@transaction.atomic
def event_create(*, acting_user: Any, name: str, start_date: date, end_date: date, slug: str = "",
                 venue: str = "", organiser: str = "") -> Event:
    """Creates an event; the creator becomes one of its directors."""
    if not is_director(acting_user):
        raise NotDirector("Only a tournament director may create an event.")
    name = (name or "").strip()
    slug = (slug or "").strip() or slugify(name)[:80]
    errors: dict[str, list[str]] = {}
    if not name:
        errors["name"] = ["An event needs a name."]
    _slug_check(errors, Event, slug)
    if start_date and end_date and end_date < start_date:
        errors["end_date"] = ["The event cannot end before it starts."]
    if errors:
        raise _invalid(errors)
    event = Event.objects.create(name=name, slug=slug, venue=venue or "", organiser=organiser or "",
                                 start_date=start_date, end_date=end_date)
    event.directors.add(acting_user)
    _log(event=event, kind="created", actor=acting_user, data={"name": name, "slug": slug})
    return event


def _event_lock(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


@transaction.atomic
def section_create(*, acting_user: Any, event: Event, name: str, rating_min: int | None = None,
                   rating_max: int | None = None, unrated_allowed: bool = True, age_min: int | None = None,
                   age_max: int | None = None, titles: list[str] | tuple[str, ...] = (),
                   barred_by: list[int] | tuple[int, ...] = (), **tournament_settings: Any) -> Section:
    """Adds a section to the event: a tournament (its own format, deck, round length and staff) and its entry rules.

    ``tournament_settings`` go to ``tournaments.services.tournament_create`` as they are (format,
    games_per_match, opening, round_count, referees, clock_control, ...). Every director of the
    event directs the section's tournament, which opens for registration at once.
    """
    event = _event_lock(event)
    authorise_director(event, acting_user)
    name = (name or "").strip()
    errors: dict[str, list[str]] = {}
    if not name:
        errors["name"] = ["A section needs a name."]
    elif len(name) > Section._meta.get_field("name").max_length:
        errors["name"] = [f"A section's name has at most {Section._meta.get_field('name').max_length} characters."]
    elif event.sections.filter(name=name).exists():
        errors["name"] = [f"The event has a section {name!r} already."]
    if rating_min is not None and rating_max is not None and rating_max < rating_min:
        errors["rating_max"] = ["The band's top is below its bottom."]
    if age_min is not None and age_max is not None and age_max < age_min:
        errors["age_max"] = ["The oldest age is below the youngest."]
    barring = list(event.sections.filter(pk__in=list(barred_by)))
    if len(barring) != len(set(barred_by)):
        errors["barred_by"] = ["Sections of this event only."]
    if errors:
        raise _invalid(errors)
    slug = tournament_settings.pop("slug", "") or f"{event.slug}-{slugify(name)}"[:80]
    tournament = tournament_services.tournament_create(
        acting_user=acting_user, name=f"{event.name}: {name}"[:Tournament._meta.get_field("name").max_length], slug=slug, venue=event.venue,
        start_date=event.start_date, end_date=event.end_date, **tournament_settings)
    tournament.directors.add(*event.directors.all())
    tournament = tournament_services.tournament_status_set(acting_user=acting_user, tournament=tournament,
                                                           status=Tournament.Status.REGISTRATION)
    section = Section.objects.create(
        event=event, tournament=tournament, name=name, order=event.sections.count() + 1, rating_min=rating_min,
        rating_max=rating_max, unrated_allowed=unrated_allowed, age_min=age_min, age_max=age_max,
        titles=[t.strip() for t in titles if t and t.strip()])
    section.barred_by.set(barring)
    _log(event=event, kind="section_created", actor=acting_user,
         data={"section": name, "tournament": tournament.slug, "rating_min": rating_min, "rating_max": rating_max,
               "age_min": age_min, "age_max": age_max, "titles": section.titles,
               "barred_by": [s.name for s in barring]})
    return section


def entry_rules_of(section: Section) -> EntryRules:
    """Returns the section's entry rules as the pure check reads them."""
    return EntryRules(
        section=section.name, rating_min=section.rating_min, rating_max=section.rating_max,
        unrated_allowed=section.unrated_allowed, age_min=section.age_min, age_max=section.age_max,
        titles=tuple(section.titles or ()), barred_by={s.pk: s.name for s in section.barred_by.all()})


def section_refusal(section: Section, player: Player, *, birth_date: date | None = None, title: str = "") -> str | None:
    """Returns why the player may not enter the section (None: he may)."""
    sections = set(Registration.objects.filter(event=section.event_id, player=player,
                                               section__tournament__entries__player=player,
                                               section__tournament__entries__status=Entry.Status.ACTIVE)
                   .values_list("section_id", flat=True))
    applicant = Applicant(name=player.name, rating=band_rating(player), birth_date=birth_date, title=title or "",
                          sections=sections)
    return entry_refusal(entry_rules_of(section), applicant, on=section.event.start_date)


@transaction.atomic
def registration_add(*, acting_user: Any, event: Event, section: Section | int, player: Player | int,
                     birth_date: date | None = None, title: str = "") -> Registration:
    """Registers a player at the event's desk into one section, after its entry rules; refused with the reason.

    The player is entered in the section's tournament (``entry_add``); a refusal is 409
    ``entry_refused`` with ``details.reason``.
    """
    event = _event_lock(event)
    authorise_director(event, acting_user)
    section_obj = event.sections.filter(pk=section.pk if isinstance(section, Section) else section).first()
    if section_obj is None:
        raise InvalidInput.field("section", "Not a section of this event.")
    player_obj = player if isinstance(player, Player) else Player.objects.filter(pk=player).first()
    if player_obj is None:
        raise InvalidInput.field("player", f"There is no player {player}.")
    title = (title or "").strip()
    problem = control_characters_message(title)
    if problem:
        raise InvalidInput.field("title", problem)
    reason = section_refusal(section_obj, player_obj, birth_date=birth_date, title=title)
    if reason is not None:
        raise EntryRefused(reason, details={"reason": reason, "section": section_obj.name, "player": player_obj.pk})
    tournament_services.entry_add(acting_user=acting_user, tournament=section_obj.tournament, player=player_obj)
    try:
        with transaction.atomic():
            registration, _created = Registration.objects.update_or_create(
                event=event, section=section_obj, player=player_obj,
                defaults={"birth_date": birth_date, "title": title, "registered_by": acting_user})
    except IntegrityError as error:  # pragma: no cover - the event row is locked
        raise tournament_services.EntryConflict(f"{player_obj.name} is registered already.") from error
    _log(event=event, kind="registered", actor=acting_user,
         data={"player": player_obj.pk, "name": player_obj.name, "section": section_obj.name})
    return registration


@transaction.atomic
def event_check_in(*, acting_user: Any, event: Event, player: Player | int, present: bool = True) -> list[Section]:
    """Marks a player present (or absent) at the event's one desk, in every section he entered; returns them.

    Each mark is the section's own (``presence_set``, on its tournament's log) for its next round.
    """
    event = _event_lock(event)
    authorise_director(event, acting_user)
    player_id = player.pk if isinstance(player, Player) else player
    open_ = (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING)  # a finished section takes no marks
    sections = [r.section for r in Registration.objects.filter(event=event, player_id=player_id,
                                                               section__tournament__status__in=open_)
                .select_related("section__tournament").order_by("section__order")
                if Entry.objects.filter(tournament=r.section.tournament, player_id=player_id,
                                        status=Entry.Status.ACTIVE).exists()]
    if not sections:
        raise InvalidInput.field("player", "Not a player registered in a section of this event still to be played.")
    for section in sections:
        tournament_services.presence_set(acting_user=acting_user, tournament=section.tournament, player=player_id,
                                         present=present)
    _log(event=event, kind="checked_in" if present else "marked_absent", actor=acting_user,
         data={"player": player_id, "sections": [s.name for s in sections]})
    return sections


@transaction.atomic
def event_directors_add(*, acting_user: Any, event: Event, user: Any) -> Event:
    """Adds a director to the event and to each of its sections' tournaments."""
    event = _event_lock(event)
    authorise_director(event, acting_user)
    if not is_director(user):
        raise InvalidInput.field("director", f"{user.username} does not hold the director role.")
    event.directors.add(user)
    for section in event.sections.select_related("tournament"):
        section.tournament.directors.add(user)
    _log(event=event, kind="director_added", actor=acting_user, data={"director": user.username})
    return event


# --- title matches ------------------------------------------------------------------------------

def _half_points(game: Game, player_one: int) -> int | None:
    """Returns the first player's half points from a finished game (None: not finished)."""
    if game.status != Game.Status.FINISHED or not game.result:
        return None
    if game.result == Game.Result.DRAW:
        return DRAW
    black_won = game.result == Game.Result.BLACK_WINS
    return WIN if black_won == (game.black_id == player_one) else LOSS


def match_results(match: TitleMatch, match_games: list[TitleMatchGame] | None = None) -> list[int]:
    """Returns the first player's half points in each finished game, in order, up to the first unfinished one.

    ``match_games``: the match's games read already, with their games (else they are read here).
    """
    if match_games is None:
        match_games = list(match.match_games.select_related("game"))
    results = []
    for mg in sorted(match_games, key=lambda mg: mg.number):
        half = _half_points(mg.game, match.player_one_id)
        if half is None:
            break
        results.append(half)
    return results


@transaction.atomic
def title_match_create(*, acting_user: Any, name: str, player_one: Player | int, player_two: Player | int,
                       games: int, slug: str = "", play_out: bool = False,
                       opening: str = TitleMatch.Opening.THREE_MOVE_BALLOT, event: Event | None = None,
                       rule_set: str = "standard", clock_control: dict[str, Any] | None = None, venue: str = "",
                       referees: list[str] | tuple[str, ...] = (), seed: int | None = None) -> TitleMatch:
    """Creates a title match: lots for colour are cast and its openings drawn now, on the record.

    With the 3-move ballot, ``games // 2`` openings are drawn from the ACF deck with one seed
    (``draw_ballots``), each played twice with colours reversed; the seeds are kept, so the draw
    is reproduced from them. Within an event, only its director may create one.
    """
    if not is_director(acting_user):
        raise NotDirector("Only a tournament director may create a title match.")
    if event is not None:
        authorise_director(event, acting_user)
    name = (name or "").strip()
    slug = (slug or "").strip() or slugify(name)[:80]
    errors: dict[str, list[str]] = {}
    if not name:
        errors["name"] = ["A title match needs a name."]
    _slug_check(errors, TitleMatch, slug)
    one = player_one if isinstance(player_one, Player) else Player.objects.filter(pk=player_one).first()
    two = player_two if isinstance(player_two, Player) else Player.objects.filter(pk=player_two).first()
    if one is None:
        errors["player_one"] = [f"There is no player {player_one}."]
    if two is None:
        errors["player_two"] = [f"There is no player {player_two}."]
    if one is not None and two is not None and one.pk == two.pk:
        errors["player_two"] = ["A player cannot play himself."]
    if not isinstance(games, int) or isinstance(games, bool) or games < 2 or games % 2:
        errors["games"] = ["An even number of games, 2 or more (each opening is played twice)."]
    if opening not in TitleMatch.Opening.values:
        errors["opening"] = [f"One of {', '.join(TitleMatch.Opening.values)}."]
    clock, clock_errors = clock_control_clean(clock_control)
    errors.update(clock_errors)
    if errors:
        raise _invalid(errors)
    lots = cast_lots(one.pk, two.pk, seed if seed is not None else new_seed())
    ballots: list[dict[str, Any]] = []
    ballot_seed = ""
    if opening == TitleMatch.Opening.THREE_MOVE_BALLOT:
        drawn_seed = new_seed() if seed is None else seed + 1
        ballot_seed = str(drawn_seed)
        ballots = [{"number": b.number, "moves": b.pdn, "fen": b.fen, "name": b.name, "seed": ballot_seed,
                    "index": i} for i, b in enumerate(draw_ballots([], drawn_seed, games // 2))]
    match = TitleMatch.objects.create(
        name=name, slug=slug, event=event, player_one=one, player_two=two, games=games, play_out=bool(play_out),
        opening=opening, rule_set=rule_set, clock_control=clock, venue=venue or (event.venue if event else ""),
        lots_seed=str(lots.seed), first_black_id=lots.black_first, ballot_seed=ballot_seed, ballots=ballots)
    match.directors.add(acting_user)
    if event is not None:
        match.directors.add(*event.directors.all())
    if referees:
        match.referees.set(referee_users(referees))
    _log(title_match=match, event=event, kind="created", actor=acting_user,
         data={"games": games, "play_out": match.play_out, "lots_seed": match.lots_seed,
               "first_black": lots.black_first, "ballots": [b["number"] for b in ballots],
               "ballot_seed": ballot_seed})
    return match


def _match_lock(match: TitleMatch | int) -> TitleMatch:
    return TitleMatch.objects.select_for_update().get(pk=match.pk if isinstance(match, TitleMatch) else match)


def _game_next(match: TitleMatch, acting_user: Any) -> TitleMatchGame:
    """Creates the match's next game, with its colours and opening from the plan."""
    number = match.match_games.count() + 1
    plan = plan_match(_recorded_lots(match), games=match.games)[number - 1]
    ballot = match.ballots[(number - 1) // 2] if match.ballots else None
    referees = [u.username for u in match.referees.all()
                if not Player.objects.filter(pk__in=[plan.black, plan.white], user=u).exists()]
    game = game_create(acting_user=acting_user, black=plan.black, white=plan.white, rule_set=match.rule_set,
                       referees=referees, start_fen=ballot["fen"] if ballot else "",
                       opening=ballot["moves"] if ballot else "", clock=match.clock_control or None)
    return TitleMatchGame.objects.create(match=match, game=game, number=number,
                                         ballot_number=ballot["number"] if ballot else None)


def _recorded_lots(match: TitleMatch) -> Lots:
    """Returns the lots the match recorded (who has Black in game 1)."""
    other = match.player_two_id if match.first_black_id == match.player_one_id else match.player_one_id
    return Lots(int(match.lots_seed), match.first_black_id, other)


@transaction.atomic
def title_match_start(*, acting_user: Any, match: TitleMatch) -> TitleMatchGame:
    """Starts the match: its first game is created (the acting director directs its games)."""
    match = _match_lock(match)
    authorise_director(match, acting_user)
    if match.status != TitleMatch.Status.SCHEDULED:
        raise TitleMatchConflict(f"The match is {match.status}: it starts once.", details={"status": match.status})
    match.status = TitleMatch.Status.PLAYING
    match.save(update_fields=["status"])
    first = _game_next(match, acting_user)
    _log(title_match=match, event=match.event, kind="started", actor=acting_user, data={"game": first.game_id})
    return first


def _acting_director(match: TitleMatch) -> Any:
    for user in match.directors.order_by("id"):
        if is_director(user):
            return user
    return None


def match_over(match: TitleMatch, line: ScoreLine) -> bool:
    """Tells whether the match is over: every game played, or decided and its rules say the rest is not played."""
    return line.finished or (line.decided_after is not None and not match.play_out)


@transaction.atomic
def title_match_game_finished(*, game_id: int) -> int | None:
    """Follows up a finished game of a title match: the next game, or the end of the match; idempotent.

    The match ends when every game is played, or when one side cannot be caught and the
    match's rules say the rest is not played (``play_out`` False). Returns the id of the game
    created, if any.
    """
    link = TitleMatchGame.objects.filter(game_id=game_id).values_list("match_id", flat=True).first()
    if link is None:
        return None
    match = _match_lock(link)
    if match.status != TitleMatch.Status.PLAYING:
        return None
    made = list(match.match_games.select_related("game").order_by("number"))
    if any(mg.game.status != Game.Status.FINISHED for mg in made):
        return None  # a game of the match is still being played (or this was a correction)
    line = score_line(match.games, match_results(match))
    if match_over(match, line):
        match.status = TitleMatch.Status.FINISHED
        match.save(update_fields=["status"])
        _log(title_match=match, event=match.event, kind="finished", actor=None,
             data={"score": list(line.score), "played": line.played, "decided_after": line.decided_after,
                   "winner": {1: match.player_one_id, 2: match.player_two_id}.get(line.winner)})
        return None
    director = _acting_director(match)
    if director is None:
        return None
    return _game_next(match, director).game_id


# --- series -------------------------------------------------------------------------------------

@transaction.atomic
def series_create(*, acting_user: Any, name: str, slug: str = "", method: str = Series.Method.PLACES,
                  place_points: list[float] | tuple[float, ...] = (), best_of: int | None = None,
                  stages: list[str] | tuple[str, ...] = ()) -> Series:
    """Creates a series over stages (tournaments, by slug, in order): places or results, best K of N."""
    if not is_director(acting_user):
        raise NotDirector("Only a tournament director may create a series.")
    name = (name or "").strip()
    slug = (slug or "").strip() or slugify(name)[:80]
    errors: dict[str, list[str]] = {}
    if not name:
        errors["name"] = ["A series needs a name."]
    _slug_check(errors, Series, slug)
    if method not in Series.Method.values:
        errors["method"] = [f"One of {', '.join(Series.Method.values)}."]
    if method == Series.Method.PLACES and not place_points:
        errors["place_points"] = ["Points per place: the points for 1st, 2nd, ... place."]
    if any(not isinstance(p, (int, float)) or isinstance(p, bool) or p < 0 for p in place_points):
        errors["place_points"] = ["Numbers, 0 or more."]
    if best_of is not None and (not isinstance(best_of, int) or best_of < 1):
        errors["best_of"] = ["At least 1 (or empty: every stage counts)."]
    found = {t.slug: t for t in Tournament.objects.filter(slug__in=list(stages))}
    missing = [s for s in stages if s not in found]
    if missing:
        errors["stages"] = [f"No tournament {', '.join(missing)}."]
    elif len(set(stages)) != len(stages):
        errors["stages"] = ["Each stage once."]
    if errors:
        raise _invalid(errors)
    series = Series.objects.create(name=name, slug=slug, method=method, place_points=list(place_points),
                                   best_of=best_of)
    series.directors.add(acting_user)
    for number, stage in enumerate(stages, start=1):
        SeriesStage.objects.create(series=series, number=number, tournament=found[stage])
    _log(series=series, kind="created", actor=acting_user,
         data={"method": method, "place_points": list(place_points), "best_of": best_of, "stages": list(stages)})
    return series


@transaction.atomic
def series_stage_add(*, acting_user: Any, series: Series, tournament: str) -> SeriesStage:
    """Adds a stage (a tournament, by slug) at the end of the series."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    authorise_director(series, acting_user)
    found = Tournament.objects.filter(slug=tournament).first()
    if found is None:
        raise InvalidInput.field("tournament", f"No tournament {tournament}.")
    if series.stages.filter(tournament=found).exists():
        raise InvalidInput.field("tournament", f"{found.name} is a stage already.")
    stage = SeriesStage.objects.create(series=series, number=series.stages.count() + 1, tournament=found)
    _log(series=series, kind="stage_added", actor=acting_user, data={"tournament": found.slug, "number": stage.number})
    return stage
