"""Appeals (Law 28): a written statement to a named, disinterested arbiter, whose decision is final."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from accounts.roles import Role, user_roles
from arbitration.errors import (
    AppealDecided,
    InvalidRuling,
    NotAllowed,
)
from arbitration.lifecycle import (
    finish,
)
from arbitration.models import LogEntry
from arbitration.rulings.base import Ruling
from arbitration.rulings.corrections import bound_seqs, entry_of, is_appeal_decision, live_ending, undo
from arbitration.state import APPEAL_OPEN, Appeal
from games.models import Game, Termination

Kind = LogEntry.Kind


def appeal_file(r: Ruling) -> None:
    """Law 28: a written statement against a ruling goes to a named, disinterested arbiter.

    One appeal per ruling: another is refused while the first is open, and once it is decided
    (the decision is final). The arbiter is a referee or director, and neither the appellant,
    a player of the game, nor the one who made the ruling appealed.
    """
    target = entry_of(r.game, r.payload["entry"])
    statement, arbiter_name = r.payload["statement"], r.payload["arbiter"]
    if is_appeal_decision(target):
        raise AppealDecided(f"Entry #{target.seq} is an appeal decision: it is final (Law 28).",
                            details={"entry": target.seq})
    if target.kind == Kind.APPEAL:
        raise InvalidRuling(f"Entry #{target.seq} is an appeal: appeal the ruling (entry #{target.data.get('entry')}).")
    bound = bound_seqs(r.game, target)
    previous = r.state.appeal_on(bound)
    if previous is not None and previous.status == APPEAL_OPEN:
        raise InvalidRuling(
            f"Entry #{target.seq} is already under appeal (entry #{previous.seq}, to {previous.arbiter}): "
            "the arbiter decides it.", code="appeal_open", status_code=409, details={"appeal": previous.seq})
    if previous is not None:
        raise AppealDecided(
            f"Entry #{target.seq} was appealed (entry #{previous.seq}) and the arbiter decided: "
            f"{previous.status}. The decision is final (Law 28).",
            details={"appeal": previous.seq, "decision": previous.status})
    arbiter = get_user_model().objects.filter(username=arbiter_name, is_active=True).first()
    if arbiter is None or not ({Role.REFEREE, Role.DIRECTOR} & user_roles(arbiter)):
        raise InvalidRuling(f"{arbiter_name} is not a referee or director who can arbitrate.",
                            code="validation_error", status_code=400,
                            details={"fields": {"arbiter": ["Not a referee or director."]}})
    if r.actor is not None and arbiter.pk == r.actor.pk:
        interest = f"{arbiter_name} files the appeal and cannot decide it"
    elif arbiter.pk in (r.game.black.user_id, r.game.white.user_id):
        interest = f"{arbiter_name} plays in this game"
    elif arbiter.pk == target.actor_id:
        interest = f"{arbiter_name} recorded entry #{target.seq}, the one appealed"
    else:
        interest = ""
    if interest:
        raise InvalidRuling(f"The arbiter must be disinterested (Law 28): {interest}.", code="validation_error",
                            status_code=400, details={"fields": {"arbiter": [f"Not disinterested: {interest}."]}})
    entry = r.log(Kind.APPEAL, law="28", data={"entry": target.seq, "statement": statement, "arbiter": arbiter_name})
    r.state = r.state.with_appeal(Appeal(seq=entry.seq, entry=target.seq, arbiter=arbiter_name, side=r.side))


def appeal_decide(r: Ruling) -> None:
    """Law 28: the named arbiter decides; final.

    ``upheld``: the ruling and the result stand. ``overturned``: the ruling is undone as a
    correction would undo it; with ``result`` the game ends with it (termination
    ``appeal_decision``), its ``game_end`` superseding the one in force.
    """
    seq = r.payload["appeal"]
    appeal = r.state.appeal(seq)
    if appeal is None:
        raise InvalidRuling(f"Entry #{seq} is not an appeal of this game.")
    if r.actor is None or r.actor.username != appeal.arbiter:
        raise NotAllowed(f"Only the named arbiter ({appeal.arbiter}) may decide this appeal.")
    if appeal.status != APPEAL_OPEN:
        raise AppealDecided(f"Appeal #{seq} was decided ({appeal.status}); the decision is final.")
    decision, reason = r.payload["decision"], r.payload["reason"]
    result = r.payload.get("result") or None
    if decision == "upheld" and result is not None and result != r.game.result:
        raise InvalidRuling("An upheld ruling stands, and so does the result: give a result only when overturning.",
                            code="validation_error", status_code=400,
                            details={"fields": {"result": ["Only with decision overturned."]}})
    r.state = r.state.with_appeal_status(seq, decision)
    data = {"appeal": seq, "entry": appeal.entry, "decision": decision,
            "result": result if decision == "overturned" else None, "reason": reason}
    if decision == "upheld":
        r.log(Kind.APPEAL_DECISION, law="28", data=data, side=r.side or "", note=r.note or reason)
        return
    previous = live_ending(r.game) if r.game.status == Game.Status.FINISHED else None
    target = LogEntry.objects.get(game=r.game, seq=appeal.entry)
    undo(r, target, kind=Kind.APPEAL_DECISION, law="28", data=data, note=r.note or reason,
          final_result=result is not None)
    if result is not None:
        if previous is not None and LogEntry.objects.filter(supersedes=previous).exists():
            previous = None  # the decision itself superseded it (the game_end was appealed)
        finish(r.game, result=result, termination=Termination.APPEAL_DECISION, actor=r.actor, law="28", note=reason,
               supersedes=previous)
