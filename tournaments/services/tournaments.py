"""Tournament writes: creation, staff, entries, and the status that only moves forward."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.text import slugify

from accounts.roles import Role, is_director, user_roles
from arbitration.services import game_referee_remove
from arbitration.timecontrol import ClockControl, ClockControlError
from clubs.services import club_member_sync, club_name_canonical
from core.text import control_characters_message
from games.models import Game, ProgressRule, RuleSet
from players.models import Player, PlayerLog, player_name_key
from tournaments.csv_import import CSVFormatError, RefusedRow, players_import, with_header
from tournaments.models import Entry, Round, RoundBye, Tournament, TournamentLog
from tournaments.scoring import TIEBREAKS
from tournaments.services import pure
from tournaments.services.access import authorise_director, log_write, tournament_lock
from tournaments.services.errors import (
    EntryConflict,
    InvalidInput,
    NotDirector,
    StatusTransitionRefused,
    WrongTournamentStatus,
)
from tournaments.services.outcomes import match_outcomes
from tournaments.services.ratings import ratings_update
from tournaments.services.rounds import round_status_set

Status = Tournament.Status

#: The only steps a tournament's status may take: forward, one at a time; a finished tournament is
#: reopened (running) only with a reason (``REASON_REQUIRED``).
ALLOWED_TRANSITIONS: dict[str, tuple[str, ...]] = {
    Status.DRAFT: (Status.REGISTRATION,),
    Status.REGISTRATION: (Status.RUNNING,),
    Status.RUNNING: (Status.FINISHED,),
    Status.FINISHED: (Status.RUNNING,),
}

#: Steps that need a reason on the log.
REASON_REQUIRED = {(Status.FINISHED, Status.RUNNING)}

DEFAULT_TIEBREAKS = ["sonneborn_berger", "head_to_head", "wins", "game_points"]
SWISS_TIEBREAKS = ["buchholz", "median_buchholz", "sonneborn_berger", "wins", "game_points"]
KNOWN_TIEBREAKS = TIEBREAKS
RESERVED_SLUGS = {"me", "manage", "players"}


def _referee_users(usernames: list[str] | tuple[str, ...], field: str = "referees") -> list[Any]:
    wanted = list(dict.fromkeys(u.strip() for u in usernames if u and u.strip()))
    if not wanted:
        return []
    found = {u.username: u for u in get_user_model().objects.filter(username__in=wanted).prefetch_related("groups")}
    bad = [name for name in wanted if name not in found or not ({Role.REFEREE, Role.DIRECTOR} & user_roles(found[name]))]
    if bad:
        raise InvalidInput.field(field, f"Not a user with the referee or director role: {', '.join(bad)}.")
    return [found[name] for name in wanted]


def _validate_settings(fields: dict[str, Any]) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    fmt = fields.get("format")
    if fmt not in Tournament.Format.values:
        errors["format"] = [f"One of {', '.join(Tournament.Format.values)}."]
    gpm = fields.get("games_per_match")
    if not isinstance(gpm, int) or isinstance(gpm, bool) or gpm not in GAMES_PER_ROUND:
        errors["games_per_match"] = ["1, 2 or 4 games a round (2 or 4: each opening twice, colours reversed)."]
    if fields.get("opening") not in Tournament.Opening.values:
        errors["opening"] = [f"One of {', '.join(Tournament.Opening.values)}."]
    else:
        errors.update(deck_problems(fields))
    if fields.get("score_by", Tournament.ScoreBy.ROUND) not in Tournament.ScoreBy.values:
        errors["score_by"] = [f"One of {', '.join(Tournament.ScoreBy.values)}."]
    if fields.get("rule_set") not in RuleSet.values:
        errors["rule_set"] = [f"One of {', '.join(RuleSet.values)}."]
    if fields.get("progress_rule") not in ProgressRule.values:
        errors["progress_rule"] = [f"One of {', '.join(ProgressRule.values)}."]
    errors.update(_swiss_settings_problems(fields))
    rounds = fields.get("round_count")
    if fmt == Tournament.Format.SWISS and (not isinstance(rounds, int) or rounds < 1):
        errors["rounds"] = ["A Swiss needs its number of rounds (1 or more)."]
    tiebreak_errors = tiebreaks_problems(fields.get("tiebreaks") or [])
    if tiebreak_errors:
        errors["tiebreaks"] = tiebreak_errors
    win, draw, loss = (fields.get(k) for k in ("match_points_win", "match_points_draw", "match_points_loss"))
    if not (isinstance(win, int) and isinstance(draw, int) and isinstance(loss, int) and win >= draw >= loss >= 0):
        errors["scoring"] = ["Match points: win >= draw >= loss >= 0."]
    return errors


GAMES_PER_ROUND = (1, 2, 4)
DECK_FIELDS = ("deck", "deck_name", "deck_barred", "deck_added")


def deck_problems(fields: dict[str, Any]) -> dict[str, list[str]]:
    """Returns what is wrong with the opening's deck: a deck its opening does not use, numbers that are not openings."""
    errors: dict[str, list[str]] = {}
    deck = fields.get("deck") or ""
    name = fields.get("deck_name") or ""
    numbers = {}
    for field in ("deck_barred", "deck_added"):
        value = fields.get(field) or []
        if not isinstance(value, list) or not all(isinstance(n, int) and not isinstance(n, bool) for n in value):
            errors[field] = ["A list of opening numbers."]
        numbers[field] = value if field not in errors else []
    if not isinstance(deck, str) or (deck and deck not in pure.BASE_DECKS):
        errors["deck"] = [f"One of {', '.join(pure.BASE_DECKS)}, or empty (the opening's own deck)."]
    if not isinstance(name, str) or len(name) > 80:
        errors["deck_name"] = ["A name of at most 80 characters."]
    if errors:
        return errors
    try:
        pure.deck_for(fields["opening"], deck, numbers["deck_barred"], numbers["deck_added"])
    except pure.DeckError as error:
        errors["deck"] = [str(error)[:1].upper() + str(error)[1:] + "."]
    return errors


