"""The OpenAPI schema states every status an operation answers, with the error body, and the fields' real constraints."""

import re

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.errors import MoveSyntaxError
from games.rules.moves import parse_move_text

pytestmark = [pytest.mark.django_db, pytest.mark.smoke]

WRITES = {"post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from drf_spectacular.generators import SchemaGenerator

    with django_db_blocker.unblock():
        return SchemaGenerator(api_version="v1").get_schema(request=None, public=True)


def operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def test_every_operation_documents_the_errors_any_request_can_get(schema):
    for path, method, operation in operations(schema):
        responses = operation["responses"]
        for status in ("401", "406", "429", "503"):
            assert status in responses, (method, path, status)
        assert set(responses["429"]["headers"]) == {"Retry-After"}
        assert set(responses["503"]["headers"]) == {"Retry-After"}
        if "{" in path:
            assert "404" in responses, (method, path)
        if method in WRITES:
            for status in ("400", "403", "404", "411", "413"):
                assert status in responses, (method, path, status)
            if "requestBody" in operation:
                assert "415" in responses, (method, path)


def test_every_error_answer_is_the_error_body_in_json(schema):
    for path, method, operation in operations(schema):
        for status, response in operation["responses"].items():
            if int(status) >= 400:
                assert response["content"] == {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}, \
                    (method, path, status)
    body = schema["components"]["schemas"]["ErrorBody"]
    jsonschema.validate({"error": {"code": "not_found", "message": "Not found.", "details": {}}}, body)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"error": {"code": "not_found", "message": "Not found."}}, body)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"detail": "Not found."}, body)


def test_a_player_documents_its_404_and_me_its_401(schema):
    assert "404" in schema["paths"]["/api/v1/players/{id}/"]["get"]["responses"]
    assert "401" in schema["paths"]["/api/v1/me/"]["get"]["responses"]


def test_the_tournament_log_says_supersedes_may_be_null(schema):
    assert schema["components"]["schemas"]["TournamentLog"]["properties"]["supersedes"]["nullable"] is True


def test_the_error_answers_the_server_gives_match_the_schema(schema, api_client):
    body = schema["components"]["schemas"]["ErrorBody"]
    for response in (api_client.get("/api/v1/players/999999/"), api_client.get("/api/v1/me/"),
                     api_client.post("/api/v1/players/", {"name": "x"}, format="json")):
        assert response.status_code in (401, 404)
        jsonschema.validate(response.json(), body)


SQUARE = st.integers(0, 40).map(str) | st.sampled_from(["01", "05", "007"])
MOVE_LIKE = st.builds(
    lambda first, rest, marks, pad: pad + first + "".join(sep + square for sep, square in rest) + marks + pad,
    SQUARE, st.lists(st.tuples(st.sampled_from(["-", "x", "X", ":", " - ", "/", ""]), SQUARE), max_size=4),
    st.sampled_from(["", "!", "?!", "*", "#", "+", "a"]), st.sampled_from(["", " ", "\t"]),
)


@settings(max_examples=500, deadline=None)
@given(text=MOVE_LIKE | st.text(alphabet="0123456789-xX: !?*", max_size=12))
def test_the_schema_pattern_of_a_move_accepts_exactly_what_the_parser_accepts(schema, text):
    pattern = schema["components"]["schemas"]["MoveRequest"]["properties"]["move"]["pattern"]
    try:
        parse_move_text(text)
        accepted = True
    except MoveSyntaxError:
        accepted = False
    assert bool(re.search(pattern, text)) == accepted, text


def test_constraints_checked_by_code_are_stated_in_the_schema(schema, settings, client_as, director):
    components = schema["components"]["schemas"]
    days = components["ApiTokenCreate"]["properties"]["days"]
    assert (days["minimum"], days["maximum"]) == (1, settings.API_TOKEN_MAX_DAYS)
    assert components["TournamentCreate"]["properties"]["games_per_match"]["multipleOf"] == 2
    name = components["Player"]["properties"]["name"]["pattern"]
    assert re.search(name, "Agnes") and not re.search(name, "   ")
    assert not re.search(name, 'Mallory\n[Result "1-0"]') and not re.search(name, "Tab\tby")  # core.text
    venue = components["TournamentCreate"]["properties"]["venue"]["pattern"]
    assert re.search(venue, "") and not re.search(venue, "Hall\r\n")
    api = client_as(director)
    # what the schema refuses, the server refuses; what it allows at the bound, the server takes
    assert api.post("/api/v1/me/tokens/", {"name": "t", "days": days["maximum"] + 1}, format="json").status_code == 400
    assert api.post("/api/v1/me/tokens/", {"name": "t", "days": days["maximum"]}, format="json").status_code == 201
    assert api.post("/api/v1/players/", {"name": "   "}, format="json").status_code == 400
