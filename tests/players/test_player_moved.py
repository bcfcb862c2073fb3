"""The Player model moved from tournaments to players without losing a row or a link."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("players", None), ("tournaments", "0004_glicko2_ratings"), ("games", "0004_lean_indexes")]
AFTER = [("players", "0002_rename_table"), ("tournaments", "0005_player_moved"), ("games", "0005_player_moved")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1]]).apps


# On an empty database of its own (scratch_database, PostgreSQL), migrated forward to before the move, then
# across it and back, as a rollback of a deployment would.
@pytest.mark.usefixtures("scratch_database")
def test_players_and_their_games_survive_the_move_and_the_table_rename():
    old = _migrate(BEFORE)
    OldPlayer = old.get_model("tournaments", "Player")
    OldGame = old.get_model("games", "Game")
    OldTournament = old.get_model("tournaments", "Tournament")
    black = OldPlayer.objects.create(name="Marion Tinsley", club="Tampa", rating=2400)
    white = OldPlayer.objects.create(name="Derek Oldbury", club="Devon")
    game = OldGame.objects.create(black=black, white=white, fen="B:W21:B1", ply=0)
    tournament = OldTournament.objects.create(name="Old", slug="old")
    old.get_model("tournaments", "Entry").objects.create(tournament=tournament, player=black)

    new = _migrate(AFTER)
    Player = new.get_model("players", "Player")
    assert Player._meta.db_table == "players_player"
    assert "players_player" in connection.introspection.table_names()
    assert "tournaments_player" not in connection.introspection.table_names()
    moved = Player.objects.get(pk=black.pk)
    assert (moved.name, moved.club, moved.rating) == ("Marion Tinsley", "Tampa", 2400)
    game = new.get_model("games", "Game").objects.get(pk=game.pk)
    assert (game.black_id, game.white_id) == (black.pk, white.pk)
    assert new.get_model("tournaments", "Tournament").objects.get(pk=tournament.pk).players.get().pk == black.pk
    # A new player gets the next id: the sequence came along with the table.
    assert Player.objects.create(name="Asa Long").pk > white.pk

    _migrate(BEFORE)  # and back, as a rollback of a deployment would
    assert old.get_model("tournaments", "Player").objects.filter(pk=black.pk).exists()
