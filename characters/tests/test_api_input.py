"""Whatever a client sends to a character endpoint, the answer is never a 500.

Every write endpoint gets every field replaced by values of the wrong type, out of range or
malformed (strings for numbers, lists, objects, null, huge numbers, bad Unicode), bodies that
are not JSON objects at all, and payloads with a required field missing. Each must be a 400
with field messages, and leave the database exactly as it was.
"""

import json

import pytest
from django.db import transaction
from rest_framework import serializers

from campaign.models import LogEntry
from campaign.services import campaign_create, campaign_update
from campaign.testing import arranged
from characters import api_system_sheets as system_sheet_api
from characters import serializers as s
from characters.serializers.common import TradesField
from characters.system_sheets import system_sheet_create
from combat import api_system_fights as fight_api
from combat.system_fights import system_fight_start
from zenergate_site.api_fields import FlagField, TextField, WholeNumberField

from .factories import (
    INT_DICE,
    STATS,
    add_line,
    create_draft,
    create_submitted,
    snapshot,
)
from .test_api_access import LINE_PAYLOADS

pytestmark = pytest.mark.django_db

HUGE = 10**40
NUMBER_JUNK = ["1", "abc", "", 1.5, True, None, [], {}, [1], HUGE, -HUGE]
FLAG_JUNK = ["true", 1, 0, None, [], {}, "yes"]
TEXT_JUNK = [12, 1.5, True, None, [], {}, ["x"], "x" * 20_001, "\ud800", "a\x00b"]
MOMENT_JUNK = ["yesterday", "2026-13-45T99:00:00", 12, None, [], {}, True, "1" * 300]
CHOICE_JUNK = ["nope", 12, None, [], {}, True, ""]
JSON_JUNK = ["x", 12, True, None, {"zz": 1}, [1]]  # a sheet's lines (a list) and numbers (named values)
STATS_JUNK = ["x", [], None, 12, {"STR": "12"}, {"STR": 41}, {"STR": 0}, {"LUCK": 3}, {"STR": HUGE},
              {"STR": None}, {"STR": 12.5}, {"STR": [12]}]
TRADES_JUNK = [[], "x", None, 3, {"LUCK": 1}, {"STR": "1"}, {"STR": HUGE}, {"STR": 1.5}, {"STR": None},
               {"STR": {"a": 1}}]
SWAPS_JUNK = [{}, "x", None, [None], ["STR"], [{"lowered": "STR"}], [{"lowered": "X", "raised": "STR"}],
              [{"lowered": "STR", "raised": "CON", "extra": 1}], [{"lowered": 1, "raised": 2}],
              [{"lowered": "STR", "raised": "CON"}] * 41]
DICE_JUNK = ["x", None, {}, 4, [4], [4, 2, 1], [0, 7], ["4", "2"], [4.5, 2], [True, 2], [HUGE, 2], [None, 2]]
BODY_JUNK = ["not json{", "[1, 2]", "null", "12", '"text"', "true", "[" * 50_000, '{"a": NaN}', "{" * 50_000,
             '{"a": 1e999}']


def junk_for(field) -> list:
    """Return wrong values for one serializer field, chosen by its type."""
    if isinstance(field, TradesField):
        return TRADES_JUNK
    if isinstance(field, serializers.ListSerializer):
        return SWAPS_JUNK
    if isinstance(field, serializers.ListField):
        return DICE_JUNK
    if isinstance(field, serializers.Serializer):
        return STATS_JUNK
    if isinstance(field, FlagField):
        return FLAG_JUNK
    if isinstance(field, WholeNumberField):  # null is a value where the field takes it (a weapon's skill: none)
        return [v for v in NUMBER_JUNK if v is not None or not field.allow_null]
    if isinstance(field, serializers.ChoiceField):  # "" is a choice of its own for some (equipment's fate: none)
        return [v for v in CHOICE_JUNK if not (isinstance(v, str) and v in field.choices)]
    if isinstance(field, serializers.DateTimeField):
        return MOMENT_JUNK
    if isinstance(field, serializers.DecimalField):
        return ["half", "0.75", -1, "1e999", [], {}, True, "NaN"]
    if isinstance(field, TextField):
        return [v for v in TEXT_JUNK if v != "" or not field.allow_blank]
    if isinstance(field, serializers.JSONField):
        return JSON_JUNK
    raise AssertionError(f"no junk for {field!r}")



