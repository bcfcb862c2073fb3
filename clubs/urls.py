"""The clubs' pages, under /clubs/."""

from django.urls import path

import core.converters  # noqa: F401 (registers <id:...>)
from clubs import views

app_name = "clubs"

urlpatterns = [
    path("", views.club_list, name="list"),
    path("<id:pk>/", views.club_detail, name="detail"),
]
