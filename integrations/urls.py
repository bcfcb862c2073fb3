"""The integrations' pages: /embed/... (frames on other sites) and a tournament's webhooks page."""

from django.urls import include, path

import core.converters  # noqa: F401 (registers <id:...>)
from integrations import views

app_name = "integrations"

embed_urls = [
    path("tournaments/<slug:slug>/standings/", views.embed_standings, name="embed-standings"),
    path("tournaments/<slug:slug>/rounds/<id:number>/pairings/", views.embed_pairings, name="embed-pairings"),
    path("tournaments/<slug:slug>/live/", views.embed_live, name="embed-live"),
    path("leagues/<slug:slug>/table/", views.embed_league_table, name="embed-league-table"),
]

webhook_urls = [
    path("", views.webhooks_page, name="webhooks"),
    path("add", views.webhooks_add, name="webhooks-add"),
    path("<id:webhook_id>/toggle", views.webhooks_toggle, name="webhooks-toggle"),
    path("<id:webhook_id>/delete", views.webhooks_delete, name="webhooks-delete"),
    path("deliveries/<id:delivery_id>/resend", views.delivery_resend, name="delivery-resend"),
]

urlpatterns = [
    path("embed/", include(embed_urls)),
    path("tournaments/<slug:slug>/webhooks/", include(webhook_urls)),
]
