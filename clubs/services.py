"""Every write to a club: create, change, a player joins or leaves, a keeper of the club changes one of its players.

Who keeps a club (``may_keep_club``): a federation administrator (a superuser), the club's
secretary, and the director who created the club. A club's keeper changes only the players who
belong to it (``club_player_update``: name, federation and federation id; a rating is the
system's or the federation's, never a club's). Each write locks the club's row, asks the
access rule under the lock, and appends to the club's record (``ClubLog``) and, when a player
changes, to the registry's (``PlayerLog``), in the same transaction.

``Player.club`` (the text the registry always kept) follows the record: a player who joins a
club gets its name, one who leaves gets none, a renamed club renames its players' text. The
tournaments app, which registers players, calls ``club_name_canonical`` and
``club_member_sync`` when a director writes that text, so the two never disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.db.models import Q
from rest_framework import status

from accounts.roles import is_director
from clubs.models import Club, ClubLog, ClubMember, club_key
from core.api import AppError, ConflictError, NotFoundError
from core.text import control_characters_message
from players.models import Player, PlayerLog


class ClubNotFound(NotFoundError):
    code = "club_not_found"
    default_message = "There is no such club."


class ClubPermissionDenied(AppError):
    code = "permission_denied"
    status_code = status.HTTP_403_FORBIDDEN
    default_message = "Only a keeper of this club (its secretary, the director who created it, or an administrator) "\
                      "may do this."


class ClubConflict(ConflictError):
    code = "club_conflict"
    default_message = "The club cannot be changed so now."


class ClubInvalid(AppError):
    """A field is wrong: 400 ``validation_error`` with ``details.fields`` like DRF's."""

    code = "validation_error"
    default_message = "Some fields are invalid."

    @classmethod
    def field(cls, name: str, message: str) -> ClubInvalid:
        return cls(f"Some fields are invalid: {name}.", details={"fields": {name: [message]}})


CLUB_FIELDS = ("name", "short_name", "contact", "secretary")
MEMBER_FIELDS = ("name", "federation", "federation_id")


def _signed_in(user: Any) -> bool:
    return user is not None and user.is_authenticated


def may_keep_club(club: Club, user: Any) -> bool:
    """Tells whether the user keeps the club: an administrator, its secretary, or the director who created it."""
    if not _signed_in(user):
        return False
    if user.is_superuser or club.secretary_id == user.pk:
        return True
    return club.created_by_id == user.pk and is_director(user)


def may_name_secretary(club: Club, user: Any) -> bool:
    """Tells whether the user may choose the club's secretary: an administrator or the director who created it."""
    return _signed_in(user) and (user.is_superuser or (club.created_by_id == user.pk and is_director(user)))


def club_lock(club: Club | int) -> Club:
    """Returns the club's row locked for the rest of the transaction (404 ``club_not_found`` if there is none)."""
    pk = club.pk if isinstance(club, Club) else club
    found = Club.objects.select_for_update(of=("self",)).filter(pk=pk).first()
    if found is None:
        raise ClubNotFound(f"There is no club {pk}.")
    return found


def _texts_checked(values: dict[str, Any], names: tuple[str, ...]) -> None:
    for name in names:
        value = values.get(name)
        if isinstance(value, str):
            message = control_characters_message(value)
            if message:
                raise ClubInvalid.field(name, message)


def _name_checked(name: str, *, club: Club | None = None) -> tuple[str, str]:
    name = " ".join((name or "").split())
    if not name:
        raise ClubInvalid.field("name", "A club needs a name.")
    key = club_key(name)
    same = Club.objects.filter(key=key).exclude(pk=club.pk if club else None).first()
    if same is not None:
        raise ClubInvalid.field("name", f"{same.name} is registered already (club {same.pk}); names that differ only "
                                        "in case and spacing are one club.")
    return name, key


def _player_logged(*, player: Player, actor: Any, changes: dict[str, tuple[Any, Any]], reason: str = "") -> None:
    if changes:
        PlayerLog.objects.create(player=player, kind=PlayerLog.Kind.CHANGED, actor=actor if _signed_in(actor) else None,
                                 as_administrator=bool(getattr(actor, "is_superuser", False)), reason=reason,
                                 changes={k: {"before": b, "after": a} for k, (b, a) in changes.items()})


