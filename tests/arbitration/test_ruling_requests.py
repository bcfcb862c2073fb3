"""Each kind of ruling has its own request: checked once, before the game is locked, and documented in the schema."""

from __future__ import annotations

import pytest

from arbitration.rulings import RULINGS
from arbitration.rulings.requests import FIELDS

pytestmark = pytest.mark.django_db


def _schema(client) -> dict:
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


def test_the_schema_documents_every_kind_of_ruling_as_a_one_of_with_kind_as_discriminator(client):
    schema = _schema(client)
    body = schema["paths"]["/api/v1/games/{id}/rulings/"]["post"]["requestBody"]["content"]["application/json"]
    ruling = schema["components"]["schemas"][body["schema"]["$ref"].rsplit("/", 1)[1]]
    assert ruling["discriminator"]["propertyName"] == "kind"
    mapping = ruling["discriminator"]["mapping"]
    assert set(mapping) == set(RULINGS) and len(ruling["oneOf"]) == len(RULINGS)
    for kind, ref in mapping.items():
        component = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
        required = set(component.get("required", []))
        expected = {name for name, field in FIELDS[kind].items() if field.required} | {"kind"}
        assert required == expected, kind
        assert set(component["properties"]) >= {"kind", "side", "note", *FIELDS[kind]}, kind


def test_the_adjudication_body_names_its_result_choices(client):
    schemas = _schema(client)["components"]["schemas"]
    result = schemas["AdjudicateRuling"]["properties"]["result"]
    ref = (result.get("allOf") or [result])[0]["$ref"]
    choices = schemas[ref.rsplit("/", 1)[1]]["enum"]
    assert set(choices) == {"1-0", "0-1", "1/2-1/2"}


@pytest.mark.parametrize("kind", [kind for kind, fields in FIELDS.items() if any(f.required for f in fields.values())])
def test_a_ruling_without_its_required_fields_is_refused_before_the_game_is_read(kind, referee, client_as):
    response = client_as(referee).post("/api/v1/games/999999/rulings/", {"kind": kind, "side": "black"},
                                       format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    missing = {name for name, field in FIELDS[kind].items() if field.required}
    assert error["code"] == "validation_error" and set(error["details"]["fields"]) == missing


def test_a_field_of_the_wrong_type_names_the_field(referee, client_as, new_game):
    game = new_game()
    response = client_as(referee).post(f"/api/v1/games/{game.pk}/rulings/",
                                       {"kind": "over_the_angle", "side": "black", "square": "ten", "toward": 14},
                                       format="json")
    assert response.status_code == 400
    assert set(response.json()["error"]["details"]["fields"]) == {"square"}


@pytest.mark.parametrize("body", [["kind", "resign"], "resign", {"side": "black"}, {"kind": ["resign"]}])
def test_a_body_that_is_no_ruling_is_a_clear_400(body, referee, client_as, new_game):
    game = new_game()
    response = client_as(referee).post(f"/api/v1/games/{game.pk}/rulings/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "validation_error"
