"""Page routes of tournaments: public pages, a player's own view and the director's dashboard."""

from django.urls import path

import core.converters  # noqa: F401 (registers <id:...>)
from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("me/", views.my_games, name="me"),
    path("me/boards/", views.my_boards, name="boards"),
    path("players/", views.player_list, name="players"),
    path("manage/", views.dashboard, name="dashboard"),
    path("players/<id:player_id>/", views.player_detail, name="player"),
    path("players/<id:player_id>/claim", views.player_claim, name="player-claim"),
    path("players/<id:player_id>/claims/<id:claim_id>/decide", views.player_claim_decide, name="player-claim-decide"),
    path("players/<id:player_id>/claims/<id:claim_id>/withdraw", views.player_claim_withdraw,
         name="player-claim-withdraw"),
    path("players/<id:player_id>/unlink", views.player_unlink, name="player-unlink"),
    path("<slug:slug>/", views.tournament_detail, name="detail"),
    path("<slug:slug>/live/", views.live_boards, name="live"),
    path("<slug:slug>/players/<id:player_id>/", views.tournament_player, name="record"),
    path("<slug:slug>/rounds/<id:number>/pairings/", views.print_pairings, name="print-pairings"),
    path("<slug:slug>/rounds/<id:number>/scoresheets/", views.print_scoresheets, name="print-scoresheets"),
    path("<slug:slug>/print/standings/", views.print_standings, name="print-standings"),
    path("<slug:slug>/manage/", views.manage, name="manage"),
    path("<slug:slug>/presence", views.presence_mark, name="presence"),
    path("<slug:slug>/bye", views.bye_ask, name="bye"),
    path("<slug:slug>/manage/status", views.manage_status, name="manage-status"),
    path("<slug:slug>/manage/referees", views.manage_referees, name="manage-referees"),
    path("<slug:slug>/manage/game-referees", views.manage_game_referees, name="manage-game-referees"),
    path("<slug:slug>/manage/arbiters", views.manage_arbiters, name="manage-arbiters"),
    path("<slug:slug>/manage/clock", views.manage_clock, name="manage-clock"),
    path("<slug:slug>/manage/openings", views.manage_openings, name="manage-openings"),
    path("<slug:slug>/manage/pairing", views.manage_pairing, name="manage-pairing"),
    path("<slug:slug>/manage/byes", views.manage_bye, name="manage-bye"),
    path("<slug:slug>/manage/prohibitions", views.manage_prohibition, name="manage-prohibition"),
    path("<slug:slug>/manage/entries", views.manage_entry_add, name="manage-entry-add"),
    path("<slug:slug>/manage/players", views.manage_player_add, name="manage-player-add"),
    path("<slug:slug>/manage/import", views.manage_import, name="manage-import"),
    path("<slug:slug>/manage/withdraw", views.manage_withdraw, name="manage-withdraw"),
    path("<slug:slug>/manage/rounds", views.manage_pair, name="manage-pair"),
    path("<slug:slug>/manage/rounds/<id:number>/pairings", views.manage_edit, name="manage-edit"),
    path("<slug:slug>/manage/rounds/<id:number>/forfeit", views.manage_forfeit, name="manage-forfeit"),
    path("<slug:slug>/manage/rounds/<id:number>/publish", views.manage_publish, name="manage-publish"),
    path("<slug:slug>/manage/rounds/<id:number>/scoresheets", views.manage_scoresheets, name="manage-scoresheets"),
    path("<slug:slug>/manage/rounds/<id:number>/schedule", views.manage_schedule, name="manage-schedule"),
    path("<slug:slug>/manage/rounds/<id:number>/discard", views.manage_discard, name="manage-discard"),
    path("<slug:slug>/manage/results", views.manage_result, name="manage-result"),
]
