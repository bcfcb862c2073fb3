"""Players' accounts: a user claims his registry record, a keeper of the player approves or refuses the claim,
and the player (or an administrator) unlinks his account.

No director links an account of his choosing: the link is made only on a claim made from
the account itself, approved by a keeper of the player (``may_edit_player``: an administrator,
or the director who registered him while no other director's tournament holds him), never by
the claimant himself; or directly by an administrator (``player_update``). Every claim,
decision, link and unlink is a row of the registry's record (``PlayerLog``), which the player
reads on /tournaments/me/, on his page and through ``GET /api/v1/players/{id}/log/``.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.api import ConflictError, NotFoundError
from players.models import Player, PlayerClaim, PlayerLog
from tournaments.services.errors import InvalidInput, NotDirector
from tournaments.services.tournaments import may_edit_player, player_account_logged


class ClaimConflict(ConflictError):
    code = "claim_conflict"
    default_message = "The claim cannot be made or decided now."


class ClaimNotFound(NotFoundError):
    code = "claim_not_found"
    default_message = "There is no such claim."


def _signed_in(user: Any) -> bool:
    return user is not None and user.is_authenticated


def _claim_lock(claim: PlayerClaim | int) -> PlayerClaim:
    pk = claim.pk if isinstance(claim, PlayerClaim) else claim
    found = PlayerClaim.objects.select_for_update(of=("self",)).select_related("player", "user").filter(pk=pk).first()
    if found is None:
        raise ClaimNotFound(f"There is no claim {pk}.")
    return found


def _player_lock(player_id: int) -> Player:
    return Player.objects.select_for_update(of=("self",)).select_related("user").get(pk=player_id)


@transaction.atomic
def player_claim(*, acting_user: Any, player: Player, statement: str = "") -> PlayerClaim:
    """Records the signed-in user's claim that the player is he, for a keeper of the player to decide.

    Refused (409) when the player is linked to an account already (an administrator decides
    then), when the user plays as another player, or has a claim waiting.
    """
    if not _signed_in(acting_user):
        raise NotDirector("Sign in to claim your record.")
    player = _player_lock(player.pk)
    if player.user_id == acting_user.pk:
        raise ClaimConflict(f"Your account is already linked to {player.name}.")
    if player.user_id is not None:
        raise ClaimConflict(f"{player.name} is linked to another account: if he is you, ask a federation "
                            "administrator.", details={"player": player.pk})
    other = Player.objects.filter(user=acting_user).first()
    if other is not None:
        raise ClaimConflict(f"Your account is linked to {other.name}; an account plays as one player.",
                            details={"player": other.pk})
    try:
        with transaction.atomic():
            claim = PlayerClaim.objects.create(player=player, user=acting_user, statement=(statement or "").strip())
    except IntegrityError as error:
        waiting = PlayerClaim.objects.filter(user=acting_user, status=PlayerClaim.Status.PENDING).first()
        raise ClaimConflict("You have a claim waiting; withdraw it before making another.",
                            details={"claim": waiting.pk if waiting else None}) from error
    PlayerLog.objects.create(player=player, kind=PlayerLog.Kind.CLAIMED, actor=acting_user, account=acting_user,
                             reason=claim.statement, changes={"claim": {"before": None, "after": claim.pk}})
    return claim


@transaction.atomic
def player_claim_decide(*, acting_user: Any, claim: PlayerClaim | int, approve: bool, reason: str = "") -> PlayerClaim:
    """Approves a claim (the claimant's account is linked to the player) or refuses it (with a reason).

    Only a keeper of the player (``may_edit_player``) decides, never on a claim of his own
    account unless he is an administrator. Approving one claim refuses the others waiting on
    the same player.
    """
    claim = _claim_lock(claim)
    player = _player_lock(claim.player_id)
    if not may_edit_player(player, acting_user):
        raise NotDirector("Only the director who registered this player, while he plays in no other director's "
                          "tournament, or a federation administrator decides a claim on him.")
    if claim.user_id == acting_user.pk and not acting_user.is_superuser:
        raise NotDirector("A claim of your own account is decided by a federation administrator.")
    if claim.status != PlayerClaim.Status.PENDING:
        raise ClaimConflict(f"Claim {claim.pk} was {claim.get_status_display().lower()} already.")
    reason = (reason or "").strip()
    if not approve and not reason:
        raise InvalidInput.field("reason", "Say why the claim is refused: the claimant reads it.")
    administrator = bool(acting_user.is_superuser)
    now = timezone.now()
    if approve:
        if player.user_id is not None:
            raise ClaimConflict(f"{player.name} is linked to an account already.")
        if Player.objects.filter(user_id=claim.user_id).exists():
            raise ClaimConflict(f"{claim.user.username} plays as another player already.")
        player.user = claim.user
        player.save(update_fields=["user"])
        player_account_logged(player=player, actor=acting_user, before=None, after=claim.user,
                              reason=f"claim {claim.pk} approved" + (f": {reason}" if reason else ""))
        others = list(PlayerClaim.objects.select_for_update().filter(player=player, status=PlayerClaim.Status.PENDING)
                      .exclude(pk=claim.pk))
        for other in others:
            _close(other, PlayerClaim.Status.REFUSED, actor=acting_user, at=now,
                   reason=f"claim {claim.pk} on the same player was approved")
        claim.status = PlayerClaim.Status.APPROVED
    else:
        claim.status = PlayerClaim.Status.REFUSED
        PlayerLog.objects.create(player=player, kind=PlayerLog.Kind.CLAIM_REFUSED, actor=acting_user,
                                 account=claim.user, as_administrator=administrator, reason=reason,
                                 changes={"claim": {"before": claim.pk, "after": None}})
    claim.decided_by, claim.decided_at, claim.reason = acting_user, now, reason
    claim.save(update_fields=["status", "decided_by", "decided_at", "reason"])
    return claim


def _close(claim: PlayerClaim, status: str, *, actor: Any, at: Any, reason: str) -> None:
    claim.status, claim.decided_by, claim.decided_at, claim.reason = status, actor, at, reason
    claim.save(update_fields=["status", "decided_by", "decided_at", "reason"])
    kind = PlayerLog.Kind.CLAIM_WITHDRAWN if status == PlayerClaim.Status.WITHDRAWN else PlayerLog.Kind.CLAIM_REFUSED
    PlayerLog.objects.create(player_id=claim.player_id, kind=kind, actor=actor, account_id=claim.user_id,
                             as_administrator=bool(actor is not None and actor.is_superuser), reason=reason,
                             changes={"claim": {"before": claim.pk, "after": None}})


@transaction.atomic
def player_claim_withdraw(*, acting_user: Any, claim: PlayerClaim | int) -> PlayerClaim:
    """Withdraws a claim waiting for a decision: its claimant only."""
    claim = _claim_lock(claim)
    if not _signed_in(acting_user) or claim.user_id != acting_user.pk:
        raise NotDirector("Only the claimant withdraws his claim.")
    if claim.status != PlayerClaim.Status.PENDING:
        raise ClaimConflict(f"Claim {claim.pk} was {claim.get_status_display().lower()} already.")
    _close(claim, PlayerClaim.Status.WITHDRAWN, actor=acting_user, at=timezone.now(), reason="")
    return claim


@transaction.atomic
def player_unlink(*, acting_user: Any, player: Player, reason: str = "") -> Player:
    """Unlinks the player's account: the player himself, or an administrator."""
    player = _player_lock(player.pk)
    if not _signed_in(acting_user) or not (acting_user.is_superuser or player.user_id == acting_user.pk):
        raise NotDirector("Only the player himself or a federation administrator unlinks his account.")
    if player.user_id is None:
        raise ClaimConflict(f"{player.name} has no account linked.")
    before = player.user
    player.user = None
    player.save(update_fields=["user"])
    player_account_logged(player=player, actor=acting_user, before=before, after=None, reason=(reason or "").strip())
    return player


def claims_visible_to(player: Player, user: Any) -> list[PlayerClaim]:
    """Returns the player's claims the user may see, newest first: all of them to a keeper, his own to a claimant."""
    if not _signed_in(user):
        return []
    claims = PlayerClaim.objects.filter(player=player).select_related("user", "decided_by").order_by("-id")
    if may_edit_player(player, user):
        return list(claims)
    return list(claims.filter(user=user))