def _club_logged(*, club: Club, kind: str, actor: Any, player: Player | None = None,
                 changes: dict[str, tuple[Any, Any]] | None = None, reason: str = "") -> ClubLog:
    return ClubLog.objects.create(club=club, kind=kind, actor=actor if _signed_in(actor) else None, player=player,
                                  reason=reason,
                                  changes={k: {"before": b, "after": a} for k, (b, a) in (changes or {}).items()})


def _player_club_text_set(*, player: Player, text: str, actor: Any, reason: str = "") -> None:
    if player.club != text:
        before = player.club
        player.club = text
        player.save(update_fields=["club"])
        _player_logged(player=player, actor=actor, changes={"club": (before, text)}, reason=reason)


@transaction.atomic
def club_create(*, acting_user: Any, name: str, short_name: str = "", contact: str = "",
                secretary: Any = None) -> Club:
    """Registers a club (a director's job; he keeps it with its secretary). One club per name, case and spacing
    ignored."""
    if not is_director(acting_user):
        raise ClubPermissionDenied("Only a tournament director or an administrator registers a club.")
    _texts_checked({"name": name, "short_name": short_name, "contact": contact}, ("name", "short_name", "contact"))
    name, key = _name_checked(name)
    club = Club.objects.create(name=name, key=key, short_name=(short_name or "").strip(),
                               contact=(contact or "").strip(), secretary=secretary, created_by=acting_user)
    _club_logged(club=club, kind=ClubLog.Kind.CREATED, actor=acting_user,
                 changes={f: (None, _value(club, f)) for f in CLUB_FIELDS if _value(club, f) not in (None, "")})
    return club


def _comparable(name: str, value: Any) -> Any:
    return value.username if name == "secretary" and value is not None else value


def _value(club: Club, name: str) -> Any:
    if name == "secretary":
        return club.secretary.username if club.secretary_id else None
    return getattr(club, name)


@transaction.atomic
def club_update(*, acting_user: Any, club: Club | int, **changes: Any) -> Club:
    """Changes a club's name, short name, contact or secretary; a new name becomes its players' club text too.

    Its keepers (``may_keep_club``) may; only an administrator or the director who created the
    club chooses its secretary.
    """
    club = club_lock(club)
    if not may_keep_club(club, acting_user):
        raise ClubPermissionDenied()
    unknown = sorted(set(changes) - set(CLUB_FIELDS))
    if unknown:
        raise ClubInvalid("Some fields cannot be changed: " + ", ".join(unknown) + ".",
                          details={"fields": {n: ["Not a club's field."] for n in unknown}})
    if "secretary" in changes and changes["secretary"] != club.secretary and not may_name_secretary(club,
                                                                                                     acting_user):
        raise ClubPermissionDenied("Only an administrator or the director who registered the club chooses its "
                                   "secretary.", details={"fields": {"secretary": ["Not yours to choose."]}})
    _texts_checked(changes, ("name", "short_name", "contact"))
    for name in ("short_name", "contact"):
        if name in changes:
            changes[name] = (changes[name] or "").strip()
    if "name" in changes:
        changes["name"], changes_key = _name_checked(changes["name"], club=club)
        club.key = changes_key
    changed = [n for n in changes if _value(club, n) != _comparable(n, changes[n])]
    before = {n: _value(club, n) for n in changed}
    for name in changed:
        setattr(club, name, changes[name])
    if changed:
        club.save(update_fields=[*changed, *(["key"] if "name" in changed else [])])
        _club_logged(club=club, kind=ClubLog.Kind.CHANGED, actor=acting_user,
                     changes={n: (before[n], _value(club, n)) for n in changed})
    if "name" in changed:
        for player in Player.objects.select_for_update(of=("self",)).filter(club_membership__club=club):
            _player_club_text_set(player=player, text=club.name, actor=acting_user, reason="the club was renamed")
    return club


def _player_lock(player: Player | int) -> Player:
    pk = player.pk if isinstance(player, Player) else player
    found = Player.objects.select_for_update(of=("self",)).filter(pk=pk).first()
    if found is None:
        raise ClubInvalid.field("player", f"There is no player {pk}.")
    return found


#: Tells whether a player is entered in a tournament the user does not direct (set by the tournaments app at
#: start-up: clubs may not import it); None: no tournament app, no such tournament.
_plays_under_another: Callable[[Player, Any], bool] | None = None


def register_tournaments_hook(plays_under_another: Callable[[Player, Any], bool] | None) -> None:
    """Sets who answers whether a player plays under another director (the tournaments app, at start-up)."""
    global _plays_under_another
    _plays_under_another = plays_under_another