def _swiss_settings_problems(fields: dict[str, Any]) -> dict[str, list[str]]:
    """Returns what is wrong with a Swiss's pairing settings among ``fields`` (those given only)."""
    errors: dict[str, list[str]] = {}
    if "pairing_system" in fields and fields["pairing_system"] not in Tournament.PairingSystem.values:
        errors["pairing_system"] = [f"One of {', '.join(Tournament.PairingSystem.values)}."]
    if "acceleration" in fields and fields["acceleration"] not in Tournament.Acceleration.values:
        errors["acceleration"] = [f"One of {', '.join(Tournament.Acceleration.values)}."]
    for name in ("half_point_byes", "byes_closed_rounds"):
        value = fields.get(name, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 100:
            errors[name] = ["A number of rounds, 0 to 100."]
    return errors


def tiebreaks_problems(tiebreaks: list[str]) -> list[str]:
    """Returns what is wrong with an ordered list of tiebreak names: unknown names, a name given twice."""
    problems = []
    unknown = [t for t in tiebreaks if t not in KNOWN_TIEBREAKS]
    if unknown:
        problems.append(f"Unknown tiebreaks {', '.join(unknown)}; known: {', '.join(KNOWN_TIEBREAKS)}.")
    repeated = sorted({t for t in tiebreaks if tiebreaks.count(t) > 1})
    if repeated:
        problems.append(f"Each tiebreak is given once: {', '.join(repeated)} given more than once.")
    return problems


def clock_control_clean(value: Any) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Returns the tournament's clock control in its full JSON form, and the errors by field.

    Empty (None or ``{}``) means no clock and is kept as ``{}``; anything else is read by
    ``arbitration.timecontrol.ClockControl`` (``{"control": "none"}`` is also no clock). Errors
    are named ``clock`` or ``clock.<field>``.
    """
    if value is None or value == {}:
        return {}, {}
    try:
        control = ClockControl.from_dict(value)
    except ClockControlError as error:
        return {}, {name if name == "clock" else f"clock.{name}": msgs for name, msgs in error.fields.items()}
    return control.as_dict(), {}


@transaction.atomic
def tournament_create(
    *, acting_user: Any, name: str, slug: str = "", format: str = Tournament.Format.ROUND_ROBIN,
    round_count: int | None = None, games_per_match: int = 2,
    opening: str = Tournament.Opening.THREE_MOVE_BALLOT, rule_set: str = RuleSet.STANDARD,
    progress_rule: str = ProgressRule.FORTY_MOVE_NOTICE, referees: list[str] | tuple[str, ...] = (),
    venue: str = "", start_date: Any = None, end_date: Any = None, clock_control: dict | None = None,
    tiebreaks: list[str] | None = None, rated: bool = False, match_points_win: int = 2,
    match_points_draw: int = 1, match_points_loss: int = 0, knockout_extra_blocks: int | None = None,
    arbiters: list[str] | tuple[str, ...] = (), appeal_window_minutes: int | None = None,
    deck: str = "", deck_name: str = "", deck_barred: list[int] | None = None, deck_added: list[int] | None = None,
    score_by: str = Tournament.ScoreBy.ROUND,
    pairing_system: str = Tournament.PairingSystem.WEIGHTED, acceleration: str = Tournament.Acceleration.NONE,
    half_point_byes: int = 0, byes_closed_rounds: int = 0,
) -> Tournament:
    """Creates a tournament in draft; the creator becomes one of its directors.

    A Swiss is paired by ``pairing_system`` (the FIDE Dutch system or the weighted matching),
    with ``acceleration`` (Baku, the Dutch system only); its players may ask for up to
    ``half_point_byes`` half-point byes, none in the last ``byes_closed_rounds`` rounds.

    ``clock_control`` is the time control its games get (``clock_control_clean``): checked
    here, given to each game when its round is published.
    """
    if not is_director(acting_user):
        raise NotDirector("Only a tournament director may create a tournament.")
    name = (name or "").strip()
    slug = (slug or "").strip() or slugify(name)[:80]
    settings = {
        "format": format, "games_per_match": games_per_match, "opening": opening, "rule_set": rule_set,
        "progress_rule": progress_rule, "round_count": round_count, "tiebreaks": tiebreaks,
        "match_points_win": match_points_win, "match_points_draw": match_points_draw,
        "match_points_loss": match_points_loss, "deck": deck or "", "deck_name": (deck_name or "").strip(),
        "deck_barred": deck_barred or [], "deck_added": deck_added or [], "score_by": score_by,
        "pairing_system": pairing_system, "acceleration": acceleration,
        "half_point_byes": half_point_byes, "byes_closed_rounds": byes_closed_rounds,
    }
    errors = _validate_settings(settings)
    if (acceleration == Tournament.Acceleration.BAKU and pairing_system != Tournament.PairingSystem.DUTCH
            and "acceleration" not in errors):
        errors["acceleration"] = ["The Baku acceleration goes with the Dutch system."]
    clock_control, clock_errors = clock_control_clean(clock_control)
    errors.update(clock_errors)
    if not name:
        errors["name"] = ["A tournament needs a name."]
    if not slug or slugify(slug) != slug:
        errors["slug"] = ["A slug of lower-case letters, digits and hyphens."]
    elif slug in RESERVED_SLUGS:
        errors["slug"] = [f"{slug!r} is reserved for a page; choose another slug."]
    elif Tournament.objects.filter(slug=slug).exists():
        errors["slug"] = [f"A tournament with the slug {slug!r} already exists."]
    if start_date and end_date and end_date < start_date:
        errors["end_date"] = ["The tournament cannot end before it starts."]
    if errors:
        raise InvalidInput("Some fields are invalid: " + ", ".join(errors) + ".", details={"fields": errors})
    referee_users = _referee_users(referees)
    arbiter_users = _referee_users(arbiters, field="arbiters")
    if tiebreaks is None:
        tiebreaks = list(SWISS_TIEBREAKS if format == Tournament.Format.SWISS else DEFAULT_TIEBREAKS)
    tournament = Tournament.objects.create(
        name=name, slug=slug, format=format, round_count=round_count if format == Tournament.Format.SWISS else None,
        games_per_match=games_per_match, opening=opening, rule_set=rule_set, progress_rule=progress_rule,
        venue=venue or "", start_date=start_date, end_date=end_date, clock_control=clock_control,
        tiebreaks=tiebreaks, rated=rated, match_points_win=match_points_win, match_points_draw=match_points_draw,
        match_points_loss=match_points_loss, knockout_extra_blocks=knockout_extra_blocks,
        appeal_window_minutes=appeal_window_minutes, deck=settings["deck"], deck_name=settings["deck_name"],
        deck_barred=sorted(set(settings["deck_barred"])), deck_added=sorted(set(settings["deck_added"])),
        score_by=score_by,
        pairing_system=pairing_system, acceleration=acceleration,
        half_point_byes=half_point_byes, byes_closed_rounds=byes_closed_rounds,
    )
    tournament.directors.add(acting_user)
    if referee_users:
        tournament.referees.set(referee_users)
    if arbiter_users:
        tournament.arbiters.set(arbiter_users)
    log_write(tournament=tournament, kind=TournamentLog.Kind.CREATED, actor=acting_user, to_status=tournament.status,
              data={**{k: v for k, v in settings.items() if k != "tiebreaks"}, "tiebreaks": tiebreaks,
                    "referees": [u.username for u in referee_users], "clock": clock_control,
                    "arbiters": [u.username for u in arbiter_users], "appeal_window_minutes": appeal_window_minutes})
    return tournament


#: What ``tournament_update`` may change, and until which status (inclusive).
EDITABLE_UNTIL: dict[str, tuple[str, ...]] = {
    "name": (Status.DRAFT, Status.REGISTRATION, Status.RUNNING),
    "venue": (Status.DRAFT, Status.REGISTRATION, Status.RUNNING),
    "start_date": (Status.DRAFT, Status.REGISTRATION, Status.RUNNING),
    "end_date": (Status.DRAFT, Status.REGISTRATION, Status.RUNNING),
    "clock_control": (Status.DRAFT, Status.REGISTRATION, Status.RUNNING),
    "tiebreaks": (Status.DRAFT, Status.REGISTRATION),
    "rated": (Status.DRAFT, Status.REGISTRATION),
    "appeal_window_minutes": (Status.DRAFT, Status.REGISTRATION, Status.RUNNING),
    # openings, decks and round lengths (docs/openings.md): fixed once the tournament runs
    "opening": (Status.DRAFT, Status.REGISTRATION),
    "deck": (Status.DRAFT, Status.REGISTRATION),
    "deck_name": (Status.DRAFT, Status.REGISTRATION, Status.RUNNING),
    "deck_barred": (Status.DRAFT, Status.REGISTRATION),
    "deck_added": (Status.DRAFT, Status.REGISTRATION),
    "games_per_match": (Status.DRAFT, Status.REGISTRATION),
    "score_by": (Status.DRAFT, Status.REGISTRATION),
    "pairing_system": (Status.DRAFT, Status.REGISTRATION),
    "acceleration": (Status.DRAFT, Status.REGISTRATION),
    "half_point_byes": (Status.DRAFT, Status.REGISTRATION, Status.RUNNING),
    "byes_closed_rounds": (Status.DRAFT, Status.REGISTRATION, Status.RUNNING),
}


@transaction.atomic
def tournament_update(*, acting_user: Any, tournament: Tournament, reason: str = "", **changes: Any) -> Tournament:
    """Changes settings of a tournament (``EDITABLE_UNTIL``) and logs the change with the values before.

    A new clock control applies to the games of rounds published afterwards; games already
    made keep theirs. A finished tournament changes no more.
    """
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    unknown = sorted(set(changes) - set(EDITABLE_UNTIL))
    if unknown:
        raise InvalidInput("Some fields cannot be edited: " + ", ".join(unknown) + ".",
                           details={"fields": {name: ["Not an editable setting."] for name in unknown}})
    errors: dict[str, list[str]] = {}
    for name in changes:
        if tournament.status not in EDITABLE_UNTIL[name]:
            errors[name] = [f"Cannot be changed once the tournament is {tournament.status}."]
    if "name" in changes:
        changes["name"] = (changes["name"] or "").strip()
        if not changes["name"]:
            errors["name"] = ["A tournament needs a name."]
    if "venue" in changes:
        changes["venue"] = changes["venue"] or ""
    if "clock_control" in changes:
        changes["clock_control"], clock_errors = clock_control_clean(changes["clock_control"])
        errors.update(clock_errors)
    if "tiebreaks" in changes:
        if changes["tiebreaks"] is None:
            changes["tiebreaks"] = list(SWISS_TIEBREAKS if tournament.format == Tournament.Format.SWISS
                                        else DEFAULT_TIEBREAKS)
        tiebreak_errors = tiebreaks_problems(changes["tiebreaks"])
        if tiebreak_errors:
            errors["tiebreaks"] = tiebreak_errors
    if set(changes) & {"opening", "games_per_match", "score_by", *DECK_FIELDS}:
        merged = {name: changes.get(name, getattr(tournament, name))
                  for name in ("opening", "games_per_match", "score_by", *DECK_FIELDS)}
        merged["deck"] = merged["deck"] or ""
        merged["deck_name"] = (merged["deck_name"] or "").strip()
        problems = {k: v for k, v in _validate_settings({**merged, "format": tournament.format,
                                                          "rule_set": tournament.rule_set,
                                                          "progress_rule": tournament.progress_rule,
                                                          "round_count": tournament.round_count,
                                                          "match_points_win": tournament.match_points_win,
                                                          "match_points_draw": tournament.match_points_draw,
                                                          "match_points_loss": tournament.match_points_loss}).items()
                    if k in merged}
        errors.update(problems)
        for name in ("deck", "deck_name"):
            if name in changes:
                changes[name] = merged[name]
        for name in ("deck_barred", "deck_added"):
            if name in changes and name not in problems:
                changes[name] = sorted(set(changes[name] or []))
    errors.update(_swiss_settings_problems(changes))
    if (changes.get("acceleration", tournament.acceleration) == Tournament.Acceleration.BAKU
            and changes.get("pairing_system", tournament.pairing_system) != Tournament.PairingSystem.DUTCH
            and "acceleration" not in errors and "pairing_system" not in errors):
        errors["acceleration"] = ["The Baku acceleration goes with the Dutch system."]
    start = changes.get("start_date", tournament.start_date)
    end = changes.get("end_date", tournament.end_date)
    if start and end and end < start:
        errors["end_date"] = ["The tournament cannot end before it starts."]
    if errors:
        raise InvalidInput("Some fields are invalid: " + ", ".join(errors) + ".", details={"fields": errors})
    before = {name: getattr(tournament, name) for name in changes}
    changed = [name for name in changes if before[name] != changes[name]]
    if not changed:
        return tournament
    for name in changed:
        setattr(tournament, name, changes[name])
    tournament.save(update_fields=changed)
    log_write(tournament=tournament, kind=TournamentLog.Kind.SETTINGS_CHANGED, actor=acting_user, reason=reason,
              data={name: {"before": _plain(before[name]), "after": _plain(changes[name])} for name in changed})
    return tournament


def _plain(value: Any) -> Any:
    """Returns a value as the log's JSON keeps it (dates as ISO strings)."""
    return value.isoformat() if hasattr(value, "isoformat") else value


@transaction.atomic
def tournament_referees_set(*, acting_user: Any, tournament: Tournament, referees: list[str]) -> Tournament:
    """Sets the tournament's referees (games of rounds published later are assigned from them).

    A referee removed is taken off the tournament's unfinished games (each on its game's log,
    and on the tournament's); ``tournament.games_needing_referee`` lists the games left with no
    referee, for the director to assign one (``POST /api/v1/games/{id}/referees/``).
    """
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    users = _referee_users(referees)
    before = set(tournament.referees.values_list("pk", flat=True))
    tournament.referees.set(users)
    log_write(tournament=tournament, kind=TournamentLog.Kind.REFEREES_ASSIGNED, actor=acting_user,
              data={"referees": [u.username for u in users]})
    removed = before - {u.pk for u in users}
    needing: list[int] = []
    for referee in get_user_model().objects.filter(pk__in=removed).order_by("username"):
        games = list(Game.objects.filter(round__tournament=tournament, referees=referee)
                     .exclude(status=Game.Status.FINISHED).order_by("id").values_list("id", flat=True))
        left_without = []
        for game_id in games:
            if not game_referee_remove(acting_user=acting_user, game_id=game_id, referee=referee,
                                       reason="A referee of this game is no longer a referee of the tournament."):
                left_without.append(game_id)
        if games:
            log_write(tournament=tournament, kind=TournamentLog.Kind.REFEREE_REMOVED, actor=acting_user,
                      data={"referee": referee.username, "referee_id": referee.pk, "games": games,
                            "need_referee": left_without})
        needing += left_without
    tournament.games_needing_referee = sorted(set(needing) | set(
        Game.objects.filter(round__tournament=tournament, referees__isnull=True)
        .exclude(status=Game.Status.FINISHED).values_list("id", flat=True)))
    return tournament


@transaction.atomic
def tournament_arbiters_set(*, acting_user: Any, tournament: Tournament, arbiters: list[str]) -> Tournament:
    """Names who decides appeals on the tournament's games (Law 28): users with the referee or director role.

    Each appeal is decided by one of them who is disinterested in it (not a player of the
    game, not the one who made the ruling appealed, not the appellant).
    """
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    if tournament.status == Status.FINISHED:
        raise WrongTournamentStatus("The tournament is finished.")
    users = _referee_users(arbiters, field="arbiters")
    before = sorted(tournament.arbiters.values_list("username", flat=True))
    tournament.arbiters.set(users)
    log_write(tournament=tournament, kind=TournamentLog.Kind.ARBITERS_NAMED, actor=acting_user,
              data={"before": before, "after": [u.username for u in users]})
    return tournament


@transaction.atomic
def tournament_status_set(*, acting_user: Any, tournament: Tournament, status: str, reason: str = "") -> Tournament:
    """Moves the status one allowed step (ALLOWED_TRANSITIONS) and logs it.

    Starting assigns the players' seeds (by rating); finishing needs every published game
    finished and no preview pending, and updates the ratings of a rated tournament. Reopening
    a finished tournament (back to running, so that its games may be corrected) needs a reason,
    and is refused once its ratings were computed (they are final).
    """
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    current = tournament.status
    allowed = ALLOWED_TRANSITIONS.get(current, ())
    if status not in Status.values:
        raise InvalidInput.field("status", f"One of {', '.join(Status.values)}.")
    if status not in allowed:
        nxt = allowed[0] if allowed else None
        raise StatusTransitionRefused(
            f"The tournament is {current}; it can move only to {nxt}" + (" (reopened, with a reason)."
                                                                         if current == Status.FINISHED else ".")
            if nxt
            else f"The tournament is {current}; its status cannot change any more.",
            details={"status": current, "requested": status, "allowed": list(allowed)},
        )
    reason = (reason or "").strip()
    if (current, status) in REASON_REQUIRED and not reason:
        raise InvalidInput.field("reason", f"Say why the tournament goes from {current} back to {status} "
                                           "(it goes on its log).")
    if current == Status.FINISHED and tournament.rating_history.exists():
        raise StatusTransitionRefused("The tournament's ratings were computed from its results: they are final, "
                                      "and it cannot be reopened.", details={"status": current, "requested": status})
    if status == Status.RUNNING and current != Status.FINISHED:
        _check_can_start(tournament)
        _seed_entries(tournament)
    if status == Status.FINISHED:
        _check_can_finish(tournament)
        for round_ in tournament.rounds.filter(status=Round.Status.PUBLISHED).order_by("number"):
            round_status_set(round_, Round.Status.FINISHED, acting_user=acting_user)
    tournament.status = status
    tournament.save(update_fields=["status"])
    log_write(tournament=tournament, kind=TournamentLog.Kind.STATUS_CHANGED, actor=acting_user,
              from_status=current, to_status=status, reason=reason)
    if status == Status.FINISHED and tournament.rated:
        ratings_update(acting_user=acting_user, tournament=tournament)
    return tournament


def _check_can_start(tournament: Tournament) -> None:
    count = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
    if count < 2:
        raise WrongTournamentStatus("A tournament needs at least 2 players to start.",
                                    details={"players": count})


def _check_can_finish(tournament: Tournament) -> None:
    if tournament.rounds.filter(status=Round.Status.PREVIEW).exists():
        raise WrongTournamentStatus("A round is still a preview: publish or discard it first.")
    unfinished = list(Game.objects.filter(round__tournament=tournament).exclude(status="finished")
                      .values_list("id", flat=True)[:20])
    if unfinished:
        raise WrongTournamentStatus("Some games are not finished.", details={"games": unfinished})
    undecided = sorted((o.round, o.board) for o in match_outcomes(tournament).values() if not o.complete)
    if undecided:
        where = ", ".join(f"round {r} board {b}" for r, b in undecided[:10])
        raise WrongTournamentStatus(
            f"Some matches are not decided ({where}): a tied knockout match plays another 2-game block first.",
            details={"matches": [{"round": r, "board": b} for r, b in undecided]},
        )


def _seed_entries(tournament: Tournament) -> None:
    entries = list(tournament.entries.select_related("player").filter(status=Entry.Status.ACTIVE))
    entries.sort(key=lambda e: (-(e.player.rating or 0), e.player.name, e.player_id))
    for number, entry in enumerate(entries, start=1):
        entry.seed = number
    Entry.objects.bulk_update(entries, ["seed"])


# --- entries ----------------------------------------------------------------------------------


@transaction.atomic
def entry_add(*, acting_user: Any, tournament: Tournament, player: Player | int,
              missed_rounds: str = RoundBye.Kind.ZERO) -> Entry:
    """Enters a player; once running, a late entry (Swiss only) is paired from the next round.

    ``missed_rounds`` is what the director gives a late entry for each round he missed: a
    zero-point (the default), half-point or full-point bye (``RoundBye``, on the log row).

    With a preview open, the late entry plays in the preview's round: the preview no longer
    pairs everybody, so publishing it is refused until the director pairs it again or edits it
    (the log row names the preview as ``stale_preview``).
    """
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    player_obj = player if isinstance(player, Player) else Player.objects.filter(pk=player).first()
    if player_obj is None:
        raise InvalidInput.field("player", f"There is no player {player}.")
    if tournament.status == Status.FINISHED:
        raise WrongTournamentStatus("The tournament is finished.")
    first_round = 1
    preview = None
    if missed_rounds not in RoundBye.Kind.values:
        raise InvalidInput.field("missed_rounds", f"One of {', '.join(RoundBye.Kind.values)}.")
    if tournament.status == Status.RUNNING:
        if tournament.format != Tournament.Format.SWISS:
            raise WrongTournamentStatus(
                f"A {tournament.get_format_display().lower()} takes no late entries once it is running.")
        first_round = (tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        if tournament.rounds.filter(number=first_round - 1, status=Round.Status.PREVIEW).exists():
            first_round -= 1  # he plays in the preview's round: it cannot be published until paired again
            preview = first_round
    entry = Entry.objects.filter(tournament=tournament, player=player_obj).first()
    if entry is not None:
        if entry.status == Entry.Status.ACTIVE:
            raise EntryConflict(f"{player_obj.name} is already entered.", details={"player": player_obj.pk})
        entry.status = Entry.Status.ACTIVE
        entry.withdrawn_after_round = None
        entry.first_round = max(entry.first_round, first_round)
        entry.save(update_fields=["status", "withdrawn_after_round", "first_round"])
    else:
        try:
            with transaction.atomic():
                entry = Entry.objects.create(tournament=tournament, player=player_obj, first_round=first_round)
        except IntegrityError as error:  # a concurrent entry of the same player
            raise EntryConflict(f"{player_obj.name} is already entered.") from error
        if tournament.status == Status.RUNNING:
            entry.seed = tournament.entries.count()
            entry.save(update_fields=["seed"])
    missed = []
    if tournament.status == Status.RUNNING and missed_rounds != RoundBye.Kind.ZERO:
        missed = [n for n in range(1, entry.first_round)
                  if not RoundBye.objects.filter(tournament=tournament, player=player_obj, round_number=n).exists()]
        RoundBye.objects.bulk_create([
            RoundBye(tournament=tournament, player=player_obj, round_number=n, kind=missed_rounds,
                     reason=RoundBye.Reason.LATE_ENTRY, created_by=acting_user) for n in missed])
    log_write(tournament=tournament, kind=TournamentLog.Kind.ENTRY_ADDED, actor=acting_user,
              data={"player": player_obj.pk, "name": player_obj.name, "first_round": entry.first_round,
                    "late": tournament.status == Status.RUNNING, "stale_preview": preview,
                    **({"missed_rounds": missed_rounds, "byes": missed} if missed else {})})
    return entry


@transaction.atomic
def entries_add(*, acting_user: Any, tournament: Tournament, players: list[Player | int],
                missed_rounds: str = RoundBye.Kind.ZERO) -> list[Entry]:
    """Enters several players at once: all of them, or none if one is refused."""
    if not players:
        raise InvalidInput.field("player", "Choose a player to register.")
    return [entry_add(acting_user=acting_user, tournament=tournament, player=player, missed_rounds=missed_rounds)
            for player in players]


@dataclass
class EntriesImport:
    """What an import of players into a tournament does (a preview) or did."""

    created: list[Player] = dataclass_field(default_factory=list)  # new players: registered and entered
    entered: list[Player] = dataclass_field(default_factory=list)  # players of the registry: entered
    already: list[Player] = dataclass_field(default_factory=list)  # entered already: nothing done
    refused: list[RefusedRow] = dataclass_field(default_factory=list)
    dry_run: bool = True

    def as_dict(self) -> dict[str, Any]:
        def brief(player: Player) -> dict[str, Any]:
            return {"id": player.pk, "name": player.name, "club": player.club, "federation": player.federation,
                    "federation_id": player.federation_id, "rating": player.rating}
        return {"created": [brief(p) for p in self.created], "entered": [brief(p) for p in self.entered],
                "already": [brief(p) for p in self.already],
                "refused": [{"line": r.line, "reason": r.reason, "row": r.row, "player": r.player}
                            for r in self.refused], "dry_run": self.dry_run}


@transaction.atomic
def entries_import(*, acting_user: Any, tournament: Tournament, text: str, dry_run: bool = True) -> EntriesImport:
    """Enters the players of a CSV text (or pasted lines) in a tournament: the new ones are registered first.

    ``dry_run`` (the preview) writes nothing and says what the import would do: the players it
    registers and enters, the registered players it enters (a row whose federation id, or name
    and club, is a registered player's), those entered already, and the lines refused and why.
    Without it the import is one transaction: every new player registered (on the registry's
    record) and every player entered (on the tournament's log), or nothing.
    """
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    if tournament.status == Status.FINISHED:
        raise WrongTournamentStatus("The tournament is finished.")
    if tournament.status == Status.RUNNING and tournament.format != Tournament.Format.SWISS:
        raise WrongTournamentStatus(
            f"A {tournament.get_format_display().lower()} takes no late entries once it is running.")
    if not (text or "").strip():
        raise InvalidInput.field("csv", "Paste the players, one a line (name, club, federation, federation id, "
                                 "rating), or choose a CSV file.")
    headed = with_header(text)
    shift = 1 if headed.count("\n") > text.count("\n") else 0  # a header added: lines counted as pasted
    text = headed
    try:
        check = players_import(text, dry_run=True, line_offset=shift)
    except CSVFormatError as error:
        raise InvalidInput.field("csv", str(error)) from error
    entered_ids = set(Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
                      .values_list("player_id", flat=True))
    known: list[int] = []
    refused: list[RefusedRow] = []
    for row in check.refused:
        if row.player is None:
            refused.append(row)
        elif row.player not in known:
            known.append(row.player)
    players = Player.objects.in_bulk(known)
    report = EntriesImport(refused=refused, dry_run=dry_run,
                           entered=[players[pk] for pk in known if pk not in entered_ids],
                           already=[players[pk] for pk in known if pk in entered_ids])
    if dry_run:
        report.created = check.created
        return report
    if not check.created and not report.entered:
        raise InvalidInput.field("csv", "No player to enter: every line is refused or entered already.")
    report.created = players_import(text, acting_user=acting_user).created
    entries_add(acting_user=acting_user, tournament=tournament, players=[*report.created, *report.entered])
    return report


@transaction.atomic
def entry_withdraw(*, acting_user: Any, tournament: Tournament, player: Player | int, reason: str = "") -> Entry:
    """Withdraws a player: the entry stays (results stand); he is not paired again.

    Before the tournament starts the withdrawal simply removes him from the field. In a
    running round robin his later matches become forfeits to his opponents when paired.
    """
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    player_id = player.pk if isinstance(player, Player) else player
    entry = Entry.objects.select_related("player").filter(tournament=tournament, player_id=player_id).first()
    if entry is None:
        raise InvalidInput.field("player", f"Player {player_id} is not entered.")
    if entry.status == Entry.Status.WITHDRAWN:
        raise EntryConflict(f"{entry.player.name} has already withdrawn.")
    if tournament.status == Status.FINISHED:
        raise WrongTournamentStatus("The tournament is finished.")
    last = tournament.rounds.exclude(status=Round.Status.PREVIEW).order_by("-number").values_list(
        "number", flat=True).first() or 0
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_after_round = last
    entry.save(update_fields=["status", "withdrawn_after_round"])
    later = RoundBye.objects.filter(tournament=tournament, player_id=entry.player_id, round_number__gt=last)
    dropped = sorted(later.values_list("round_number", flat=True))
    later.delete()  # a withdrawn player scores nothing more: his byes of rounds not yet played go
    log_write(tournament=tournament, kind=TournamentLog.Kind.ENTRY_WITHDRAWN, actor=acting_user, reason=reason,
              data={"player": entry.player_id, "name": entry.player.name, "after_round": last,
                    **({"byes_dropped": dropped} if dropped else {})})
    return entry


@transaction.atomic
def player_create(*, acting_user: Any, name: str, club: str = "", federation: str = "", federation_id: str = "",
                  rating: int | None = None, user: Any = None) -> Player:
    """Registers a player (a director's job); a federation id is unique within its federation.

    As the CSV import does, a player without a federation id whose name and club (case and
    spacing ignored, ``player_name_key``) are a registered player's is refused: the same
    request sent twice registers one player.
    """
    if not is_director(acting_user):
        raise NotDirector("Only a tournament director may register a player.")
    name = (name or "").strip()
    if not name:
        raise InvalidInput.field("name", "A player needs a name.")
    _player_texts_checked({"name": name, "club": club, "federation": federation, "federation_id": federation_id})
    if federation_id and Player.objects.filter(federation=federation, federation_id=federation_id).exists():
        raise InvalidInput.field("federation_id", f"{federation} {federation_id} is already registered.")
    if not federation_id.strip():
        key = player_name_key(name, club)
        candidates = Player.objects.filter(Q(name__iexact=name) | Q(name__iexact=" ".join(name.split())))
        same = next((pk for pk, n, c in candidates.values_list("pk", "name", "club") if player_name_key(n, c) == key),
                    None)
        if same is not None:
            raise InvalidInput.field("name", f"{name} ({club.strip() or 'no club'}) is already registered (player "
                                     f"{same}); a namesake needs a federation id or his own club.")
    if user is not None and not acting_user.is_superuser:
        raise NotDirector("Only an administrator links an account to a player: the player claims his record from "
                          "his own account (POST /players/{id}/claim/).", details={"fields": {"user": [
                              "Only an administrator links an account."]}})
    _check_user_free(user, None)
    club = club_name_canonical(club)  # the registered club's spelling (clubs app); the record follows below
    player = Player.objects.create(name=name, club=club, federation=federation.strip(),
                                   federation_id=federation_id.strip(), rating=rating, user=user)
    PlayerLog.objects.create(player=player, kind=PlayerLog.Kind.CREATED, actor=acting_user,
                             as_administrator=bool(acting_user.is_superuser),
                             changes={name: {"before": None, "after": _player_value(player, name)}
                                      for name in PLAYER_FIELDS
                                      if name != "user" and _player_value(player, name) not in (None, "")})
    if user is not None:
        player_account_logged(player=player, actor=acting_user, before=None, after=user)
    club_member_sync(acting_user=acting_user, player=player)
    return player


def _player_value(player: Player, name: str) -> Any:
    """Returns a player's field as the registry's log keeps it (the linked account by username)."""
    if name == "user":
        return player.user.username if player.user_id else None
    return getattr(player, name)


def player_registrar_id(player: Player) -> int | None:
    """Returns the id of the user who registered the player (the registry's ``created`` row), or None."""
    return (PlayerLog.objects.filter(player=player, kind=PlayerLog.Kind.CREATED).order_by("id")
            .values_list("actor_id", flat=True).first())


def may_edit_player(player: Player, user: Any) -> bool:
    """Tells whether the user keeps the player's record (changes his details, decides claims on him).

    An administrator; or the director who registered him, as long as every tournament the
    player is entered in is one this director directs. Entering a player in a tournament of
    one's own never makes one his keeper, and a player who plays under another director is kept
    by the administrators alone (his details are that tournament's too).
    """
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    if not is_director(user) or player_registrar_id(player) != user.pk:
        return False
    return not Tournament.objects.filter(entries__player=player).exclude(directors=user).exists()


def plays_under_another(player: Player, user: Any) -> bool:
    """Tells whether the player is entered in a tournament the user does not direct (the clubs app asks)."""
    return Tournament.objects.filter(entries__player=player).exclude(directors=user).exists()


def _check_user_free(user: Any, player: Player | None) -> None:
    """Refuses a user account already linked to another player (one account, one player)."""
    if user is None:
        return
    other = Player.objects.filter(user=user).exclude(pk=player.pk if player else None).first()
    if other is not None:
        raise InvalidInput.field("user", f"{user.username} is already linked to {other.name}.")


def _player_texts_checked(values: dict[str, Any]) -> None:
    """Refuses a player's name, club or federation holding a control character (``core.text``): every
    path that registers or changes a player (the API, the pages, the admin) comes through here."""
    for field in ("name", "club", "federation", "federation_id"):
        message = control_characters_message(values.get(field) or "")
        if message:
            raise InvalidInput.field(field, message)


PLAYER_FIELDS = ("name", "club", "federation", "federation_id", "rating", "user")


@transaction.atomic
def player_update(*, acting_user: Any, player: Player, **changes: Any) -> Player:
    """Changes a player's details and logs each change; an administrator may also link or unlink his account
    (``user``; None unlinks).

    Only a keeper of the player (``may_edit_player``) may; the registry's log (``PlayerLog``)
    keeps every field before and after, and each link and unlink as its own row.
    """
    player = Player.objects.select_for_update(of=("self",)).select_related("user").get(pk=player.pk)
    if not may_edit_player(player, acting_user):
        raise NotDirector("Only the director who registered this player, while he plays in no other director's "
                          "tournament, or an administrator may change him.")
    if "user" in changes and changes["user"] != player.user and not acting_user.is_superuser:
        raise NotDirector("Only an administrator links or unlinks a player's account: the player claims his record "
                          "from his own account, and his keeper approves the claim.",
                          details={"fields": {"user": ["Only an administrator links an account."]}})
    unknown = sorted(set(changes) - set(PLAYER_FIELDS))
    if unknown:
        raise InvalidInput("Some fields cannot be changed: " + ", ".join(unknown) + ".",
                           details={"fields": {name: ["Not a player's field."] for name in unknown}})
    for name in ("name", "club", "federation", "federation_id"):
        if name in changes:
            changes[name] = (changes[name] or "").strip()
    if "name" in changes and not changes["name"]:
        raise InvalidInput.field("name", "A player needs a name.")
    _player_texts_checked(changes)
    if "club" in changes:
        changes["club"] = club_name_canonical(changes["club"])
    federation = changes.get("federation", player.federation)
    federation_id = changes.get("federation_id", player.federation_id)
    if federation_id and Player.objects.filter(federation=federation, federation_id=federation_id).exclude(
            pk=player.pk).exists():
        raise InvalidInput.field("federation_id", f"{federation} {federation_id} is already registered.")
    if "user" in changes:
        _check_user_free(changes["user"], player)
    changed = [name for name in changes if getattr(player, name) != changes[name]]
    before = {name: _player_value(player, name) for name in changed}
    before_user = player.user
    for name in changed:
        setattr(player, name, changes[name])
    if changed:
        accounts = (before_user, player.user) if "user" in changed else (None, None)
        player.save(update_fields=changed)
        fields = [name for name in changed if name != "user"]
        if fields:
            PlayerLog.objects.create(player=player, kind=PlayerLog.Kind.CHANGED, actor=acting_user,
                                     as_administrator=bool(acting_user.is_superuser),
                                     changes={name: {"before": before[name], "after": _player_value(player, name)}
                                              for name in fields})
        if "user" in changed:
            player_account_logged(player=player, actor=acting_user, before=accounts[0], after=accounts[1])
        if "club" in changed:
            club_member_sync(acting_user=acting_user, player=player)
    return player


def player_account_logged(*, player: Player, actor: Any, before: Any, after: Any, reason: str = "") -> None:
    """Writes the registry's rows of a change of the player's account: an unlink of the one before, a link of the
    one after (each naming its account, by id and username)."""
    administrator = bool(actor is not None and actor.is_superuser)
    if before is not None:
        PlayerLog.objects.create(player=player, kind=PlayerLog.Kind.UNLINKED, actor=actor, account=before,
                                 as_administrator=administrator, reason=reason,
                                 changes={"user": {"before": before.username, "after": None}})
    if after is not None:
        PlayerLog.objects.create(player=player, kind=PlayerLog.Kind.LINKED, actor=actor, account=after,
                                 as_administrator=administrator, reason=reason,
                                 changes={"user": {"before": None, "after": after.username}})
