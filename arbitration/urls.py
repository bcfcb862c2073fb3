"""Page routes of a game: the public game page, the referee console, the confirmation, the appeal, the
scoresheet entry. The list of games, "Live games" at /games/, reads across tournaments: config.views."""

from django.urls import path

import core.converters  # noqa: F401 (registers <id:...>)
from arbitration import views

app_name = "games"

urlpatterns = [
    path("console-worker.js", views.console_worker, name="console_worker"),
    path("<id:game_id>", views.game_detail, name="detail"),
    path("<id:game_id>/console", views.game_console, name="console"),
    path("<id:game_id>/confirm", views.game_confirm, name="confirm"),
    path("<id:game_id>/appeal", views.game_appeal, name="appeal"),
    path("<id:game_id>/scoresheet", views.game_scoresheet, name="scoresheet"),
]
