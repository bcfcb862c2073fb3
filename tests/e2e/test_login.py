"""A person signs in through the browser."""

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_demo_director_signs_in_and_sees_the_home_page(page, demo_logins):
    from playwright.sync_api import expect

    logins = demo_logins
    page.goto("/")
    page.get_by_role("link", name="Sign in").click()
    page.get_by_label("Username").fill("director")
    page.get_by_label("Password").fill(logins["director"])
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_test_id("whoami")).to_have_text(re.compile(r"Signed in as director \(Director\)"))
    expect(page.get_by_role("heading", name="Demo Club Championship")).to_be_visible()
    expect(page.get_by_test_id("director-note")).to_be_visible()
    expect(page.locator("table.pairings tbody tr")).to_have_count(4)


def test_a_wrong_password_is_refused(page, demo_logins):
    from playwright.sync_api import expect

    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("director")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("did not match")
    expect(page.get_by_test_id("whoami")).to_have_count(0)