def _registrar_id(player: Player) -> int | None:
    return (PlayerLog.objects.filter(player=player, kind=PlayerLog.Kind.CREATED).order_by("id")
            .values_list("actor_id", flat=True).first())


def _free_player_refusal(club: Club, player: Player, user: Any) -> str:
    """Why a keeper of the club may not take in a player of no club, or "".

    Taking a player into a club of one's own must make no one his keeper (a club's keepers change
    its members' names and federation ids; issue 22, item 2): a keeper other than an
    administrator takes in only a player whom whoever registered him (the registry's ``created``
    row) keeps this club too or is he, and who plays in no tournament the keeper does not direct.
    """
    if user.is_superuser:
        return ""
    registrar = _registrar_id(player)
    if registrar is not None and registrar != user.pk:
        keeper = Club.objects.filter(pk=club.pk).filter(Q(secretary_id=registrar) | Q(created_by_id=registrar))
        if not keeper.exists():
            return (f"{player.name} was registered by another director, who keeps no share of {club.name}: he "
                    "or a federation administrator makes him a member.")
    if _plays_under_another is not None and _plays_under_another(player, user):
        return (f"{player.name} plays in a tournament you do not direct: its director or a federation "
                "administrator makes him a member.")
    return ""


@transaction.atomic
def club_player_add(*, acting_user: Any, club: Club | int, player: Player | int) -> ClubMember:
    """Makes the player a member of the club (a keeper of the club).

    A player of another club moves only when the acting user keeps that club too (its
    secretary releases him, or an administrator transfers him): 409 ``club_conflict`` else. A
    player of no club joins only as ``_free_player_refusal`` allows (403 else).
    """
    club = club_lock(club)
    if not may_keep_club(club, acting_user):
        raise ClubPermissionDenied()
    player = _player_lock(player)
    member = ClubMember.objects.select_for_update().select_related("club").filter(player=player).first()
    if member is None:
        refusal = _free_player_refusal(club, player, acting_user)
        if refusal:
            raise ClubPermissionDenied(refusal, details={"player": player.pk})
    if member is not None and member.club_id == club.pk:
        raise ClubConflict(f"{player.name} is a member of {club.name} already.")
    if member is not None and not may_keep_club(member.club, acting_user):
        raise ClubConflict(f"{player.name} belongs to {member.club.name}: its secretary removes him first, or an "
                           "administrator transfers him.", details={"club": member.club_id})
    if member is not None:
        _club_logged(club=member.club, kind=ClubLog.Kind.LEFT, actor=acting_user, player=player,
                     reason=f"transferred to {club.name}")
        member.club = club
        member.save(update_fields=["club"])
    else:
        member = ClubMember.objects.create(player=player, club=club)
    _club_logged(club=club, kind=ClubLog.Kind.JOINED, actor=acting_user, player=player)
    _player_club_text_set(player=player, text=club.name, actor=acting_user, reason=f"joined {club.name}")
    return member


def _member_of(club: Club, player: Player | int) -> Player:
    pk = player.pk if isinstance(player, Player) else player
    found = Player.objects.select_for_update(of=("self",)).filter(pk=pk, club_membership__club=club).first()
    if found is None:
        raise NotFoundError(f"Player {pk} is not a member of {club.name}.", code="member_not_found")
    return found


@transaction.atomic
def club_player_remove(*, acting_user: Any, club: Club | int, player: Player | int, reason: str = "") -> Player:
    """Takes the player out of the club (a keeper of the club); his club text becomes empty."""
    club = club_lock(club)
    if not may_keep_club(club, acting_user):
        raise ClubPermissionDenied()
    player = _member_of(club, player)
    ClubMember.objects.filter(player=player).delete()
    _club_logged(club=club, kind=ClubLog.Kind.LEFT, actor=acting_user, player=player, reason=(reason or "").strip())
    _player_club_text_set(player=player, text="", actor=acting_user, reason=f"left {club.name}")
    return player


