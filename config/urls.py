"""URL configuration: pages, the versioned API under /api/v1/, health, admin."""

from csp.decorators import csp_update
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config import views
from core.api import json_not_found

# The API docs (Swagger UI, served from drf-spectacular-sidecar): the split view loads its
# start-up code as a script from this server (``?script``) instead of inline, so scripts stay
# 'self' only; Swagger UI's page carries a <style> block and its stylesheet uses data: images,
# so this page alone also allows inline styles and data: images.
DOCS_CSP = {"style-src": ["'unsafe-inline'"], "img-src": ["data:"]}
api_docs = csp_update(DOCS_CSP)(SpectacularSwaggerSplitView.as_view(url_name="v1:schema"))

api_v1 = [
    path("schema/", SpectacularAPIView.as_view(api_version="v1"), name="schema"),
    path("docs/", api_docs, name="docs"),
    path("", include("config.api_urls")),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    # The "Live games" page reads across tournaments (tournaments.selectors); a game's own pages are arbitration's.
    path("games/", views.live_games, name="live-games"),
    path("games/", include("arbitration.urls")),
    path("", include("integrations.urls")),  # /embed/..., /tournaments/<slug>/webhooks/
    path("tournaments/", include("tournaments.urls")),
    path("clubs/", include("clubs.urls")),
    path("leagues/", include("leagues.urls")),
    path("events/", include("events.urls")),
    path("notifications/", include("notifications.urls")),
    path("api/v1/", include((api_v1, "v1"), namespace="v1")),
    re_path(r"^api(?:/.*)?$", json_not_found),
]

# Test servers only (DJANGO_TEST_ENDPOINTS=1, never in production): a request that holds the
# database's write lock, for the tests of the request time limits (tests/config/test_request_time_limit.py).
if settings.TEST_ENDPOINTS:
    urlpatterns.insert(0, path("api/test-only/hold-write-lock", views.hold_write_lock))

handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"
