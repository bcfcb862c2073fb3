"""Byes known before a round (a half-point bye asked for, an absence announced) and players kept apart.

A player of a Swiss asks for a half-point bye for a round not yet paired, up to the number the
tournament allows (``Tournament.half_point_byes``) and not in its last rounds if it closes them
(``byes_closed_rounds``); he may also say he will be absent (a zero-point bye). A director may
do either for him. The round's pairing leaves him out (``rounds._active_entries``) and the
standings give him the bye's points once the round is published. A director keeps players of
one club or family apart (``PairingProhibition``): never paired together up to a round, or
always. Every change is on the tournament's log.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from players.models import Player
from tournaments.models import Entry, PairingProhibition, RoundBye, Tournament, TournamentLog
from tournaments.services.access import authorise_director, is_director_of, log_write, tournament_lock
from tournaments.services.errors import (
    EntryConflict,
    InvalidInput,
    NotDirector,
    RoundConflict,
    WrongTournamentStatus,
)

#: The byes a player may ask for himself (a full-point bye is the director's, for a late entry).
REQUESTABLE = (RoundBye.Kind.HALF, RoundBye.Kind.ZERO)


def _entry_for(tournament: Tournament, acting_user: Any, player: int) -> tuple[Entry, bool]:
    """Returns the player's entry and whether the acting user is a director; refuses anyone else but the player."""
    entry = Entry.objects.filter(tournament=tournament, player_id=player).select_related("player").first()
    if entry is None:
        raise InvalidInput.field("player", "Not a player of this tournament.")
    director = is_director_of(tournament, acting_user)
    himself = (getattr(acting_user, "is_authenticated", False) and entry.player.user_id is not None
               and entry.player.user_id == acting_user.pk)
    if not (director or himself):
        raise NotDirector("Only a director of this tournament, or the player himself, may ask for his bye.")
    return entry, director


def _round_open(tournament: Tournament, number: int) -> None:
    """Refuses a round already paired (a preview included: discard it first)."""
    paired = tournament.rounds.filter(number__gte=number).order_by("number").first()
    if paired is not None:
        word = "is a preview: discard it first" if paired.status == paired.Status.PREVIEW else "is paired already"
        raise RoundConflict(f"Round {paired.number} {word}; a bye is asked for before its round is paired.",
                            details={"round": paired.number})


@transaction.atomic
def bye_request(*, acting_user: Any, tournament: Tournament, player: int, round_number: int,
                kind: str = RoundBye.Kind.HALF, reason: str = "") -> RoundBye:
    """Records a bye for a round not yet paired: a half-point bye asked for, or an absence (zero points).

    Refused: a tournament that is not a Swiss, registering or running; a round out of the
    tournament or already paired; a half-point bye beyond the tournament's number, or in its
    closed last rounds; a second bye for the same round.
    """
    tournament = tournament_lock(tournament)
    entry, director = _entry_for(tournament, acting_user, player)
    if tournament.format != Tournament.Format.SWISS:
        raise WrongTournamentStatus("Only a Swiss takes byes asked for before a round.")
    if tournament.status not in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING):
        raise WrongTournamentStatus(f"The tournament is {tournament.status}: byes are asked for before its rounds.",
                                    details={"status": tournament.status})
    if kind not in REQUESTABLE:
        raise InvalidInput.field("kind", f"One of {', '.join(REQUESTABLE)}.")
    if entry.status != Entry.Status.ACTIVE:
        raise InvalidInput.field("player", f"{entry.player.name} has withdrawn.")
    total = tournament.round_count or 0
    if not 1 <= round_number <= total:
        raise InvalidInput.field("round", f"A round of the tournament: 1 to {total}.")
    if round_number < entry.first_round:
        raise InvalidInput.field("round", f"{entry.player.name} plays from round {entry.first_round}.")
    _round_open(tournament, round_number)
    if kind == RoundBye.Kind.HALF:
        if not tournament.half_point_byes:
            raise InvalidInput.field("kind", "This tournament gives no half-point byes.")
        last_open = total - tournament.byes_closed_rounds
        if round_number > last_open:
            raise InvalidInput.field("round", f"No half-point bye in the last {tournament.byes_closed_rounds} "
                                     f"round(s): ask for one in rounds 1 to {last_open}.")
        taken = RoundBye.objects.filter(tournament=tournament, player_id=player, kind=RoundBye.Kind.HALF,
                                        reason=RoundBye.Reason.REQUESTED).count()
        if taken >= tournament.half_point_byes:
            raise InvalidInput.field("kind", f"{entry.player.name} has had the {tournament.half_point_byes} "
                                     "half-point bye(s) the tournament allows.")
    if RoundBye.objects.filter(tournament=tournament, player_id=player, round_number=round_number).exists():
        raise EntryConflict(f"{entry.player.name} has a bye for round {round_number} already.",
                            details={"round": round_number})
    bye = RoundBye.objects.create(tournament=tournament, player_id=player, round_number=round_number, kind=kind,
                                  reason=RoundBye.Reason.REQUESTED, created_by=acting_user)
    log_write(tournament=tournament, kind=TournamentLog.Kind.BYE_REQUESTED, actor=acting_user, reason=reason,
              data={"player": player, "round": round_number, "bye": kind, "by": "director" if director else "player"})
    return bye


