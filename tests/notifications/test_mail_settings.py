"""Where messages go: files under var/mail/ with the embedded defaults (make run), SMTP from the environment."""

from __future__ import annotations

from email import message_from_bytes

import pytest

from tests.config.test_settings import run_django

pytestmark = pytest.mark.smoke


def test_without_a_mail_server_messages_are_files_under_var(tmp_path):
    result = run_django("""
        from django.conf import settings
        from django.core.mail import send_mail
        print(settings.EMAIL_BACKEND)
        send_mail("Round 1: board 2", "Board: 2", None, ["player1@example.org"])
    """, {"DJANGO_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "k"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.core.mail.backends.filebased.EmailBackend"
    [path] = list((tmp_path / "mail").iterdir())
    message = message_from_bytes(path.read_bytes())
    assert message["To"] == "player1@example.org" and message["Subject"] == "Round 1: board 2"


def test_production_takes_the_smtp_server_from_the_environment(tmp_path):
    result = run_django("""
        from django.conf import settings as s
        print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, s.EMAIL_USE_TLS, s.EMAIL_USE_SSL,
              s.DEFAULT_FROM_EMAIL, s.SITE_URL)
    """, {"DJANGO_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "k", "EMAIL_HOST": "smtp.example.org",
          "EMAIL_PORT": "465", "EMAIL_HOST_USER": "club", "EMAIL_HOST_PASSWORD": "pw", "EMAIL_USE_SSL": "1",
          "DEFAULT_FROM_EMAIL": "club@example.org", "SITE_URL": "https://draughts.example.org/"}, setup=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.core.mail.backends.smtp.EmailBackend", "smtp.example.org", "465",
                                     "club", "False", "True", "club@example.org", "https://draughts.example.org"]


def test_every_message_of_a_mail_file_is_read_when_one_file_holds_several(tmp_path):
    from django.core.mail import EmailMessage
    from django.core.mail.backends.filebased import EmailBackend

    from tests.support.mail_files import messages_in

    backend = EmailBackend(file_path=str(tmp_path))  # one connection, one file: both messages appended to it
    backend.send_messages([EmailMessage("Round 2", "Board 1", "td@example.org", ["captain0@example.org"]),
                           EmailMessage("Round 2", "Board 2", "td@example.org", ["captain1@example.org"])])
    assert len(list(tmp_path.glob("*.log"))) == 1
    assert [(m["To"], m.get_payload().strip()) for m in messages_in(tmp_path)] == [
        ("captain0@example.org", "Board 1"), ("captain1@example.org", "Board 2")]
