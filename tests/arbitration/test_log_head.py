"""A finished game's chain head on its public page and in its PDN; `verify_log --head` checks a kept copy."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from arbitration.services import game_move_record, ruling_issue
from games.models import Game
from tests.arbitration.test_record_key import _hmac_under, _rechain

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(new_game, referee):
    game = new_game()
    for text in ("11-15", "23-19", "8-11"):
        game_move_record(acting_user=referee, game_id=game.pk, move=text)
    ruling_issue(acting_user=referee, game_id=game.pk, kind="resign", side="white")
    return Game.objects.get(pk=game.pk)


def _pdn_head(api_client, game) -> str | None:
    pdn = api_client.get(f"/api/v1/games/{game.pk}/pdn").content.decode()
    found = re.search(r'^\[LogHead "([^"]+)"\]$', pdn, re.M)
    return found.group(1) if found else None


def _page(client, game):
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    return response


def _verify(game, head: str, capsys) -> tuple[int, str]:
    try:
        call_command("verify_log", "--game", str(game.pk), "--head", head)
    except CommandError as error:
        return error.returncode, capsys.readouterr().out
    return 0, capsys.readouterr().out


def test_the_head_of_a_finished_game_is_on_its_page_and_in_its_pdn(finished, api_client, client):
    head = f"{finished.log_seq}:{finished.log_head}"
    assert finished.log_seq == 6 and len(finished.log_head) == 64
    assert _pdn_head(api_client, finished) == head
    page = _page(client, finished).content.decode()
    assert f'data-testid="log-head">{head}</code>' in page
    assert f"verify_log --game {finished.pk} --head {head}" in page


def test_a_game_in_progress_shows_its_head_so_far(new_game, referee, api_client, client):
    game = new_game()
    game_move_record(acting_user=referee, game_id=game.pk, move="11-15")
    game = Game.objects.get(pk=game.pk)
    head = f"{game.log_seq}:{game.log_head}"
    assert _pdn_head(api_client, game) == head
    assert f'data-testid="log-head">{head}</code>' in _page(client, game).content.decode()


def test_a_running_game_rolled_back_behind_a_head_kept_is_found_by_it(new_game, referee, api_client, capsys):
    """The last entries deleted and the game's head and position set back: the chain is whole, the kept head is not."""
    from tests.support.tamper import as_attacker

    game = new_game()
    for text in ("11-15", "23-19"):
        game_move_record(acting_user=referee, game_id=game.pk, move=text)
    before = Game.objects.get(pk=game.pk)
    game_move_record(acting_user=referee, game_id=game.pk, move="8-11")
    kept = _pdn_head(api_client, game)  # a spectator's copy of the PDN after the third move
    as_attacker("DELETE FROM games_move WHERE game_id = %s AND ply = 3", [game.pk])
    as_attacker("DELETE FROM arbitration_logentry WHERE game_id = %s AND seq > %s", [game.pk, before.log_seq])
    as_attacker("UPDATE games_game SET log_seq = %s, log_head = %s, ply = %s, fen = %s, arbitration = %s "
                "WHERE id = %s", [before.log_seq, before.log_head, before.ply, before.fen,
                                  json.dumps(before.arbitration), game.pk])
    assert api_client.get(f"/api/v1/games/{game.pk}/log/verify").json()["valid"] is True  # whole, as far as it goes
    code, out = _verify(game, kept, capsys)
    assert code == 1 and f"entry #{kept.split(':')[0]} of the head kept is not in the log" in out


def test_verify_log_accepts_the_printed_head_and_refuses_another(finished, api_client, capsys):
    head = _pdn_head(api_client, finished)
    code, out = _verify(finished, head, capsys)
    assert code == 0 and f"game {finished.pk}: OK (6 entries); it leads to the head kept, {head}" in out
    assert _verify(finished, head.split(":")[1], capsys)[0] == 0  # the hash alone will do
    code, out = _verify(finished, f"6:{'ab' * 32}", capsys)
    assert code == 1 and "BROKEN at entry #6" in out and "not the head kept" in out
    code, out = _verify(finished, f"9:{finished.log_head}", capsys)
    assert code == 1 and "entry #9 of the head kept is not in the log" in out
    code, out = _verify(finished, "ab" * 32, capsys)
    assert code == 1 and "no entry of the log has the hash kept" in out


def test_a_kept_head_finds_a_rewrite_even_by_someone_holding_the_key(finished, api_client, settings, capsys):
    head = _pdn_head(api_client, finished)
    _rechain(finished, edit_seq=3, hasher=_hmac_under(settings.LOG_KEY))
    assert api_client.get(f"/api/v1/games/{finished.pk}/log/verify").json()["valid"] is True
    code, out = _verify(finished, head, capsys)
    assert code == 1 and "the record was rewritten since" in out


def test_a_head_kept_before_a_later_correction_still_holds(finished, referee, api_client, capsys):
    head = _pdn_head(api_client, finished)
    ruling_issue(acting_user=referee, game_id=finished.pk, kind="correction",
                 payload={"entry": 6 - 1, "reason": "the resignation was not meant"})
    assert _verify(finished, head, capsys)[0] == 0


def test_the_game_may_be_named_without_game(finished, api_client, capsys):
    call_command("verify_log", str(finished.pk), "--head", _pdn_head(api_client, finished))
    assert f"game {finished.pk}: OK (6 entries); it leads to the head kept" in capsys.readouterr().out


def test_head_needs_a_game(finished):
    with pytest.raises(CommandError, match="--head needs --game"):
        call_command("verify_log", "--head", "abc")
