"""Page routes of games: the list, the public game page and the referee console."""

from django.urls import path

import core.converters  # noqa: F401 (registers <id:...>)
from arbitration import views

app_name = "games"

urlpatterns = [
    path("", views.game_list, name="list"),
    path("console-worker.js", views.console_worker, name="console_worker"),
    path("<id:game_id>", views.game_detail, name="detail"),
    path("<id:game_id>/console", views.game_console, name="console"),
    path("<id:game_id>/confirm", views.game_confirm, name="confirm"),
    path("<id:game_id>/appeal", views.game_appeal, name="appeal"),
    path("<id:game_id>/scoresheet", views.game_scoresheet, name="scoresheet"),
]
