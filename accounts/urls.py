"""Account pages under /accounts/: sign-in, sign-out, password change, API tokens."""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("tokens/", views.tokens, name="tokens"),
    path("password/", auth_views.PasswordChangeView.as_view(
        success_url=reverse_lazy("accounts:password_change_done")), name="password_change"),
    path("password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
]
