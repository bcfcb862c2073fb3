"""The clubs' pages, under /clubs/."""

from django.urls import path

import core.converters  # noqa: F401 (registers <id:...>)
from clubs import views

app_name = "clubs"

urlpatterns = [
    path("", views.club_list, name="list"),
    path("<id:pk>/", views.club_detail, name="detail"),
    path("<id:pk>/members/add", views.member_add, name="member-add"),
    path("<id:pk>/members/change", views.member_change, name="member-change"),
    path("<id:pk>/members/remove", views.member_remove, name="member-remove"),
]