@transaction.atomic
def club_player_update(*, acting_user: Any, club: Club | int, player: Player | int, **changes: Any) -> Player:
    """Changes a member's name, federation or federation id (a keeper of the club, for its own members only)."""
    club = club_lock(club)
    if not may_keep_club(club, acting_user):
        raise ClubPermissionDenied("Only a keeper of this club (its secretary, the director who created it, or an "
                                   "administrator) changes its players.")
    player = _member_of(club, player)
    unknown = sorted(set(changes) - set(MEMBER_FIELDS))
    if unknown:
        raise ClubInvalid("A club's keeper changes a player's name, federation and federation id only: "
                          + ", ".join(unknown) + ".",
                          details={"fields": {n: ["Not changed by a club's keeper."] for n in unknown}})
    changes = {n: (v or "").strip() for n, v in changes.items()}
    if "name" in changes and not changes["name"]:
        raise ClubInvalid.field("name", "A player needs a name.")
    _texts_checked(changes, MEMBER_FIELDS)
    federation = changes.get("federation", player.federation)
    federation_id = changes.get("federation_id", player.federation_id)
    if federation_id and Player.objects.filter(federation=federation, federation_id=federation_id).exclude(
            pk=player.pk).exists():
        raise ClubInvalid.field("federation_id", f"{federation} {federation_id} is already registered.")
    changed = {n: (getattr(player, n), v) for n, v in changes.items() if getattr(player, n) != v}
    if changed:
        for name, (_, after) in changed.items():
            setattr(player, name, after)
        player.save(update_fields=list(changed))
        _player_logged(player=player, actor=acting_user, changes=changed, reason=f"by a keeper of {club.name}")
        _club_logged(club=club, kind=ClubLog.Kind.PLAYER_CHANGED, actor=acting_user, player=player, changes=changed)
    return player


# --- the registry's club text, as the tournaments app writes it ---------------------------------------------------


def club_name_canonical(text: str) -> str:
    """Returns the name of the registered club whose key the text has (case and spacing ignored), else the text
    stripped: a director who types "bristol  dc" registers a player of "Bristol DC"."""
    text = (text or "").strip()
    if not text:
        return ""
    name = Club.objects.filter(key=club_key(text)).values_list("name", flat=True).first()
    return name if name is not None else text


def club_member_sync(*, acting_user: Any, player: Player) -> ClubMember | None:
    """Makes the player's membership follow his club text (called in the transaction that wrote the text).

    No text: he leaves his club. A text naming no club yet: the club is registered (by the
    acting user, who keeps it until it has a secretary). Each change is on the clubs' records.
    """
    key = club_key(player.club)
    member = ClubMember.objects.select_for_update().select_related("club").filter(player=player).first()
    if not key:
        if member is not None:
            _club_logged(club=member.club, kind=ClubLog.Kind.LEFT, actor=acting_user, player=player,
                         reason="club text cleared in the registry")
            member.delete()
        return None
    club = Club.objects.filter(key=key).first()
    if club is None:
        club = Club.objects.create(name=" ".join(player.club.split()), key=key,
                                   created_by=acting_user if is_director(acting_user) else None)
        _club_logged(club=club, kind=ClubLog.Kind.CREATED, actor=acting_user, changes={"name": (None, club.name)},
                     reason="named in the registry")
    if member is not None and member.club_id == club.pk:
        return member
    if member is not None:
        _club_logged(club=member.club, kind=ClubLog.Kind.LEFT, actor=acting_user, player=player,
                     reason=f"club text changed to {club.name} in the registry")
        member.club = club
        member.save(update_fields=["club"])
    else:
        member = ClubMember.objects.create(player=player, club=club)
    _club_logged(club=club, kind=ClubLog.Kind.JOINED, actor=acting_user, player=player, reason="named in the registry")
    return member


def club_members_sync(*, acting_user: Any, players: list[Player]) -> None:
    """``club_member_sync`` for each player (the CSV import's players, after their rows are written)."""
    for player in players:
        club_member_sync(acting_user=acting_user, player=player)


def club_for_name(*, acting_user: Any, name: str) -> Club:
    """Returns the club whose key the name has (case and spacing ignored); a name no club has becomes a club record,
    created by the acting user (a league's secretary entering a team of a club not yet registered), on its record.
    A name without a letter or digit is refused (400)."""
    key = club_key(name)
    if not key:
        raise ClubInvalid.field("club_name", "A club needs a name.")
    club = Club.objects.filter(key=key).first()
    if club is None:
        club = Club.objects.create(name=" ".join(name.split()), key=key,
                                   created_by=acting_user if is_director(acting_user) else None)
        _club_logged(club=club, kind=ClubLog.Kind.CREATED, actor=acting_user, changes={"name": (None, club.name)},
                     reason="named by a league entering a team")
    return club
