"""The lists of title matches and of series read in a fixed number of queries, whatever their length (not one
selector call an item); a title match in the list reads as it does alone."""

from __future__ import annotations

import pytest

from events import services
from events.models import TitleMatch
from tests.events.helpers import current_game, finish, players
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

#: the page's count, the page (with its players, or its stages' tournaments), the games of the page's matches
LIST_QUERIES = 3


def title_matches(director, count):
    for n in range(count):
        one, two = players(f"M{n}", [2400, 2300])
        match = services.title_match_create(acting_user=director, name=f"Title {n}", player_one=one,
                                            player_two=two, games=4, seed=n)
        if n % 2 == 0:  # half of them under way: a game won, the next one being played
            services.title_match_start(acting_user=director, match=match)
            finish(director, current_game(match), one)


def series(director, count):
    for n in range(count):
        stages = [tournaments.tournament_create(acting_user=director, name=f"Leg {n}.{k}", slug=f"leg-{n}-{k}").slug
                  for k in (1, 2)]
        services.series_create(acting_user=director, name=f"Grand Prix {n}", method="places",
                               place_points=[10, 6, 4], best_of=1, stages=stages)


@pytest.mark.parametrize("count", [1, 10])
def test_the_title_matches_list_reads_in_fixed_queries_and_as_each_alone(director, api_client, count,
                                                                        django_assert_max_num_queries):
    title_matches(director, count)
    with django_assert_max_num_queries(LIST_QUERIES):
        listed = api_client.get("/api/v1/title-matches/")
    assert listed.status_code == 200 and listed.json()["count"] == count
    items = listed.json()["results"]
    assert len(items) == count
    for item in items:
        assert item == api_client.get(f"/api/v1/title-matches/{item['slug']}/").json()
    started = [i for i in items if i["status"] == "playing"]
    assert len(started) == (count + 1) // 2
    assert all(i["score"] == ["1", "0"] and i["score_line"][1]["game"] is not None for i in started)
    assert TitleMatch.objects.count() == count


@pytest.mark.parametrize("count", [1, 10])
def test_the_series_list_reads_in_fixed_queries_each_with_its_stages(director, api_client, count,
                                                                    django_assert_max_num_queries):
    series(director, count)
    with django_assert_max_num_queries(LIST_QUERIES):
        listed = api_client.get("/api/v1/series/")
    assert listed.status_code == 200 and listed.json()["count"] == count
    for item in listed.json()["results"]:
        n = item["name"].split()[-1]
        assert [s["tournament"] for s in item["stages"]] == [f"leg-{n}-1", f"leg-{n}-2"]
        assert "standings" not in item  # across stages: GET /series/{slug}/
        detail = api_client.get(f"/api/v1/series/{item['slug']}/").json()
        assert {k: v for k, v in detail.items() if k != "standings"} == item and "standings" in detail
