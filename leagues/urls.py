"""Page routes of the leagues: the table and fixtures, a team match, the captain's page, a team's iCal."""

from django.urls import path

import core.converters  # noqa: F401 (registers <id:...>)
from leagues import views

app_name = "leagues"

urlpatterns = [
    path("", views.league_list, name="list"),
    path("me/", views.captain_page, name="captain"),
    path("fixtures/<id:fixture_id>/", views.fixture_detail, name="fixture"),
    path("fixtures/<id:fixture_id>/print/", views.fixture_print, name="fixture-print"),
    path("fixtures/<id:fixture_id>/sheet", views.fixture_sheet, name="fixture-sheet"),
    path("fixtures/<id:fixture_id>/card", views.fixture_card, name="fixture-card"),
    path("fixtures/<id:fixture_id>/confirm", views.fixture_confirm, name="fixture-confirm"),
    path("teams/<id:team_id>/fixtures.ics", views.team_calendar, name="team-calendar"),
    path("<slug:slug>/", views.league_detail, name="detail"),
]
