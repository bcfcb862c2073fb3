"""The arbitration log: append-only, hash-chained, and the chain check finds a hand edit."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from arbitration.log import GENESIS_HASH, log_verify
from arbitration.models import AppendOnlyError, LogEntry
from arbitration.services import game_move_record
from tests.support.tamper import as_attacker

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(new_game, referee):
    game = new_game()
    for text in ("11-15", "23-19", "8-11"):
        game_move_record(acting_user=referee, game_id=game.pk, move=text)
    return game


def test_game_creation_is_entry_one_with_the_settings_and_the_chain_starts_at_zeros(played):
    first = LogEntry.objects.get(game=played, seq=1)
    assert first.kind == "game_created" and first.prev_hash == GENESIS_HASH
    assert first.data["rule_set"] == "standard" and first.data["referees"] == ["ref"]
    entries = list(LogEntry.objects.filter(game=played).order_by("seq"))
    assert [e.seq for e in entries] == [1, 2, 3, 4]
    assert all(b.prev_hash == a.hash for a, b in zip(entries, entries[1:], strict=False))


def test_an_entry_cannot_be_saved_again_updated_or_deleted(played):
    entry = LogEntry.objects.get(game=played, seq=2)
    entry.note = "changed"
    with pytest.raises(AppendOnlyError):
        entry.save()
    with pytest.raises(AppendOnlyError):
        entry.delete()
    with pytest.raises(AppendOnlyError):
        LogEntry.objects.filter(game=played).update(note="changed")
    with pytest.raises(AppendOnlyError):
        LogEntry.objects.filter(game=played).delete()


def test_verify_log_reports_ok_for_an_untouched_chain(played, capsys):
    assert log_verify(played).valid
    call_command("verify_log", "--game", str(played.pk))
    assert f"game {played.pk}: OK (4 entries)" in capsys.readouterr().out


def _edit_by_hand(game, seq: int) -> None:
    as_attacker("UPDATE arbitration_logentry SET note = %s WHERE game_id = %s AND seq = %s",
                ["nothing happened", game.pk, seq])


def test_the_command_names_the_game_and_entry_after_a_row_is_edited_by_hand_and_exits_1(played, new_game, capsys):
    other = new_game()
    _edit_by_hand(played, 3)
    with pytest.raises(CommandError) as raised:
        call_command("verify_log")
    assert raised.value.returncode == 1
    out = capsys.readouterr().out
    assert f"game {played.pk}: BROKEN at entry #3" in out and "hash does not match" in out
    assert f"game {other.pk}: OK" in out


def test_the_api_reports_where_the_chain_breaks(played, api_client):
    response = api_client.get(f"/api/v1/games/{played.pk}/log/verify")
    assert response.json() == {"valid": True, "entries": 4}
    _edit_by_hand(played, 2)
    body = api_client.get(f"/api/v1/games/{played.pk}/log/verify").json()
    assert body["valid"] is False and body["entries"] == 4 and body["broken_at"] == 2 and body["reason"]


def test_a_forged_hash_breaks_the_link_to_the_next_entry(played):
    forged = LogEntry.objects.get(game=played, seq=3)
    as_attacker("UPDATE arbitration_logentry SET note = 'x', hash = %s WHERE id = %s", ["f" * 64, forged.pk])
    outcome = log_verify(played)
    assert outcome.valid is False and outcome.broken_at == 3


def test_the_log_endpoint_lists_every_entry_with_its_hashes(played, api_client, referee):
    body = api_client.get(f"/api/v1/games/{played.pk}/log/").json()
    assert [e["seq"] for e in body] == [1, 2, 3, 4]
    # the public sees no usernames (accounts.privacy); a signed-in caller does
    assert body[1]["kind"] == "move" and body[1]["actor"] == "official" and body[1]["data"]["move"] == "11-15"
    api_client.force_authenticate(user=referee)
    assert api_client.get(f"/api/v1/games/{played.pk}/log/").json()[1]["actor"] == "ref"
    assert set(body[0]) == {"seq", "kind", "side", "law", "note", "data", "actor", "created_at", "ply", "fen",
                            "supersedes", "prev_hash", "hash", "key_id"}


def test_a_row_deleted_by_hand_shows_as_a_gap_in_the_sequence(played, referee):
    from arbitration.services import ruling_issue

    ruling_issue(acting_user=referee, game_id=played.pk, kind="spectator", note="a cough")
    ruling_issue(acting_user=referee, game_id=played.pk, kind="spectator", note="a phone rang")
    as_attacker("DELETE FROM arbitration_logentry WHERE game_id = %s AND seq = 5", [played.pk])
    outcome = log_verify(played)
    assert outcome.valid is False and outcome.broken_at == 6 and "sequence" in outcome.reason


def test_verify_answers_with_or_without_the_trailing_slash(played, api_client):
    assert api_client.get(f"/api/v1/games/{played.pk}/log/verify/").json()["valid"] is True
    assert api_client.get(f"/api/v1/games/{played.pk}/pdn/").status_code == 200


def _delete_from(game, seq: int) -> None:
    as_attacker("DELETE FROM arbitration_logentry WHERE game_id = %s AND seq >= %s", [game.pk, seq])


def _verify_by_command(game, capsys) -> tuple[int, str]:
    try:
        call_command("verify_log", "--game", str(game.pk))
    except CommandError as error:
        return error.returncode, capsys.readouterr().out
    return 0, capsys.readouterr().out


@pytest.fixture
def six_entries(played, referee):
    from arbitration.services import ruling_issue

    ruling_issue(acting_user=referee, game_id=played.pk, kind="spectator", note="a cough")
    ruling_issue(acting_user=referee, game_id=played.pk, kind="spectator", note="a phone rang")
    return played


def test_the_newest_entries_deleted_by_hand_are_found_against_the_games_chain_head(six_entries, api_client, capsys):
    _delete_from(six_entries, 5)
    code, out = _verify_by_command(six_entries, capsys)
    assert code == 1
    assert f"game {six_entries.pk}: BROKEN at entry #5" in out and "entries #5 to #6 are missing" in out
    body = api_client.get(f"/api/v1/games/{six_entries.pk}/log/verify").json()
    assert body["valid"] is False and body["entries"] == 4 and body["broken_at"] == 5
    assert "chain head is entry #6" in body["reason"]


def test_the_last_entry_deleted_by_hand_is_named(six_entries, api_client, capsys):
    _delete_from(six_entries, 6)
    code, out = _verify_by_command(six_entries, capsys)
    assert code == 1 and "BROKEN at entry #6: entry #6 is missing" in out
    body = api_client.get(f"/api/v1/games/{six_entries.pk}/log/verify").json()
    assert (body["valid"], body["broken_at"]) == (False, 6)


def test_every_entry_deleted_by_hand_breaks_at_the_first(new_game, api_client, capsys):
    game = new_game()
    _delete_from(game, 1)
    code, out = _verify_by_command(game, capsys)
    assert code == 1 and "BROKEN at entry #1" in out and "no entry" in out
    body = api_client.get(f"/api/v1/games/{game.pk}/log/verify").json()
    assert (body["valid"], body["entries"], body["broken_at"]) == (False, 0, 1)


def _edit_game(game, **fields) -> None:
    assignments = ", ".join(f"{name} = %s" for name in fields)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE games_game SET {assignments} WHERE id = %s", [*fields.values(), game.pk])  # noqa: S608


def test_a_result_edited_by_hand_on_the_game_row_is_reported_against_the_game_end_entry(
    played, referee, api_client, capsys,
):
    from arbitration.services import ruling_issue

    ruling_issue(acting_user=referee, game_id=played.pk, kind="resign", side="white")
    end = LogEntry.objects.get(game=played, kind="game_end")
    assert _verify_by_command(played, capsys)[0] == 0
    _edit_game(played, result="0-1")
    code, out = _verify_by_command(played, capsys)
    assert code == 1 and f"BROKEN at entry #{end.seq}" in out
    assert "game_end" in out and "1-0" in out and "0-1" in out
    body = api_client.get(f"/api/v1/games/{played.pk}/log/verify").json()
    assert body["valid"] is False and body["broken_at"] == end.seq and "game_end" in body["reason"]


def test_a_game_marked_finished_by_hand_without_a_game_end_entry_is_reported(played, api_client, capsys):
    _edit_game(played, status="finished", result="1-0", termination="resignation")
    code, out = _verify_by_command(played, capsys)
    assert code == 1 and "no game_end entry is in force" in out
    body = api_client.get(f"/api/v1/games/{played.pk}/log/verify").json()
    assert body["valid"] is False and body["broken_at"] == 4


def test_a_termination_edited_by_hand_is_reported(played, referee, capsys):
    from arbitration.services import ruling_issue

    ruling_issue(acting_user=referee, game_id=played.pk, kind="draw_agreed")
    _edit_game(played, termination="draw_repetition")
    code, out = _verify_by_command(played, capsys)
    assert code == 1 and "draw_agreement" in out and "draw_repetition" in out
