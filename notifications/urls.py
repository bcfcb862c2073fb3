"""Page routes of notifications."""

from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("", views.preferences, name="preferences"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("tournaments/<slug:slug>/", views.tournament_sent, name="tournament-sent"),
]