def endpoints(personas) -> list[tuple]:
    """Return (label, method, path, input serializer, a valid body or None for a PATCH) for each write."""
    draft = create_draft(personas)
    add_line(draft, "skills", personas["gm"], is_gm=True, name="Medic", breadth="narrow", ranks=1, stat="PRAC")
    lines = {kind: add_line(draft, kind, personas["gm"], is_gm=True, **payload)
             for kind, payload in LINE_PAYLOADS.items()}
    submitted = create_submitted(personas, owner="other_player", name="Submitted")
    c = f"/api/v1/characters/{draft.pk}/"
    calls = [
        ("create", "post", "/api/v1/characters/", s.CharacterCreateIn,
         {"campaign": personas["campaign"].pk, "name": "Mara", "stats": STATS, "int_dice": INT_DICE}),
        ("edit", "patch", c, s.CharacterPatchIn, None),
        ("submit", "post", c + "submit/", s.NoBodyIn, {}),
        ("approve", "post", f"/api/v1/characters/{submitted.pk}/approve/", s.NoBodyIn, {}),
        ("return", "post", f"/api/v1/characters/{submitted.pk}/return/", s.ReturnIn, {"comment": "Fix"}),
        ("revert", "post", c + "history/", s.RevertIn, {"history_id": draft.history.earliest().history_id}),
    ]
    for kind, payload in LINE_PAYLOADS.items():
        line_in = s.LINE_SERIALIZERS[kind][0]
        calls.append((f"add {kind}", "post", c + f"{kind}/", line_in, payload))
        calls.append((f"edit {kind}", "patch", c + f"{kind}/{lines[kind].pk}/", line_in, None))
    # A sheet of another rule set, in a campaign of the GM's that plays Success Check.
    other = campaign_update(campaign=campaign_create(name="Edge of night", by=personas["gm"]), by=personas["gm"],
                            rule_set="success_check")
    sheet = system_sheet_create(campaign=other, owner=personas["gm"], by=personas["gm"], name="Kestrel",
                                numbers={"edge_max": 3})
    skills = [{"name": "Deception", "inputs": {"bonus": 12}}]
    calls += [
        ("make a sheet", "post", f"/api/v1/campaigns/{other.pk}/system-sheets/", system_sheet_api.SystemSheetIn,
         {"name": "Wren", "lines": skills, "numbers": {"edge_max": 2}}),
        ("edit a sheet", "patch", f"/api/v1/system-sheets/{sheet.pk}/", system_sheet_api.SystemSheetIn, None),
        ("spend Edge", "post", f"/api/v1/system-sheets/{sheet.pk}/pools/", system_sheet_api.PoolIn,
         {"pool": "edge", "action": "spend", "use": "advantage", "idempotency_key": "k-1"}),
    ]
    # A ZeroSpace fight, started and moved on.
    warehouse = campaign_update(campaign=campaign_create(name="Warehouse night", by=personas["gm"]),
                                by=personas["gm"], rule_set="zerospace")
    soraya = system_sheet_create(campaign=warehouse, owner=personas["gm"], by=personas["gm"], name="Soraya")
    fight = system_fight_start(campaign=warehouse, by=personas["gm"], name="Warehouse",
                               fighters=[{"sheet": soraya.pk, "total": 12}, {"name": "Goon", "total": 3}])
    calls += [
        ("start a fight", "post", f"/api/v1/campaigns/{warehouse.pk}/system-fights/", fight_api.SystemFightIn,
         {"name": "Docks", "fighters": [{"sheet": soraya.pk, "total": 10}, {"name": "Goon", "total": 4}]}),
        ("move a fight", "post", f"/api/v1/system-fights/{fight.pk}/actions/", fight_api.FightActionIn,
         {"action": "next"}),
        ("strike a blow", "post", f"/api/v1/system-fights/{fight.pk}/blows/", fight_api.BlowIn,
         {"attacker": "Soraya", "target": "Goon", "inputs": {"av": 6, "dv": 3}, "idempotency_key": "b-1"}),
        ("a blow's odds", "post", f"/api/v1/system-fights/{fight.pk}/blows/preview/", fight_api.BlowIn,
         {"attacker": "Soraya", "target": "Goon", "inputs": {"av": 6, "dv": 3}}),
    ]
    return calls


def bad_bodies(serializer_class, valid):
    """Yield (description, JSON text) for every wrong body of one endpoint."""
    for text in BODY_JUNK:
        yield f"body {text[:20]!r}", text
    yield "unknown field", json.dumps({**(valid or {}), "karma": 100})
    for name, field in serializer_class().fields.items():
        for value in junk_for(field):
            body = {**valid, name: value} if valid is not None else {name: value}
            yield f"{name}={json.dumps(value)[:30]}", json.dumps(body)
        if valid is not None and field.required:
            yield f"{name} missing", json.dumps({k: v for k, v in valid.items() if k != name})


