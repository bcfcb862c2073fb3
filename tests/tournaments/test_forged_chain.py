"""The tournament log is never extended after a tail that does not verify under the record key.

An attacker with every right on the database but not the key rewrites the tournament's rows as
plain SHA-256 (which anyone can compute) and sets the head to match. Before, the director's next
write chained a keyed row onto that tail; now it is refused (409 ``record_broken``) and nothing is
written, and the verification names the plain rows.
"""

from __future__ import annotations

import hashlib

import pytest

from core.chain import GENESIS_HASH, RecordBroken
from tests.support.tamper import as_attacker
from tests.tournaments.test_services import make_players, play_round, running_tournament
from tournaments import services
from tournaments.log import row_content, tournament_log_verify
from tournaments.models import Tournament, TournamentLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(director):
    tournament = running_tournament(director, make_players(4))
    play_round(director, tournament)
    return tournament


def forge_as_plain(tournament: Tournament, *, reason_of_seq: int) -> None:
    """Rewrites every row as plain SHA-256 (one row's reason changed) and the tournament's head."""
    previous = GENESIS_HASH
    seq_of = dict(TournamentLog.objects.filter(tournament=tournament).values_list("id", "seq"))
    for row in TournamentLog.objects.filter(tournament=tournament).order_by("seq"):
        reason = "forged" if row.seq == reason_of_seq else row.reason
        content = row_content(
            tournament_id=tournament.pk, seq=row.seq, kind=row.kind, actor_id=row.actor_id,
            from_status=row.from_status, to_status=row.to_status, reason=reason, data=row.data,
            supersedes_seq=seq_of.get(row.supersedes_id), created_at=row.created_at,
        )
        digest = hashlib.sha256((content + previous).encode()).hexdigest()
        as_attacker("UPDATE tournaments_tournamentlog SET reason = %s, prev_hash = %s, hash = %s, key_id = '' "
                    "WHERE id = %s", [reason, previous, digest, row.pk])
        previous = digest
    as_attacker("UPDATE tournaments_tournament SET log_head = %s WHERE id = %s", [previous, tournament.pk])


def _rows(tournament: Tournament) -> list[tuple]:
    return list(TournamentLog.objects.filter(tournament=tournament).order_by("seq").values_list("seq", "hash"))


def test_a_directors_write_does_not_seal_a_log_forged_as_plain_sha256(tournament, director, client_as):
    forge_as_plain(tournament, reason_of_seq=2)
    before = _rows(tournament)
    outcome = tournament_log_verify(tournament)
    assert (outcome.valid, outcome.broken_at) == (False, 1) and "plain SHA-256" in outcome.reason
    response = client_as(director).patch(f"/api/v1/tournaments/{tournament.slug}/",
                                         {"venue": "The club hall", "reason": "moved"}, format="json")
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "record_broken" and "plain SHA-256" in error["details"]["reason"]
    assert _rows(tournament) == before  # nothing written
    assert Tournament.objects.get(pk=tournament.pk).venue != "The club hall"
    with pytest.raises(RecordBroken, match="does not verify"):
        services.round_pair(acting_user=director, tournament=tournament)
    assert _rows(tournament) == before


def test_a_tail_that_is_not_the_tournaments_head_is_not_extended(tournament, director):
    last = TournamentLog.objects.filter(tournament=tournament).order_by("-seq").first()
    as_attacker("DELETE FROM tournaments_tournamentlog WHERE id = %s", [last.pk])  # the head left as it was
    with pytest.raises(RecordBroken, match=f"the log ends at row #{last.seq - 1}"):
        services.round_pair(acting_user=director, tournament=tournament)
    assert TournamentLog.objects.filter(tournament=tournament).count() == last.seq - 1
