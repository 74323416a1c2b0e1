"""Who may call what: every character endpoint for every persona.

gm, player (owns the character), other_player, viewer, outsider (in no campaign) and anonymous.
Members read; the owner writes a draft; other players and viewers get 403 on writes; the GM's
own actions are 403 for everyone else; outsiders get 404 and anonymous callers 401. Each
persona's request runs in a savepoint that is rolled back, so every persona meets the same sheet;
a refused request must leave the database as it found it.
"""

from dataclasses import dataclass, field

import pytest
from django.db import transaction

from .factories import (
    INT_DICE,
    STATS,
    add_line,
    create_active,
    create_draft,
    create_submitted,
    snapshot,
)

pytestmark = pytest.mark.django_db

PERSONAS = ("gm", "player", "other_player", "viewer", "outsider", None)

LINE_PAYLOADS = {
    "skills": {"name": "Climbing", "breadth": "specific", "ranks": 1, "stat": "STR"},
    "disadvantages": {"name": "Nightmares", "value": 1, "ranks": 1},
    "equipment": {"name": "Rope", "breadth": "specific"},
    "weapons": {"name": "Knife", "damage_points": 2, "melee": True},
    "armour": {"name": "Jacket", "hardness": 1, "coverage": 2},
    "languages": {"name": "Latin", "spoken": 1, "heard": 1, "written": 2, "read": 2},
}



def read(ok=200):
    return {"gm": ok, "player": ok, "other_player": ok, "viewer": ok, "outsider": 404, None: 401}


def owner_write(ok):
    return {"gm": ok, "player": ok, "other_player": 403, "viewer": 403, "outsider": 404, None: 401}


def gm_only(ok=200):
    return {"gm": ok, "player": 403, "other_player": 403, "viewer": 403, "outsider": 404, None: 401}


@dataclass
class Call:
    method: str
    path: str  # formatted with the sheet's ids: {c}, {campaign}, {line}, {history}
    expected: dict
    payload: dict | None = None
    sheet: str = "draft"  # the state of the character it acts on
    kind: str = "skills"  # which line {line} names
    label: str = field(default="")

    def __post_init__(self):
        self.label = self.label or f"{self.method} {self.path} ({self.sheet})"


CALLS = [
    Call("get", "characters/", read() | {"outsider": 200}),
    Call("get", "characters/?campaign={campaign}", read()),
    Call("post", "characters/", read(201) | {"viewer": 403},
         {"campaign": "{campaign}", "name": "New", "stats": STATS, "int_dice": INT_DICE}),
    Call("get", "characters/{c}/", read()),
    Call("get", "characters/{c}/budget/", read()),
    Call("get", "characters/{c}/history/", read()),
    Call("patch", "characters/{c}/", owner_write(200), {"name": "Renamed"}),
    Call("delete", "characters/{c}/", owner_write(204)),
    Call("post", "characters/{c}/submit/", owner_write(200)),
    Call("patch", "characters/{c}/", gm_only(), {"gm_notes": "Secret"}, label="PATCH gm_notes"),
    Call("patch", "characters/{c}/", gm_only(), {"state": "dead"}, sheet="active", label="PATCH state"),
    Call("post", "characters/{c}/approve/", gm_only(), sheet="submitted"),
    Call("post", "characters/{c}/return/", gm_only(), {"comment": "Fix it"}, sheet="submitted"),
    Call("post", "characters/{c}/history/", gm_only(), {"history_id": "{history}"}),
]
for _kind, _payload in LINE_PAYLOADS.items():
    CALLS += [
        Call("get", f"characters/{{c}}/{_kind}/", read(), kind=_kind),
        Call("post", f"characters/{{c}}/{_kind}/", owner_write(201), _payload, kind=_kind),
        Call("get", f"characters/{{c}}/{_kind}/{{line}}/", read(), kind=_kind),
        Call("patch", f"characters/{{c}}/{_kind}/{{line}}/", owner_write(200), {"name": "Renamed"}, kind=_kind),
        Call("delete", f"characters/{{c}}/{_kind}/{{line}}/", owner_write(204), kind=_kind),
    ]


