"""Page routes of games: the list, the public game page and the referee console."""

from django.urls import path

from arbitration import views

app_name = "games"

urlpatterns = [
    path("", views.game_list, name="list"),
    path("<int:game_id>", views.game_detail, name="detail"),
    path("<int:game_id>/console", views.game_console, name="console"),
    path("<int:game_id>/confirm", views.game_confirm, name="confirm"),
    path("<int:game_id>/appeal", views.game_appeal, name="appeal"),
    path("<int:game_id>/scoresheet", views.game_scoresheet, name="scoresheet"),
]
