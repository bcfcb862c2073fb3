"""Appeals (Law 28): a written statement to a named, disinterested arbiter, whose decision is final."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from arbitration.access import (
    appeal_deadline_passed,
    appeal_recorded,
    arbiters,
    interest_in,
    is_administrator,
)
from arbitration.errors import (
    AppealDecided,
    AppealTooLate,
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
    """Law 28: a written statement against a ruling goes to a disinterested arbiter, whose decision is final.

    The appellant names nobody: a tournament game's appeal goes to the arbiters its directors
    named (``Tournament.arbiters``), a standalone game's to the director who created it; only
    those of them who are disinterested (not a player of the game, not the appellant, not the
    one who recorded the ruling appealed) may decide it, and there must be one. One appeal per
    ruling, filed before the tournament's deadline (``access.appeal_deadline_passed``).
    """
    target = entry_of(r.game, r.payload["entry"])
    statement = r.payload["statement"]
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
    too_late = appeal_deadline_passed(r.game)
    if too_late:
        raise AppealTooLate(f"The appeal is too late: {too_late}.", details={"entry": target.seq})
    appellant = r.actor.pk if r.actor is not None else None
    named = arbiters(r.game)
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=[pk for pk, _ in named], is_active=True)}
    eligible = [users[pk].username for pk, _ in named if pk in users
                and not interest_in(r.game, users[pk], target, appellant)]
    if not eligible and r.game.round_id is not None:
        raise InvalidRuling(
            "No disinterested arbiter is named for this game's tournament (Law 28): its directors name one first.",
            code="no_arbiter", status_code=409, details={"entry": target.seq, "arbiters": [n for _, n in named]})
    # a standalone game whose director is not disinterested: a federation administrator decides
    arbiter = ", ".join(eligible) or "a federation administrator"
    entry = r.log(Kind.APPEAL, law="28", data={"entry": target.seq, "statement": statement, "arbiters": eligible})
    r.state = r.state.with_appeal(Appeal(seq=entry.seq, entry=target.seq, arbiter=arbiter, side=r.side))
    appeal_recorded(r.game, actor=r.actor, decided=False,
                    data={"appeal": entry.seq, "entry": target.seq, "arbiters": eligible, "side": r.side})


def may_decide(r: Ruling, appeal: Appeal) -> str:
    """Returns why the actor may not decide the appeal, or "" (an arbiter it went to, still disinterested)."""
    if r.actor is None:
        return "nobody signed in"
    target = LogEntry.objects.get(game=r.game, seq=appeal.entry)
    filed = LogEntry.objects.filter(game=r.game, seq=appeal.seq).values_list("actor_id", flat=True).first()
    interest = interest_in(r.game, r.actor, target, filed)
    if interest:
        return f"the arbiter must be disinterested (Law 28): {interest}"
    named = [n.strip() for n in appeal.arbiter.split(",") if n.strip()]
    if r.actor.username in named and any(pk == r.actor.pk for pk, _ in arbiters(r.game)):
        return ""
    if is_administrator(r.actor):
        return ""
    return f"only an arbiter it went to ({appeal.arbiter}) may decide it"


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
    if appeal.status != APPEAL_OPEN:
        raise AppealDecided(f"Appeal #{seq} was decided ({appeal.status}); the decision is final.")
    refused = may_decide(r, appeal)
    if refused:
        raise NotAllowed(f"You may not decide appeal #{seq}: {refused}.")
    decision, reason = r.payload["decision"], r.payload["reason"]
    result = r.payload.get("result") or None
    if decision == "upheld" and result is not None and result != r.game.result:
        raise InvalidRuling("An upheld ruling stands, and so does the result: give a result only when overturning.",
                            code="validation_error", status_code=400,
                            details={"fields": {"result": ["Only with decision overturned."]}})
    r.state = r.state.with_appeal_status(seq, decision)
    data = {"appeal": seq, "entry": appeal.entry, "decision": decision,
            "result": result if decision == "overturned" else None, "reason": reason}
    appeal_recorded(r.game, actor=r.actor, decided=True, data=data)
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
