"""A document the import refuses: 400 naming the path of every problem, and nothing created."""

import copy
import random

import pytest
from django.apps import apps

from transfer import services

pytestmark = pytest.mark.django_db


def _row_counts() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in apps.get_models()
            if model._meta.app_label in ("campaign", "characters", "combat", "downtime", "rolls")}


@pytest.fixture
def document(personas, make_character):
    """A small valid document: one approved character with a ledger and a roll, in the personas' campaign."""
    from rolls.services import roll_notation

    make_character("player", karma=12)
    roll_notation(campaign=personas["campaign"], by=personas["player"], text="2d6", rng=random.Random(1))
    return services.export_campaign(personas["campaign"])


def _post(api_as, body):
    before = _row_counts()
    response = api_as("outsider").post("/api/v1/campaigns/import/", body, format="json")
    assert _row_counts() == before
    return response


def _breaks(document, change):
    bad = copy.deepcopy(document)
    change(bad)
    return bad


def _set(path, value):
    def change(document):
        *parents, last = path
        target = document
        for step in parents:
            target = target[step]
        target[last] = value
    return change


CASES = [
    ("wrong version", _set(["version"], 2), "version"),
    ("a version that is text", _set(["version"], "1"), "version"),
    ("wrong format", _set(["format"], "someone-elses-campaign"), "format"),
    ("unknown top-level key", _set(["extras"], []), "extras"),
    ("unknown key in a row", _set(["characters", 0, "nickname"], "Dot"), "characters[0].nickname"),
    ("unknown key in a line", _set(["characters", 0, "skills", 0, "colour"], "red"), "characters[0].skills[0].colour"),
    ("wrong type", _set(["characters", 0, "str"], "12"), "characters[0].str"),
    ("a boolean for a number", _set(["characters", 0, "con"], True), "characters[0].con"),
    ("a number for text", _set(["campaign", "description"], 7), "campaign.description"),
    ("an object for a list", _set(["ledger"], {}), "ledger"),
    ("a bad choice", _set(["characters", 0, "state"], "undead"), "characters[0].state"),
    ("a naive timestamp", _set(["ledger", 0, "created_at"], "2024-05-01T10:00:00"), "ledger[0].created_at"),
    ("dangling reference", _set(["ledger", 0, "character"], "character-99"), "ledger[0].character"),
    ("a reference that is a number", _set(["ledger", 0, "character"], 1), "ledger[0].character"),
    ("over-long campaign name", _set(["campaign", "name"], "x" * 121), "campaign.name"),
    ("over-long character name", _set(["characters", 0, "name"], "x" * 81), "characters[0].name"),
    ("over-long skill name", _set(["characters", 0, "skills", 0, "name"], "x" * 81), "characters[0].skills[0].name"),
    ("a missing required field", lambda d: d["characters"][0].pop("name"), "characters[0].name"),
    ("a stat the database refuses", _set(["characters", 0, "str"], 41), "characters[0].str"),
    ("a number past the column", _set(["characters", 0, "trauma"], 2 ** 40), "characters[0].trauma"),
    ("a balance below zero", _set(["ledger", 0, "amount"], -5), "ledger[0].amount"),
    ("two rows with one key", lambda d: d["ledger"].insert(1, copy.deepcopy(d["ledger"][0])), "ledger[1].key"),
    ("two openings", lambda d: d["ledger"].insert(1, {**copy.deepcopy(d["ledger"][0]), "key": "again",
                                                   "idempotency_key": None}), "ledger[1].character"),
    ("NUL in text", _set(["campaign", "description"], "a\x00b"), "campaign.description"),
    ("a member twice", lambda d: d["members"].append(dict(d["members"][0])), "members[4].username"),
    ("an unknown rule set", _set(["campaign", "rule_set"], "chess"), "campaign.rule_set"),
    ("a ruling the rule set lacks", _set(["campaign", "rulings"], {"house_rule": 1}), "campaign.rulings.house_rule"),
    ("a roll whose dice are no list", _set(["rolls", 0, "dice"], {"2d6": [3, 4]}), "rolls[0].dice"),
    ("a line number that is no line", _set(["characters", 0, "history", "skills", 0, "line"], -1),
     "characters[0].history.skills[0].line"),
]


@pytest.mark.parametrize("change, path", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_bad_document_is_refused_naming_the_path(api_as, document, change, path):
    response = _post(api_as, _breaks(document, change))

    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert path in errors, errors
    assert all(isinstance(m, str) and m for m in errors[path])


@pytest.mark.parametrize("body", [[], "a campaign", None, 12])
def test_a_body_that_is_not_an_object_is_refused(api_as, document, body):
    response = _post(api_as, body)
    assert response.status_code == 400 and response.json()["errors"]


def test_every_problem_is_named_at_once(api_as, document):
    def change(d):
        d["campaign"]["name"] = "x" * 121
        d["characters"][0]["str"] = "strong"
        d["ledger"][0]["character"] = "nobody"

    errors = _post(api_as, _breaks(document, change)).json()["errors"]
    assert {"campaign.name", "characters[0].str", "ledger[0].character"} <= set(errors)


def test_combatants_are_named_within_their_encounter(personas, api_as, make_character):
    from combat import services as combat

    alice = make_character("player")
    gm = personas["gm"]
    for name in ("One", "Two"):
        fight = combat.encounter_create(campaign=personas["campaign"], by=gm, name=name)
        combat.combatant_add(encounter=fight, by=gm, character_id=alice.pk)
    document = services.export_campaign(personas["campaign"])
    other = document["encounters"][1]["combatants"][0]["key"]
    document["encounters"][0]["log"][1]["data"]["combatant"] = other

    errors = _post(api_as, document).json()["errors"]
    assert "encounters[0].log[1].data.combatant" in errors


def test_the_page_upload_refuses_text_that_is_not_text(personas, client, document):
    """The page reads the file itself (no API parser): a lone surrogate is refused by the checks."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    body = '{"format": "zenergate-campaign", "version": 1, "campaign": {"name": "\\ud800"}}'
    client.force_login(personas["outsider"])
    before = _row_counts()
    response = client.post("/campaigns/import/", {"document": SimpleUploadedFile("c.json", body.encode())},
                           follow=True)
    assert _row_counts() == before
    assert "campaign.name" in response.content.decode()


def test_what_the_database_still_refuses_is_a_400_too(api_as, document, monkeypatch):
    """A rule the checks do not know (here: a foreign key to nothing) is caught before the commit."""
    from transfer import importing

    save = importing.Importer.save

    def save_with_a_broken_row(self):
        self.characters[next(iter(self.characters))].owner_id = 10 ** 12
        save(self)

    monkeypatch.setattr(importing.Importer, "save", save_with_a_broken_row)
    response = _post(api_as, document)
    assert response.status_code == 400
    assert "rule of the database" in response.json()["errors"]["detail"][0]