@transaction.atomic
def bye_cancel(*, acting_user: Any, tournament: Tournament, player: int, round_number: int, reason: str = "") -> None:
    """Cancels a bye asked for a round not yet paired (the player, or a director)."""
    tournament = tournament_lock(tournament)
    _entry, director = _entry_for(tournament, acting_user, player)
    bye = RoundBye.objects.filter(tournament=tournament, player_id=player, round_number=round_number,
                                  reason=RoundBye.Reason.REQUESTED).first()
    if bye is None:
        raise InvalidInput.field("round", f"No bye was asked for in round {round_number}.")
    _round_open(tournament, round_number)
    kind = bye.kind
    bye.delete()
    log_write(tournament=tournament, kind=TournamentLog.Kind.BYE_CANCELLED, actor=acting_user, reason=reason,
              data={"player": player, "round": round_number, "bye": kind, "by": "director" if director else "player"})


@transaction.atomic
def prohibition_set(*, acting_user: Any, tournament: Tournament, players: list[int], until_round: int | None = None,
                    label: str = "") -> PairingProhibition:
    """Keeps players of a Swiss apart (a club, a family): never paired together up to ``until_round``, or always."""
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    if tournament.format != Tournament.Format.SWISS:
        raise WrongTournamentStatus("Only a Swiss keeps players apart: the other formats pair by a table.")
    if tournament.status == Tournament.Status.FINISHED:
        raise WrongTournamentStatus("The tournament is finished.")
    ids = sorted(set(players))
    if len(ids) < 2:
        raise InvalidInput.field("players", "Choose two players or more to keep apart.")
    entered = set(Entry.objects.filter(tournament=tournament, player_id__in=ids).values_list("player_id", flat=True))
    missing = [i for i in ids if i not in entered]
    if missing:
        raise InvalidInput.field("players", f"Not players of this tournament: {', '.join(map(str, missing))}.")
    if until_round is not None and until_round < 1:
        raise InvalidInput.field("until_round", "A round, 1 or more; empty: always.")
    label = (label or "").strip()[:120]
    prohibition = PairingProhibition.objects.create(tournament=tournament, label=label, until_round=until_round,
                                                    created_by=acting_user)
    prohibition.players.set(Player.objects.filter(pk__in=ids))
    log_write(tournament=tournament, kind=TournamentLog.Kind.PROHIBITION_SET, actor=acting_user,
              data={"prohibition": prohibition.pk, "players": ids, "until_round": until_round, "label": label})
    return prohibition


@transaction.atomic
def prohibition_remove(*, acting_user: Any, tournament: Tournament, prohibition: int, reason: str = "") -> None:
    """Lets players kept apart be paired together again, from the next round paired."""
    tournament = tournament_lock(tournament)
    authorise_director(tournament, acting_user)
    row = PairingProhibition.objects.filter(tournament=tournament, pk=prohibition).first()
    if row is None:
        raise InvalidInput.field("prohibition", f"No players kept apart under {prohibition} in this tournament.")
    ids = sorted(row.players.values_list("pk", flat=True))
    row.delete()
    log_write(tournament=tournament, kind=TournamentLog.Kind.PROHIBITION_REMOVED, actor=acting_user, reason=reason,
              data={"prohibition": prohibition, "players": ids})
