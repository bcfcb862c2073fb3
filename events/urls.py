"""Page routes of events: events and their desk, title matches, series."""

from django.urls import path

from events import views

app_name = "events"

urlpatterns = [
    path("", views.event_list, name="list"),
    path("new", views.event_new, name="new"),
    path("matches/new", views.title_match_new, name="match-new"),
    path("series/new", views.series_new, name="series-new"),
    path("matches/<slug:slug>/", views.title_match_detail, name="match"),
    path("matches/<slug:slug>/start", views.title_match_start, name="match-start"),
    path("matches/<slug:slug>/scoresheet/", views.title_match_scoresheet, name="match-scoresheet"),
    path("series/<slug:slug>/", views.series_detail, name="series"),
    path("<slug:slug>/", views.event_detail, name="detail"),
    path("<slug:slug>/desk/", views.event_desk, name="desk"),
    path("<slug:slug>/desk/register", views.desk_register, name="desk-register"),
    path("<slug:slug>/desk/check-in", views.desk_check_in, name="desk-check-in"),
    path("<slug:slug>/desk/pair", views.desk_pair, name="desk-pair"),
    path("<slug:slug>/desk/sections", views.section_new, name="section-new"),
    path("<slug:slug>/programme/", views.event_programme, name="programme"),
]