def test_wrong_input_to_every_write_endpoint_is_a_400_that_changes_nothing(personas, api_as):
    client = api_as("gm")  # the GM may call every endpoint, so only the input can be wrong
    failures, tried = [], 0
    for label, method, path, serializer_class, valid in endpoints(personas):
        before = snapshot()
        for what, text in bad_bodies(serializer_class, valid):
            log_before = LogEntry.objects.count()  # every service logs: a cheap check per request
            response = client.generic(method.upper(), path, data=text, content_type="application/json")
            tried += 1
            if response.status_code != 400 or not response.json().get("errors") \
                    or LogEntry.objects.count() != log_before:
                failures.append(f"{label} {what}: {response.status_code} {response.content[:200]!r}")
        if snapshot() != before:
            failures.append(f"{label}: the database changed")
    assert not failures, f"{len(failures)} of {tried}:\n" + "\n".join(failures)
    assert tried > 1000


def test_the_valid_payloads_above_are_valid(personas, api_as):
    """The junk test means something only if its base payloads are accepted."""
    client = api_as("gm")
    for label, method, path, _, valid in endpoints(personas):
        with transaction.atomic():
            response = getattr(client, method)(path, valid if valid is not None else {"name": "Fine"},
                                               format="json")
            assert response.status_code in (200, 201), (label, response.json())
            transaction.set_rollback(True)


def test_other_content_types_are_refused_not_crashed(personas, api_as):
    draft = create_draft(personas)
    before = snapshot()
    response = api_as("player").patch(f"/api/v1/characters/{draft.pk}/", "name=Hacked",
                                      content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415 and response.json()["errors"]
    response = api_as("player").generic("POST", f"/api/v1/characters/{draft.pk}/skills/", b"\xff\xfe{",
                                        content_type="application/json")
    assert response.status_code == 400
    assert snapshot() == before


@pytest.mark.parametrize("path, text, field", [
    ("skills/", '{"\\ud800": 1}', "detail"),  # an unknown field: its name used to be quoted back
    ("skills/", '{"name": "Medic", "breadth": "\\udfff", "ranks": 1, "stat": "PRAC"}', "breadth"),  # a choice
    ("", '{"state": "\\ud800"}', "state"),
    ("", '{"stats": {"\\ud800": 12}}', "stats"),
    ("", '{"trades": {"STR": 1, "\\ud800": -1}}', "trades"),
    ("", '{"karma_swaps": [{"lowered": "STR", "raised": "\\ud800"}]}', "karma_swaps"),
])
def test_a_lone_surrogate_in_a_key_or_a_choice_is_a_400_not_a_500(personas, api_as, path, text, field):
    """JSON may spell a lone surrogate ("\\ud800"); an error quoting it back could not be written out."""
    draft = create_draft(personas)
    before = snapshot()
    method = "POST" if path else "PATCH"
    response = api_as("gm").generic(method, f"/api/v1/characters/{draft.pk}/{path}", data=text,
                                    content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"] == {field: ["Surrogate characters are not allowed: U+" +
                                                 ("DFFF" if "udfff" in text else "D800") + "."]}
    assert snapshot() == before


def test_entered_stats_stay_within_the_campaign_stat_dice(personas, api_as):
    """Issue "Done when": a 4d6 campaign refuses STR 1, naming the range; the GM may override."""
    from campaign.models import LogEntry
    from characters.models import Character

    campaign = personas["campaign"]
    campaign.stat_dice = "4d6"
    with arranged(campaign):
        campaign.save(update_fields=["stat_dice"])
    stats = {"STR": 1, "CON": 14, "RES": 13, "NIM": 15, "DEX": 16, "ACC": 12, "MEL": 10, "PRAC": 15, "THEO": 14,
             "ENC": 13, "LAN": 12, "AWA": 16, "PERS": 14}
    body = {"campaign": campaign.pk, "name": "Weakling", "stats": stats, "int_dice": [3, 3]}
    refused = api_as("player").post("/api/v1/characters/", body, format="json")
    assert refused.status_code == 400
    assert "4–24" in refused.json()["errors"]["stats"][0] and "STR 1" in refused.json()["errors"]["stats"][0]
    assert not Character.objects.filter(name="Weakling").exists()
    # A player's reason is not the GM's word.
    assert api_as("player").post("/api/v1/characters/", {**body, "override_reason": "please"},
                                 format="json").status_code == 400
    allowed = api_as("gm").post("/api/v1/characters/", {**body, "override_reason": "Cursed at birth (house rule)"},
                                format="json")
    assert allowed.status_code == 201, allowed.json()
    assert LogEntry.objects.filter(action="character.stats_override", summary__contains="Cursed").exists()
