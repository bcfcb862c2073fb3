"""Page routes of games: the list, the public game page and the referee console."""

from django.urls import path

import core.converters  # noqa: F401 (registers <id:...>)
from arbitration import views

app_name = "games"

urlpatterns = [
    path("", views.game_list, name="list"),
    path("<id:game_id>", views.game_detail, name="detail"),
    path("<id:game_id>/console", views.game_console, name="console"),
]