def build_sheet(personas, state: str):
    """Return the player's character in ``state`` with one line of every kind."""
    if state == "draft":
        character = create_draft(personas)
        add_line(character, "skills", personas["gm"], is_gm=True, name="Medic", breadth="narrow", ranks=2,
                 stat="PRAC")
    else:
        character = (create_submitted if state == "submitted" else create_active)(personas)
    lines = {"skills": character.skills.get()}
    for kind, payload in LINE_PAYLOADS.items():
        if kind != "skills":
            lines[kind] = add_line(character, kind, personas["gm"], is_gm=True, **payload)
    return character, lines


def fill(value, ids):
    if isinstance(value, str):
        if value in ("{history}", "{campaign}"):
            return ids[value.strip("{}")]
        return value.format(**ids)
    if isinstance(value, dict):
        return {k: fill(v, ids) for k, v in value.items()}
    return value


@pytest.mark.parametrize("call", CALLS, ids=lambda call: call.label)
def test_every_persona_against_every_endpoint(personas, api_as, call):
    character, lines = build_sheet(personas, call.sheet)
    ids = {"c": character.pk, "campaign": personas["campaign"].pk, "line": lines[call.kind].pk,
           "history": character.history.earliest().history_id}
    path = "/api/v1/" + call.path.format(**ids)
    payload = fill(call.payload, ids)
    seen = {}
    for persona in PERSONAS:
        with transaction.atomic():
            before = snapshot()
            client = api_as(persona)
            kwargs = {"format": "json"} if payload is not None else {}
            response = getattr(client, call.method)(path, payload, **kwargs)
            seen[persona] = response.status_code
            if response.status_code >= 400:
                assert "errors" in response.json(), (persona, response.content)
                assert snapshot() == before, f"{persona}'s refused {call.label} changed something"
            transaction.set_rollback(True)
    assert seen == call.expected


def test_writes_to_another_players_character_are_403_even_for_its_lines(personas, api_as):
    mine = create_draft(personas, owner="other_player", name="Not yours")
    skill = add_line(mine, "skills", personas["other_player"], name="Medic", breadth="narrow", ranks=1, stat="PRAC")
    client = api_as("player")
    before = snapshot()
    assert client.patch(f"/api/v1/characters/{mine.pk}/skills/{skill.pk}/", {"ranks": 2},
                        format="json").status_code == 403
    assert client.delete(f"/api/v1/characters/{mine.pk}/skills/{skill.pk}/").status_code == 403
    assert client.post(f"/api/v1/characters/{mine.pk}/submit/").status_code == 403
    assert snapshot() == before


@pytest.mark.parametrize("path", ["characters/999999999/", "characters/99999999999999999999999/",
                                  "characters/999999999/skills/", "characters/999999999/budget/"])
def test_unknown_characters_are_404(personas, api_as, path):
    assert api_as("gm").get("/api/v1/" + path).status_code == 404


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
def test_a_line_of_another_sheet_is_404(personas, api_as, method):
    mine = create_draft(personas)
    other = create_draft(personas, owner="other_player", name="Other")
    foreign = add_line(other, "skills", personas["other_player"], name="Medic", breadth="narrow", ranks=1,
                       stat="PRAC")
    before = snapshot()
    for kind in ("skills", "weapons"):  # a skill's id read as a weapon's id finds nothing either
        response = getattr(api_as("gm"), method)(f"/api/v1/characters/{mine.pk}/{kind}/{foreign.pk}/",
                                                 {"name": "Hijacked"}, format="json")
        assert response.status_code == 404
    for huge in (10**12, 10**25):
        assert getattr(api_as("gm"), method)(f"/api/v1/characters/{mine.pk}/skills/{huge}/",
                                             {"name": "x"}, format="json").status_code == 404
    assert snapshot() == before
