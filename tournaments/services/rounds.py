"""Rounds: pairing the next round as a preview, editing it, publishing it with its games, and
adding a 2-game block to a tied knockout match.

Lots for colour are cast when a round is published, which is when its matches start (Law 6);
the seed and the outcome are kept on the match. A round of one game in a Swiss or a round robin
takes its colours from the format's rules when it is paired (docs/openings.md). With a ballot,
the openings are drawn from the tournament's deck (``tournaments.ballots.draw_openings``) among
those not yet used in the tournament, each played twice with colours reversed; each keeps its
deck, its seed and its place in the draws.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from arbitration.services import game_create
from games.models import Game
from players.models import Player
from tournaments.models import (
    Entry,
    Match,
    MatchGame,
    PairingProhibition,
    Presence,
    Round,
    RoundBye,
    Tournament,
    TournamentLog,
)
from tournaments.services import pure
from tournaments.services.access import authorise_director, log_write, tournament_lock
from tournaments.services.errors import (
    InvalidInput,
    PairingUnavailable,
    RoundConflict,
    RoundNotFound,
    StatusTransitionRefused,
    WrongTournamentStatus,
)
from tournaments.services.outcomes import (
    match_outcomes,
    published_byes,
    scoring_of,
    standings_rows,
    starting_list,
)
from tournaments.services.presence import ABSENT_FORFEIT, ABSENT_LEAVE_OUT, ABSENT_POLICIES, absentees

Format = Tournament.Format
RoundStatus = Round.Status

#: The only steps a round's status may take, each with the kind of the log row it writes.
#: A round is created as a preview (``_round_pair``; the demo seed creates one in progress)
#: and published; it finishes as part of another change that writes its own row, so the
#: finishing step writes none (None): pairing the next round (``round_paired``) or finishing
#: the tournament (``status_changed``). A preview is discarded by deleting it.
ROUND_TRANSITIONS: dict[str, dict[str, str | None]] = {
    RoundStatus.PREVIEW: {RoundStatus.PUBLISHED: TournamentLog.Kind.ROUND_PUBLISHED},
    RoundStatus.PUBLISHED: {RoundStatus.FINISHED: None},
    RoundStatus.IN_PROGRESS: {RoundStatus.FINISHED: None},
    RoundStatus.FINISHED: {},
}


def round_status_set(round_: Round, status: str, *, acting_user: Any, reason: str = "",
                     data: dict[str, Any] | None = None) -> Round:
    """Moves a round one allowed step (``ROUND_TRANSITIONS``) and writes that step's log row, if it has one.

    The only place a round's status changes. Runs inside the caller's transaction, the
    tournament row locked; the caller has checked what the step needs. The log row names the
    round and adds ``data``. Publishing also stamps ``published_at``. Any other step is refused
    (409 ``status_transition_refused``).
    """
    current = round_.status
    allowed = ROUND_TRANSITIONS.get(current, {})
    if status not in allowed:
        raise StatusTransitionRefused(
            f"Round {round_.number} is {current}; it cannot become {status}.",
            details={"round": round_.number, "status": current, "requested": status, "allowed": list(allowed)},
        )
    round_.status = status
    fields = ["status"]
    if status == RoundStatus.PUBLISHED:
        round_.published_at = timezone.now()
        fields.append("published_at")
    round_.save(update_fields=fields)
    kind = allowed[status]
    if kind is not None:
        log_write(tournament=round_.tournament, kind=kind, actor=acting_user, reason=reason,
                  data={"round": round_.number, **(data or {})})
    return round_


def _active_entries(tournament: Tournament, number: int) -> list[Entry]:
    """Returns the active entries round ``number`` pairs: entered by then, not left out being absent (a Swiss),
    without a bye for the round known before it (``RoundBye``: asked for, an absence announced)."""
    entries = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE, first_round__lte=number)
    left_out = Presence.objects.filter(tournament=tournament, round_number=number, left_out=True).values("player_id")
    byes = RoundBye.objects.filter(tournament=tournament, round_number=number).values("player_id")
    return list(entries.exclude(player_id__in=left_out).exclude(player_id__in=byes).select_related("player")
                .order_by("seed", "id"))


def _prohibited(tournament: Tournament, number: int) -> list[tuple[int, int, frozenset[int]]]:
    """Returns the players kept apart in round ``number``: (first round, last round, player ids)."""
    out = []
    for prohibition in PairingProhibition.objects.filter(tournament=tournament).prefetch_related("players"):
        last = prohibition.until_round or 10_000
        if number <= last:
            out.append((1, last, frozenset(p.pk for p in prohibition.players.all())))
    return out


def _dutch_pairings(tournament: Tournament, number: int, entries: list[Entry]) -> tuple[list[pure.Pairing], list[str]]:
    """Pairs Swiss round ``number`` by the FIDE Dutch system from every earlier round's record.

    Every player entered is a line (pairing numbers are the starting ranks); those not in
    ``entries`` sit the round out. A round a player was not paired in is a zero-point bye unless a
    ``RoundBye`` gave it points; a match of two games gives no colour (both players had both).
    """
    everyone = list(Entry.objects.filter(tournament=tournament).select_related("player").order_by("seed", "id"))
    pairing = {e.player_id for e in entries}
    record: dict[int, dict[int, tuple[int | None, str | None, str]]] = {e.player_id: {} for e in everyone}
    for o in match_outcomes(tournament).values():
        if o.round >= number:
            continue
        if o.two is None:
            record.setdefault(o.one, {})[o.round] = (None, None, "U")
            continue
        for me, other in ((o.one, o.two), (o.two, o.one)):
            colour = None
            if o.games_planned % 2 and o.first_black is not None and o.kind == Match.Kind.PLAYED:
                colour = "w" if o.first_black == me else "b"
            if o.kind == Match.Kind.FORFEIT:
                result = "+" if o.winner == me else "-"
            else:
                result = "=" if o.winner is None else "1" if o.winner == me else "0"
            record.setdefault(me, {})[o.round] = (other, colour, result)
    for n, player, kind in published_byes(tournament):
        if n < number:
            record.setdefault(player, {})[n] = (None, None, {"half": "H", "full": "F"}.get(kind, "Z"))
    players = [
        pure.DutchEntrant(id=e.player_id, name=e.player.name,
                          rounds=tuple(record[e.player_id].get(k, (None, None, "Z")) for k in range(1, number)),
                          sits_out="" if e.player_id in pairing else "Z")
        for e in everyone
    ]
    two_games = tournament.games_per_match % 2 == 0
    initial, lots_note = "B", ""
    if not two_games:  # one game a round: the top seed's colour in round 1 by lot, then read back from round 1
        initial, lots_note = _top_seed_colour(tournament, number, [e.player_id for e in everyone])
    try:
        pairings, note = pure.dutch_pairings(
            players, scoring=scoring_of(tournament), rounds_total=tournament.round_count or number,
            two_games=two_games, prohibited=_prohibited(tournament, number),
            accelerated=tournament.acceleration == Tournament.Acceleration.BAKU, starting=starting_list(everyone),
            initial_colour=initial)
    except pure.PairingError as error:
        raise PairingUnavailable(f"No pairing meets the Dutch system's absolute criteria: {error}.") from error
    if not two_games:
        note += (f" One game a round: the top seed's colour in round 1 is {'Black' if initial == 'B' else 'White'}"
                 f"{lots_note}; the first-named of each pairing has Black.")
    return pairings, [note]


def _top_seed_colour(tournament: Tournament, number: int, order: list[int]) -> tuple[str, str]:
    """The colour (``"B"`` or ``"W"``) of the top pairing number in round 1 of a Swiss of single games, and a note.

    Round 1 casts lots for it (the note gives the seed, which the log records); later rounds read
    it back from round 1 as it was played (no note).
    """
    if number > 1:
        first: dict[int, str] = {}
        paired: set[int | None] = set()  # a game, a forfeit or the bye: each counts in the order of round 1
        for kind, one, two, black in Match.objects.filter(round__tournament=tournament, round__number=1).values_list(
                "kind", "player_one_id", "player_two_id", "first_black_id"):
            paired |= {one, two}
            if kind == Match.Kind.PLAYED and black is not None:
                first[one] = "B" if black == one else "W"
                first[two] = "B" if black == two else "W"
        initial = pure.initial_colour_read([first.get(p) for p in order], [p in paired for p in order])
        if initial is not None:
            return initial, ""
    seed = pure.seed_new()
    return pure.initial_colour_cast(seed), f" (lots, seed {seed})"


def rounds_total(tournament: Tournament) -> int | None:
    """Returns how many rounds the tournament has (None for a knockout: until one is left)."""
    if tournament.format == Format.SWISS:
        return tournament.round_count
    if tournament.format in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN):
        count = Entry.objects.filter(tournament=tournament, seed__isnull=False).count()
        return pure.round_robin_round_count(count, double=tournament.format == Format.DOUBLE_ROUND_ROBIN)
    return None


def round_is_complete(round_: Round) -> bool:
    """Tells whether every game of the round is finished and every match decided."""
    outcomes = match_outcomes(round_.tournament, rounds=[round_])
    return all(o.complete for o in outcomes.values())


def round_open_games(round_: Round) -> list[dict[str, Any]]:
    """Returns the games of a round not finished yet, by board: game id, board, Black's and White's names."""
    rows = (MatchGame.objects.filter(match__round=round_).exclude(game__status=Game.Status.FINISHED)
            .order_by("match__board", "number")
            .values_list("game_id", "match__board", "game__black__name", "game__white__name"))
    return [{"game": game, "board": board, "black": black, "white": white} for game, board, black, white in rows]


def _pairings_for(tournament: Tournament, number: int) -> tuple[list[pure.Pairing], list[str]]:
    if tournament.format in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN):
        entries = list(Entry.objects.filter(tournament=tournament, seed__isnull=False).order_by("seed"))
        table = pure.berger_rounds([e.player_id for e in entries], double=tournament.format == Format.DOUBLE_ROUND_ROBIN)
        notes = [f"Round {number} of the Berger table for {len(entries)} players."]
        if tournament.games_per_match == 1:
            notes.append("One game a round: the first-named of each pairing has Black, as the Berger table gives "
                         "the colours.")
        return table[number - 1], notes
    if tournament.format == Format.SWISS:
        entries = _active_entries(tournament, number)
        if tournament.pairing_system == Tournament.PairingSystem.DUTCH:
            return _dutch_pairings(tournament, number, entries)
        rows = {row.player: row for row in standings_rows(tournament)}
        opponents: dict[int, set[int]] = {e.player_id: set() for e in entries}
        colours: dict[int, list[str]] = {}
        had_bye: set[int] = set()
        for outcome in sorted(match_outcomes(tournament).values(), key=lambda o: (o.round, o.board)):
            if outcome.two is None:
                had_bye.add(outcome.one)
                continue
            opponents.setdefault(outcome.one, set()).add(outcome.two)
            opponents.setdefault(outcome.two, set()).add(outcome.one)
            if outcome.first_black is not None:
                for p in (outcome.one, outcome.two):
                    colours.setdefault(p, []).append("B" if outcome.first_black == p else "W")
        for _first, _last, ids in _prohibited(tournament, number):  # kept apart: as if they had met
            for p in ids:
                opponents.setdefault(p, set()).update(ids - {p})
        players = [
            pure.SwissPlayer(id=e.player_id, score=rows[e.player_id].points if e.player_id in rows else 0.0,
                             rating=e.player.rating or 0, colours=tuple(colours.get(e.player_id, ())),
                             opponents=frozenset(opponents.get(e.player_id, set())), had_bye=e.player_id in had_bye)
            for e in entries
        ]
        try:
            pairings = pure.swiss_pairings(players)
        except pure.PairingError as error:
            raise PairingUnavailable(f"No Swiss pairing exists: {error}.") from error
        notes = [f"Swiss round {number}: {len(players)} players paired by score."]
        if tournament.games_per_match == 1:
            pairings, note = _single_game_colours(tournament, number, pairings, players, colours)
            notes.append(note)
        return pairings, notes
    # knockout: round 1 seeded by rating; then the winners of the previous round in bracket order
    if number == 1:
        entries = _active_entries(tournament, 1)
        try:
            return (pure.knockout_first([(e.player_id, e.player.rating or 0) for e in entries]),
                    ["Seeded by rating; the bracket keeps seeds 1 and 2 apart until the final."])
        except pure.PairingError as error:
            raise PairingUnavailable(str(error)) from error
    previous = Round.objects.get(tournament=tournament, number=number - 1)
    outcomes = match_outcomes(tournament, rounds=[previous])
    winners = [o.winner for o in sorted(outcomes.values(), key=lambda o: o.board)]
    if len(winners) < 2:
        raise PairingUnavailable("The knockout is decided: no round is left to pair.")
    undecided = sorted((o.board, o.kind) for o in outcomes.values() if o.winner is None)
    if undecided:
        board, kind = undecided[0]
        if kind == Match.Kind.FORFEIT:
            raise PairingUnavailable(
                f"Board {board} of round {number - 1} was forfeited by both players: in a knockout one of them must "
                "go through, and the director decides who (the forfeit's winner).", details={"board": board})
        raise PairingUnavailable(f"Board {board} of round {number - 1} has no winner yet.", details={"board": board})
    try:
        return pure.knockout_next(winners), ["The winners of the previous round, in bracket order."]  # type: ignore[arg-type]
    except pure.PairingError as error:
        raise PairingUnavailable(str(error)) from error


def _single_game_colours(tournament: Tournament, number: int, pairings: list[pure.Pairing],
                         players: list[pure.SwissPlayer],
                         colours: dict[int, list[str]]) -> tuple[list[pure.Pairing], str]:
    """Orders each pairing of a Swiss round of one game as (Black, White) by the Dutch colour rules.

    The colour of the top pairing number in round 1 is drawn by lot (its seed in the note);
    later rounds read it back from round 1 as played. ``colours`` holds each player's colours
    game by game (in rounds of one game, the first game's colour is the game's).
    """
    order = list(Entry.objects.filter(tournament=tournament).order_by("seed", "id").values_list("player_id", flat=True))
    ranks = {p: k for k, p in enumerate(order)}
    initial, note_seed = _top_seed_colour(tournament, number, order)
    history = {p.id: list(colours.get(p.id, ())) for p in players}
    scores = {p.id: p.score for p in players}
    ordered = pure.single_game_colours(pairings, ranks=ranks, scores=scores, history=history, initial=initial)
    colour = "Black" if initial == "B" else "White"
    return ordered, (f"One game a round: colours by the Dutch system's rules (E1-E5): the colour history, then the "
                     f"ranking; the top seed's colour in round 1 is {colour}{note_seed}. The first-named has Black.")


def round_pair(*, acting_user: Any, tournament: Tournament, absent: str = ABSENT_FORFEIT) -> Round:
    """Pairs the next round as a preview (nothing is played until it is published).

    Players marked absent for the round (check-in, ``presence_set``) have their matches made
    forfeits to their opponents (``absent="forfeit"``, the default), or, in a Swiss, are left
    out of the pairing (``absent="leave_out"``); the round's explanation names them.

    In a knockout, a tied match of the last round that still lacks its next 2-game block gets
    it here (normally it is added when the match's last game finishes): the block is committed
    and then the pairing is refused (409 ``round_conflict``) until the block is played.
    """
    if absent not in ABSENT_POLICIES:
        raise InvalidInput.field("absent", f"One of {', '.join(ABSENT_POLICIES)}.")
    round_, extended = _round_pair(acting_user=acting_user, tournament=tournament, absent=absent)
    if round_ is None:
        number, boards = extended
        raise RoundConflict(
            f"Round {number} has tied matches (boards {', '.join(map(str, boards))}): a 2-game block was added "
            "to each; pair the next round once they are decided.",
            details={"round": number, "matches": boards},
        )
    return round_


@transaction.atomic
def _round_pair(*, acting_user: Any, tournament: Tournament,
                absent: str = ABSENT_FORFEIT) -> tuple[Round | None, tuple[int, list[int]]]:
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    if tournament.status != Tournament.Status.RUNNING:
        raise WrongTournamentStatus(f"The tournament is {tournament.status}: rounds are paired once it is running.",
                                    details={"status": tournament.status})
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status == Round.Status.PREVIEW:
        raise RoundConflict(f"Round {last.number} is a preview: publish it or discard it first.",
                            details={"round": last.number})
    number = (last.number if last else 0) + 1
    if last is not None and tournament.format in (Format.SWISS, Format.KNOCKOUT):
        if tournament.format == Format.KNOCKOUT:
            extended = knockout_extend_tied(acting_user=acting_user, round_=last)
            if extended:
                return None, (last.number, extended)  # committed; round_pair reports it
        if not round_is_complete(last):
            open_games = round_open_games(last)
            named = "; ".join(f"board {g['board']}, game {g['game']} ({g['black']} v {g['white']})"
                              for g in open_games[:12])
            more = f" and {len(open_games) - 12} more" if len(open_games) > 12 else ""
            raise RoundConflict(f"Round {last.number} is not finished: "
                                + (f"still to play: {named}{more}." if open_games else
                                   "a match is not decided yet."),
                                details={"round": last.number, "games": open_games})
    if last is not None and last.status != Round.Status.FINISHED and round_is_complete(last):
        round_status_set(last, Round.Status.FINISHED, acting_user=acting_user)
    total = rounds_total(tournament)
    if total is not None and number > total:
        raise RoundConflict(f"All {total} rounds have been paired.", details={"rounds": total})
    away = absentees(tournament, number)
    leave_out = absent == ABSENT_LEAVE_OUT
    if leave_out and away and tournament.format != Format.SWISS:
        raise InvalidInput.field("absent", "Only a Swiss leaves absent players out of a round; in a round robin or a "
                                 "knockout their matches are forfeits.")
    marks = Presence.objects.filter(tournament=tournament, round_number=number)
    marks.update(left_out=False)
    if leave_out and away:
        marks.filter(player_id__in=away).update(left_out=True)
    pairings, notes = _pairings_for(tournament, number)
    forfeits = {frozenset((p.one, p.two)): _present_one(p, away) for p in pairings
                if p.two is not None and {p.one, p.two} & away}
    if away:
        names = _names(away)
        listed = ", ".join(sorted(names.values()))
        notes = [*notes, f"Absent (check-in): {listed}: " + ("left out of the pairing." if leave_out
                                                              else "their matches are forfeits.")]
    sitting = list(RoundBye.objects.filter(tournament=tournament, round_number=number)
                   .select_related("player").order_by("player__name"))
    if sitting:
        notes = [*notes, "Not paired, a bye known before the round: " + ", ".join(
            f"{b.player.name} ({b.get_kind_display().lower()})" for b in sitting) + "."]
    round_ = Round.objects.create(tournament=tournament, number=number, status=Round.Status.PREVIEW,
                                  explanation=notes, created_at=timezone.now())
    _matches_create(tournament, round_, pairings, forfeits=forfeits)
    colour_lots = pure.colour_lots_seed(notes)
    log_write(tournament=tournament, kind=TournamentLog.Kind.ROUND_PAIRED, actor=acting_user,
              data={"round": number, "pairings": [[p.one, p.two] for p in pairings],
                    **({"system": tournament.pairing_system} if tournament.format == Format.SWISS else {}),
                    **({"absent": sorted(away), "absent_policy": absent} if away else {}),
                    **({"colour_lots_seed": str(colour_lots)} if colour_lots is not None else {})})
    return round_, (0, [])


def _present_one(pairing: pure.Pairing, away: set[int]) -> int | None:
    """Returns who is awarded a match with an absent player: the one present (None when both are absent)."""
    present = [p for p in (pairing.one, pairing.two) if p not in away]
    return present[0] if len(present) == 1 else None


def _matches_create(tournament: Tournament, round_: Round, pairings: list[pure.Pairing],
                    edited: set[tuple[int, int | None]] | None = None,
                    forfeits: dict[frozenset[int], int | None] | None = None) -> None:
    """Creates the round's matches; a withdrawn player's is a forfeit, and so is one in ``forfeits``
    (by its two players: who was awarded it)."""
    withdrawn = set(Entry.objects.filter(tournament=tournament, status=Entry.Status.WITHDRAWN)
                    .values_list("player_id", flat=True))
    forfeits = forfeits or {}
    ordered = pairings if tournament.format == Format.KNOCKOUT else sorted(pairings, key=lambda p: p.two is None)
    matches = []
    for board, pairing in enumerate(ordered, start=1):
        kind, winner = Match.Kind.PLAYED, None
        if pairing.two is None:
            kind = Match.Kind.BYE
        elif pairing.one in withdrawn or pairing.two in withdrawn:
            kind = Match.Kind.FORFEIT
            if pairing.one not in withdrawn:
                winner = pairing.one
            elif pairing.two not in withdrawn:
                winner = pairing.two
        elif frozenset((pairing.one, pairing.two)) in forfeits:
            kind, winner = Match.Kind.FORFEIT, forfeits[frozenset((pairing.one, pairing.two))]
        matches.append(Match(
            round=round_, board=board, kind=kind, player_one_id=pairing.one, player_two_id=pairing.two,
            forfeit_winner_id=winner, games_planned=tournament.games_per_match, explanation=pairing.explanation,
            edited=bool(edited and (pairing.one, pairing.two) in edited),
        ))
    Match.objects.bulk_create(matches)


def _round_get(tournament: Tournament, number: int, *, lock: bool = False) -> Round:
    qs = tournament.rounds.select_for_update() if lock else tournament.rounds
    round_ = qs.filter(number=number).first()
    if round_ is None:
        raise RoundNotFound(f"Round {number} of {tournament.slug} does not exist.")
    return round_


def _round_field(tournament: Tournament, number: int) -> tuple[set[int], set[int]]:
    """Returns who round ``number`` must pair (active players) and which withdrawn players it may show.

    A (double) round robin pairs every seeded player (a withdrawn one's matches are forfeits); a
    Swiss the active players entered by that round; a knockout, in round 1 the active players,
    then the winners of the previous round (one who has since withdrawn forfeits).
    """
    statuses = dict(Entry.objects.filter(tournament=tournament).values_list("player_id", "status"))
    if tournament.format in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN):
        field = set(Entry.objects.filter(tournament=tournament, seed__isnull=False).values_list("player_id", flat=True))
    elif tournament.format == Format.KNOCKOUT and number > 1:
        previous = Round.objects.filter(tournament=tournament, number=number - 1).first()
        outcomes = match_outcomes(tournament, rounds=[previous]) if previous else {}
        field = {o.winner for o in outcomes.values() if o.winner is not None}
    else:
        field = {e.player_id for e in _active_entries(tournament, number)}
    active = {p for p in field if statuses.get(p) == Entry.Status.ACTIVE}
    return active, (field - active if tournament.format != Format.SWISS else set())


def _names(ids: set[int] | list[int]) -> dict[int, str]:
    return dict(Player.objects.filter(pk__in=list(ids)).values_list("id", "name"))


def _pairings_check(tournament: Tournament, number: int, pairings: list[tuple[int, int | None]]) -> list[str]:
    """Returns what is wrong with the director's pairings of round ``number`` (empty: nothing).

    Refused: a player not entered, paired twice or not in this round; a withdrawn player where
    the format does not pair him (a Swiss); an active player of the round left out (pair him
    or give him a bye); in a Swiss a rematch, a second bye, or players kept apart (``PairingProhibition``).
    """
    entered = dict(Entry.objects.filter(tournament=tournament).values_list("player_id", "status"))
    active, withdrawn_ok = _round_field(tournament, number)
    listed = [p for pair in pairings for p in pair if p is not None]
    names = _names(set(listed) | active)

    def name(p: int) -> str:
        return names.get(p, f"player {p}")

    problems: list[str] = []
    seen: set[int] = set()
    for p in listed:
        if p not in entered:
            problems.append(f"Player {p} is not entered in this tournament.")
        elif p in seen:
            problems.append(f"{name(p)} is paired twice.")
        elif entered[p] == Entry.Status.WITHDRAWN and p not in withdrawn_ok:
            problems.append(f"{name(p)} has withdrawn: he is not paired any more.")
        elif p not in active and p not in withdrawn_ok:
            problems.append(f"{name(p)} does not play in round {number}.")
        seen.add(p)
    for p in sorted(active - seen, key=name):
        problems.append(f"{name(p)} is left out: pair him or give him a bye.")
    if tournament.format == Format.SWISS:
        met: set[frozenset[int]] = set()
        had_bye: set[int] = set()
        for one, two in (Match.objects.filter(round__tournament=tournament, round__number__lt=number)
                         .exclude(round__status=Round.Status.PREVIEW).values_list("player_one_id", "player_two_id")):
            if two is None:
                had_bye.add(one)
            else:
                met.add(frozenset((one, two)))
        for one, two in pairings:
            if two is None and one in had_bye:
                problems.append(f"{name(one)} has had a bye already (a Swiss gives a player one bye at most).")
            elif two is not None and frozenset((one, two)) in met:
                problems.append(f"{name(one)} and {name(two)} have met already (no rematch in a Swiss).")
            elif two is not None and any({one, two} <= ids for _first, _last, ids in _prohibited(tournament, number)):
                problems.append(f"{name(one)} and {name(two)} are kept apart in round {number} (a club or a family).")
    return problems


@transaction.atomic
def round_pairings_edit(*, acting_user: Any, tournament: Tournament, number: int,
                        pairings: list[tuple[int, int | None]], reason: str) -> Round:
    """Replaces the pairings of a preview with the director's, logging the reason and the change.

    The pairings are checked (``_pairings_check``; 400 ``validation_error`` listing each
    problem). A match kept from the preview (the same two players) keeps its forfeit, set
    earlier; a withdrawn player's match becomes a forfeit to his opponent as when pairing.
    """
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    round_ = _round_get(tournament, number, lock=True)
    if round_.status != Round.Status.PREVIEW:
        raise RoundConflict(f"Round {number} is published: its pairings can no longer be edited.")
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput.field("reason", "Say why the pairing is edited (it goes on the log).")
    cleaned: list[tuple[int, int | None]] = []
    for pair in pairings:
        one, two = (list(pair) + [None])[:2]
        if one is None:
            one, two = two, None
        if one is None:
            continue
        cleaned.append((int(one), int(two) if two is not None else None))
    problems = _pairings_check(tournament, number, cleaned)
    if problems:
        raise InvalidInput("The pairings are refused: " + " ".join(problems),
                           details={"fields": {"pairings": problems}})
    old = list(round_.matches.order_by("board").values_list("player_one_id", "player_two_id", "explanation", "kind",
                                                            "forfeit_winner_id"))
    before = [(a, b) for a, b, _e, _k, _w in old]
    old_explanations = {frozenset((a, b)): e for a, b, e, _k, _w in old}
    forfeits = {frozenset((a, b)): w for a, b, _e, k, w in old if k == Match.Kind.FORFEIT}
    round_.matches.all().delete()
    new = [pure.Pairing(a, b, old_explanations.get(frozenset((a, b)), "Edited by the director: " + reason))
           for a, b in cleaned]
    kept = {frozenset(p) for p in before}
    changed = {p for p in cleaned if frozenset(p) not in kept}
    _matches_create(tournament, round_, new, edited=changed, forfeits=forfeits)
    log_write(tournament=tournament, kind=TournamentLog.Kind.PAIRING_EDITED, actor=acting_user, reason=reason,
              data={"round": number, "before": [list(p) for p in before], "after": [list(p) for p in cleaned]})
    return round_


@transaction.atomic
def round_discard(*, acting_user: Any, tournament: Tournament, number: int, reason: str = "") -> None:
    """Discards a preview (so that it can be paired again, e.g. after a late entry)."""
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    round_ = _round_get(tournament, number, lock=True)
    if round_.status != Round.Status.PREVIEW:
        raise RoundConflict(f"Round {number} is published: it cannot be discarded.")
    round_.delete()
    log_write(tournament=tournament, kind=TournamentLog.Kind.PAIRING_EDITED, actor=acting_user, reason=reason,
              data={"round": number, "discarded": True})


def _preview_stale(tournament: Tournament, round_: Round) -> list[str]:
    """Returns what changed since the preview was paired: players entered since and left out, and
    players withdrawn since who would still play (empty: the preview is up to date)."""
    active, _withdrawn_ok = _round_field(tournament, round_.number)
    matches = list(round_.matches.values_list("player_one_id", "player_two_id", "kind"))
    paired = {p for one, two, _kind in matches for p in (one, two) if p is not None}
    withdrawn = set(Entry.objects.filter(tournament=tournament, status=Entry.Status.WITHDRAWN)
                    .values_list("player_id", flat=True))
    playing = {p for one, two, kind in matches if kind != Match.Kind.FORFEIT for p in (one, two) if p is not None}
    left_out, gone = active - paired, playing & withdrawn
    names = _names(left_out | gone)
    return ([f"{names[p]} entered after it was paired and is not in it." for p in sorted(left_out, key=names.get)]
            + [f"{names[p]} has withdrawn since it was paired." for p in sorted(gone, key=names.get)])


def _ballots_used(tournament: Tournament) -> list[int]:
    """Returns the numbers of the openings the tournament has drawn from its kind of deck, in the order drawn."""
    deck = tournament_deck(tournament)
    kind = deck.kind if deck is not None else "three-move"
    drawn = []
    for ballots in Match.objects.filter(round__tournament=tournament).exclude(ballots=[]).values_list("ballots", flat=True):
        drawn += [(b["index"], b["number"]) for b in ballots if b.get("kind", "three-move") == kind]
    return [number for _index, number in sorted(drawn)]


def tournament_deck(tournament: Tournament) -> pure.Deck | None:
    """Returns the deck the tournament's openings are drawn from (None: go as you please)."""
    return pure.deck_for(tournament.opening, tournament.deck, list(tournament.deck_barred or []),
                         list(tournament.deck_added or []))


def linked_users(*player_ids: int | None) -> set[int]:
    """Returns the user accounts linked to the players (a referee linked to one never referees the game)."""
    return set(Player.objects.filter(pk__in=[p for p in player_ids if p], user__isnull=False)
               .values_list("user_id", flat=True))


def match_games_create(*, acting_user: Any, tournament: Tournament, match: Match, first: int, count: int,
                       referee_of: Any, used: list[int]) -> None:
    """Creates games ``first``..``first+count-1`` of a match (``used``: the ballots drawn so far, extended).

    Each game gets the tournament's rule set, progress rule and clock control (as it is now).
    Colours alternate from game 1 (``first_black`` has Black: the lots, or a one-game round's
    colour rule). With a deck (``tournament_deck``), games 2k+1 and 2k+2 share opening k, so
    each opening is played twice with colours reversed, from the position it makes; a single
    game (a round of one game) has an opening of its own. A 3-move or 2-move game is written
    from the initial position with its opening moves; an 11-man game starts from the ballot's
    position (two men removed, then the moves, on the match's record). Each opening records
    its deck, its seed and its place in the tournament's draws of that kind (``index``),
    which reproduce it (``tournaments.ballots.draw_openings``).
    """
    dealt: list[dict[str, Any]] = []
    deck = tournament_deck(tournament)
    if deck is not None:
        seed = pure.seed_new()
        dealt = [{**b, "seed": str(seed), "index": len(used) + i}
                 for i, b in enumerate(pure.openings_draw(deck, used, seed, max(count // 2, 1)))]
        used.extend(b["number"] for b in dealt)
        match.ballots = [*match.ballots, *dealt]
        match.ballot_seed = match.ballot_seed or str(seed)
    other = match.player_two_id if match.first_black_id == match.player_one_id else match.player_one_id
    for number in range(first, first + count):
        black, white = (match.first_black_id, other) if number % 2 == 1 else (other, match.first_black_id)
        ballot = dealt[(number - first) // 2] if dealt else None
        from_initial = ballot is not None and not ballot.get("removed")
        game = game_create(
            acting_user=acting_user, black=black, white=white, rule_set=tournament.rule_set,
            referees=referee_of(linked_users(black, white)), start_fen=ballot["fen"] if ballot else "",
            opening=ballot["moves"] if from_initial else "",
            progress_rule=tournament.progress_rule, repetition_threshold=tournament.repetition_threshold,
            round=match.round, clock=tournament.clock_control or None,
        )
        MatchGame.objects.create(match=match, game=game, number=number,
                                 ballot_number=ballot["number"] if ballot else None)


def knockout_extend_tied(*, acting_user: Any, round_: Round, trigger: str = "") -> list[int]:
    """Adds a 2-game block to each tied knockout match of the round that needs one; returns their boards.

    Runs inside the caller's transaction (the tournament row locked). The games are created by
    ``acting_user`` (a director). With a ``trigger`` (the automatic extension) the log row has
    no actor and says what caused it.
    """
    tournament = round_.tournament
    if tournament.format != Tournament.Format.KNOCKOUT or round_.status == Round.Status.PREVIEW:
        return []
    outcomes = match_outcomes(tournament, rounds=[round_])
    due = [o for o in outcomes.values() if o.kind == Match.Kind.PLAYED and o.tied and not o.complete
           and o.games_total and o.games_finished == o.games_total]
    if not due:
        return []
    referees = list(tournament.referees.order_by("username").values_list("username", "pk"))
    used = _ballots_used(tournament)
    boards = []
    for outcome in sorted(due, key=lambda o: o.board):
        match = Match.objects.select_for_update().get(pk=outcome.id)
        if MatchGame.objects.filter(match=match).count() != outcome.games_total:
            continue
        first = outcome.games_total + 1
        match_games_create(
            acting_user=acting_user, tournament=tournament, match=match, first=first, count=2,
            referee_of=(lambda linked: [name for name, pk in referees if pk not in linked][:1]), used=used,
        )
        match.save(update_fields=["ballots", "ballot_seed"])
        data = {"round": round_.number, "board": match.board, "games": [first, first + 1],
                "score": [outcome.game_points_one, outcome.game_points_two]}
        if trigger:
            data["trigger"] = trigger
        log_write(tournament=tournament, kind=TournamentLog.Kind.MATCH_EXTENDED,
                  actor=None if trigger else acting_user, data=data)
        boards.append(match.board)
    return boards


@transaction.atomic
def round_publish(*, acting_user: Any, tournament: Tournament, number: int) -> Round:
    """Publishes a preview: casts the lots, deals the ballots and creates the games.

    A round of one game in a Swiss or a round robin casts no lots: the pairing's first-named
    player has Black (the colour rules gave him it when the round was paired, or the director
    named him first when editing). A knockout's single game takes lots, like a match.

    Referees are assigned to the games in turn from the tournament's referees. A preview that
    is out of date (a late entry left out, a player withdrawn since; ``_preview_stale``) is
    refused (409 ``round_conflict``): the director pairs it again or edits it.
    """
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    round_ = _round_get(tournament, number, lock=True)
    if round_.status != Round.Status.PREVIEW:
        raise RoundConflict(f"Round {number} is already published.", details={"round": number})
    if tournament.format == Format.KNOCKOUT:
        both_absent = list(round_.matches.filter(kind=Match.Kind.FORFEIT, forfeit_winner__isnull=True)
                           .order_by("board").values_list("board", flat=True))
        if both_absent:
            raise RoundConflict(
                f"Board {both_absent[0]} is a forfeit with nobody awarded it (both players withdrawn or absent): in a "
                "knockout one of them must go through. Mark the forfeit with its winner, or edit the pairings.",
                details={"round": number, "boards": both_absent})
    stale = _preview_stale(tournament, round_)
    if stale:
        raise RoundConflict(
            f"The preview of round {number} is out of date: {' '.join(stale)} Pair the round again (discard the "
            "preview, then pair) or edit its pairings, then publish.", details={"round": number, "problems": stale})
    referees = list(tournament.referees.order_by("username").values_list("username", "pk"))
    turn = {"n": 0}

    def referee_of(linked: set[int]) -> list[str]:
        """The next referee in turn who is not linked to a player of the game (none judges himself)."""
        for _ in range(len(referees)):
            name, pk = referees[turn["n"] % len(referees)]
            turn["n"] += 1
            if pk not in linked:
                return [name]
        return []

    used = _ballots_used(tournament)
    for match in round_.matches.order_by("board"):
        if match.kind != Match.Kind.PLAYED:
            continue
        if match.games_planned == 1 and tournament.format != Format.KNOCKOUT:
            match.first_black_id = match.player_one_id  # the round's colour rule named him first (no lots)
        else:
            seed = pure.seed_new()
            match.lots_seed = str(seed)
            match.first_black_id = pure.lots_cast(seed, match.player_one_id, match.player_two_id)
        match_games_create(
            acting_user=acting_user, tournament=tournament, match=match, first=1, count=match.games_planned,
            referee_of=referee_of, used=used,
        )
        match.save(update_fields=["lots_seed", "first_black", "ballots", "ballot_seed"])
    return round_status_set(round_, Round.Status.PUBLISHED, acting_user=acting_user,
                            data={"games": Game.objects.filter(round=round_).count()})


@transaction.atomic
def match_forfeit_set(*, acting_user: Any, tournament: Tournament, number: int, board: int, winner: int | None,
                      reason: str) -> Match:
    """Marks a match of a preview as a forfeit (unplayed): ``winner`` is awarded it, or nobody (both absent).

    No games are created for it when the round is published; it scores as awarded but is not a
    played match (no wins, no Sonneborn-Berger, no head-to-head). Nobody awarded it is a lost
    match for both; a knockout refuses that (one player must go through: the director names him).
    """
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    round_ = _round_get(tournament, number, lock=True)
    if round_.status != Round.Status.PREVIEW:
        raise RoundConflict(f"Round {number} is published: a forfeit of a game is a ruling on the game.")
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput.field("reason", "Say why the match is forfeited (it goes on the log).")
    match = Match.objects.filter(round=round_, board=board).first()
    if match is None or match.kind == Match.Kind.BYE:
        raise InvalidInput.field("board", f"Round {number} has no match on board {board}.")
    if winner is not None and winner not in (match.player_one_id, match.player_two_id):
        raise InvalidInput.field("winner", "The winner is one of the match's two players, or null.")
    if winner is None and tournament.format == Format.KNOCKOUT:
        raise InvalidInput.field("winner", "In a knockout one player must go through: name the one awarded the "
                                           "match (the director decides, e.g. by lots, when both are absent).")
    match.kind = Match.Kind.FORFEIT
    match.forfeit_winner_id = winner
    match.save(update_fields=["kind", "forfeit_winner"])
    log_write(tournament=tournament, kind=TournamentLog.Kind.PAIRING_EDITED, actor=acting_user, reason=reason,
              data={"round": number, "board": board, "forfeit": True, "winner": winner})
    return match


@transaction.atomic
def round_schedule_set(*, acting_user: Any, tournament: Tournament, number: int,
                       scheduled_at: datetime | None) -> Round:
    """Sets (or clears, with None) when round ``number`` is to start; logged as a settings change.

    A preview may be scheduled before it is published, so that the notices of its pairings say
    when to come. Refused (409 ``wrong_status``) once the tournament is finished; setting the
    time it already has writes nothing.
    """
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    if tournament.status == Tournament.Status.FINISHED:
        raise WrongTournamentStatus("The tournament is finished: its rounds' times are history now.",
                                    details={"status": tournament.status})
    if scheduled_at is not None and timezone.is_naive(scheduled_at):
        raise InvalidInput.field("scheduled_at", "A date and time with its time zone (or UTC).")
    round_ = _round_get(tournament, number, lock=True)
    if round_.scheduled_at == scheduled_at:
        return round_
    before = round_.scheduled_at
    round_.scheduled_at = scheduled_at
    round_.save(update_fields=["scheduled_at"])
    log_write(tournament=tournament, kind=TournamentLog.Kind.SETTINGS_CHANGED, actor=acting_user,
              data={"round": number, "scheduled_at": {"before": before.isoformat() if before else None,
                                                      "after": scheduled_at.isoformat() if scheduled_at else None}})
    return round_
