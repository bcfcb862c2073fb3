"""The data migration that gives existing games their creator, from the game_created entry's actor."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from games.models import Game
from tests.arbitration.conftest import new_game, players  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def test_existing_games_get_the_actor_of_their_game_created_entry_as_creator(director, new_game):  # noqa: F811
    game = new_game()
    Game.objects.filter(pk=game.pk).update(created_by=None)
    migration = importlib.import_module("games.migrations.0006_game_created_by")
    migration.created_by_from_log(apps, None)
    assert Game.objects.get(pk=game.pk).created_by == director
