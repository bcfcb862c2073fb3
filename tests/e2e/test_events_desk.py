"""One desk for an event of three sections, in the browser: register (a refusal says why), check everybody in,
pair each section after it; and the events' pages pass axe and fit a phone."""

from __future__ import annotations

import pytest

from tests.support.browser import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _event_of_three_sections(director):
    from events import services
    from tests.events.helpers import make_event, players, three_sections

    event = make_event(director)
    masters, major, minor = three_sections(director, event)
    groups = {masters: players("Master", [2300, 2250, 2200, 2150]), major: players("Major", [2000, 1950, 1900]),
              minor: players("Minor", [1700, 1650, 1600, 1550])}
    for section, group in groups.items():
        for player in group[1:]:
            services.registration_add(acting_user=director, event=event, section=section, player=player)
    return event, groups


def test_one_check_in_desk_for_three_sections_each_paired_after_it(page, make_user):
    from playwright.sync_api import expect

    from tournaments.models import Presence, Round

    director = make_user("td", "director", password="a-long-test-password")
    event, groups = _event_of_three_sections(director)
    sign_in(page, "td")
    page.goto(f"/events/{event.slug}/")
    page.get_by_test_id("desk-link").click()

    # the first of each group registers at the desk; a master asking for the Minor is refused, with why
    form = page.get_by_test_id("register-form")
    form.get_by_test_id("register-player").select_option(label="Master 1 (2300)")
    form.get_by_test_id("register-section").select_option(label="Minor")
    form.get_by_role("button", name="Register").click()
    expect(page.locator(".messages")).to_contain_text("Master 1's rating 2300 is above Minor's band (up to 1799).")
    for section, group in groups.items():
        first = group[0]
        form = page.get_by_test_id("register-form")
        form.get_by_test_id("register-player").select_option(label=f"{first.name} ({first.rating})")
        form.get_by_test_id("register-section").select_option(label=section.name)
        form.get_by_role("button", name="Register").click()
        expect(page.get_by_text(f"{first.name} is registered in {section.name}.")).to_be_visible()
    everybody = [p for group in groups.values() for p in group]
    expect(page.get_by_test_id("desk-row")).to_have_count(len(everybody))

    # one desk: each player checked in once, present in his section
    for player in everybody:
        page.get_by_test_id(f"check-in-{player.pk}").click()
        expect(page.locator(f"[data-testid=desk-row][data-player='{player.pk}'] [data-testid=desk-mark]")) \
            .to_have_text("present")
    for section, group in groups.items():
        assert set(Presence.objects.filter(tournament=section.tournament, round_number=1, present=True)
                   .values_list("player_id", flat=True)) == {p.pk for p in group}

    # then each section is paired from the desk
    for section in groups:
        page.get_by_test_id(f"pair-{section.pk}").click()
        expect(page.get_by_test_id(f"manage-{section.pk}")).to_be_visible()
    for section, group in groups.items():
        preview = Round.objects.get(tournament=section.tournament, number=1)
        assert preview.status == Round.Status.PREVIEW
        paired = {p for m in preview.matches.all() for p in (m.player_one_id, m.player_two_id) if p}
        assert paired == {p.pk for p in group}
        assert not preview.matches.filter(kind="forfeit").exists()  # all present: nobody forfeits

    # a section's preview is published on its own manage page, as any tournament's
    page.get_by_test_id(f"manage-{next(iter(groups)).pk}").click()
    page.get_by_role("button", name="Publish").first.click()
    expect(page.get_by_text("published", exact=False).first).to_be_visible()


def test_the_events_pages_pass_axe_and_fit_a_phone(page, make_user):
    from events import services
    from tests.e2e.test_accessibility import axe_serious, sideways
    from tests.events.helpers import current_game, finish

    director = make_user("td", "director", password="a-long-test-password")
    event, groups = _event_of_three_sections(director)
    masters = next(iter(groups))
    a, b = groups[masters][:2]
    match = services.title_match_create(acting_user=director, name="Title", slug="title", player_one=a,
                                        player_two=b, games=4, event=event)
    services.title_match_start(acting_user=director, match=match)
    finish(director, current_game(match), a)
    services.series_create(acting_user=director, name="Cup", slug="cup", method="places", place_points=[3, 2, 1],
                           stages=[s.tournament.slug for s in groups])
    sign_in(page, "td")
    problems = []
    for path in ("/events/", f"/events/{event.slug}/", f"/events/{event.slug}/desk/",
                 f"/events/{event.slug}/programme/", "/events/matches/title/", "/events/matches/title/scoresheet/",
                 "/events/series/cup/"):
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 844})
            page.goto(path)
            problems += [f"{path} at {width}: {v}" for v in axe_serious(page)]
            if width == 390 and (why := sideways(page)):
                problems.append(f"{path} scrolls sideways: {why}")
    assert not problems, "\n".join(problems)
