"""Sheet lines over HTTP: skills, disadvantages, equipment, weapons, armour and languages."""

import pytest

from characters.items import ITEM_KINDS

from .factories import add_line, create_draft, create_submitted, snapshot
from .test_api_access import LINE_PAYLOADS

pytestmark = pytest.mark.django_db



@pytest.fixture
def draft(personas):
    return create_draft(personas)


def lines_url(character, kind, line_id=None):
    return f"/api/v1/characters/{character.pk}/{kind}/" + (f"{line_id}/" if line_id else "")


@pytest.mark.parametrize("kind", list(LINE_PAYLOADS))
def test_crud_of_every_kind(personas, api_as, draft, kind):
    client = api_as("player")
    payload = LINE_PAYLOADS[kind]
    created = client.post(lines_url(draft, kind), payload, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert {k: body[k] for k in payload} == payload
    # The player's line waits for the GM's classification; languages need none.
    assert body["classified"] is (kind == "languages")
    line_id = body["id"]
    assert ITEM_KINDS[kind].model.objects.get(pk=line_id).character_id == draft.pk

    second = client.post(lines_url(draft, kind), {**payload, "name": "Second"}, format="json").json()
    listed = client.get(lines_url(draft, kind)).json()
    assert [(line["id"], line["position"]) for line in listed] == [(line_id, 0), (second["id"], 1)]
    assert client.get(lines_url(draft, kind, line_id)).json() == body

    changed = client.patch(lines_url(draft, kind, line_id), {"name": "Renamed"}, format="json")
    assert changed.status_code == 200 and changed.json()["name"] == "Renamed"
    assert client.get(f"/api/v1/characters/{draft.pk}/").json()[kind][0]["name"] == "Renamed"

    assert client.delete(lines_url(draft, kind, line_id)).status_code == 204
    assert client.get(lines_url(draft, kind, line_id)).status_code == 404
    assert [line["id"] for line in client.get(lines_url(draft, kind)).json()] == [second["id"]]


def test_skill_answers_carry_target_and_odds(personas, api_as, draft):
    response = api_as("player").post(lines_url(draft, "skills"),
                                     {"name": "Rifle", "breadth": "weapon_type", "ranks": 3, "stat": "ACC",
                                      "weapon_category": "Firearm"}, format="json")
    body = response.json()
    # 3 ranks + foundation ⌈12 / 2⌉ + 2 = 8 → 11 or less on 3d6: 135 / 216.
    assert body["target"] == 11 and body["probability"] == 135 / 216 and body["dice"] == 3
    assert [line["value"] for line in body["target_breakdown"]] == [3, 8]
    assert body["weapon_category"] == "Firearm"


def test_gm_breadth_edit_classifies_and_player_breadth_edit_asks_again(personas, api_as, draft):
    skill = add_line(draft, "skills", personas["player"], name="Medic", breadth="broad", ranks=1, stat="PRAC")
    url = lines_url(draft, "skills", skill.pk)
    response = api_as("gm").patch(url, {"breadth": "narrow"}, format="json")
    assert response.status_code == 200
    assert response.json()["classified"] is True and response.json()["breadth"] == "narrow"
    # Ranks are the player's to change; the classification stands.
    assert api_as("player").patch(url, {"ranks": 2}, format="json").json()["classified"] is True
    assert api_as("player").patch(url, {"breadth": "specific"}, format="json").json()["classified"] is False
    # Only the GM marks a line classified.
    refused = api_as("player").patch(url, {"classified": True}, format="json")
    assert refused.status_code == 403 and "GM classifies" in refused.json()["errors"]["detail"][0]
    assert api_as("gm").patch(url, {"classified": True}, format="json").json()["classified"] is True
    assert api_as("gm").patch(url, {"classified": False}, format="json").json()["classified"] is False


def test_weapon_and_armour_costs(personas, api_as, draft):
    weapon = api_as("player").post(lines_url(draft, "weapons"),
                                   {"name": "SMG", "damage_points": 4, "rate_of_fire": 2, "extra_damage": 1,
                                    "skilled": True}, format="json").json()
    assert weapon["cost"] == (4 + 2 + 1) - (4 + 2 + 1) // 2  # halved with the skill, rounded up: 4
    armour = api_as("player").post(lines_url(draft, "armour"),
                                   {"name": "Plate", "hardness": 6, "coverage": 4, "nim_penalty": 2},
                                   format="json").json()
    assert armour["cost"] == 9 and armour["rating"] == 6  # ⌈(24 + 2) / 3⌉; 6 × 4 / 4
    assert armour["effects"]["NIM"] == -2 and armour["worn"] is True
    melee = api_as("player").post(lines_url(draft, "weapons"),
                                  {"name": "Spear", "damage_points": 3, "melee": True, "reach_steps": 3},
                                  format="json").json()
    assert melee["cost"] == 3 + 1 + 2  # damage, rate of fire, reach 3 steps at 1 per 2 rounded up


@pytest.mark.parametrize("kind, payload, field", [
    ("skills", {"name": "Medic", "breadth": "narrow", "ranks": 4, "stat": "PRAC"}, "ranks"),  # cap 3
    ("equipment", {"name": "Kit", "breadth": "narrow", "ranks": 5}, "ranks"),
    ("disadvantages", {"name": "Phobia", "value": 1, "ranks": 5}, "ranks"),  # ⌈10 / 3⌉ = 4
    ("weapons", {"name": "Sling", "damage_points": 1, "range_reduction_steps": 5}, "damage_points"),
    ("weapons", {"name": "Club", "damage_points": 3, "reach_steps": 2}, "damage_points"),  # not melee
])
def test_rules_refusals_name_a_field_and_save_nothing(personas, api_as, draft, kind, payload, field):
    before = snapshot()
    response = api_as("player").post(lines_url(draft, kind), payload, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][field][0]
    assert snapshot() == before


@pytest.mark.parametrize("make", [create_submitted])
def test_players_change_lines_only_on_drafts(personas, api_as, make):
    """A submitted sheet waits for the GM (an active one advances: test_advancement)."""
    character = make(personas)
    skill = character.skills.get()
    before = snapshot()
    client = api_as("player")
    assert client.post(lines_url(character, "languages"), LINE_PAYLOADS["languages"],
                       format="json").status_code == 409
    assert client.patch(lines_url(character, "skills", skill.pk), {"ranks": 3}, format="json").status_code == 409
    assert client.delete(lines_url(character, "skills", skill.pk)).status_code == 409
    assert snapshot() == before
    # The GM edits a submitted or active sheet.
    response = api_as("gm").patch(lines_url(character, "skills", skill.pk), {"ranks": 3}, format="json")
    assert response.status_code == 200 and response.json()["ranks"] == 3


@pytest.mark.parametrize("ranks, field", [
    ({"spoken": 3, "heard": 0}, "heard"),                      # the pair partner is at most one lower
    ({"spoken": 3, "heard": 2, "written": 0, "read": 0}, "written"),  # the other pair at most two lower
    ({"read": 2, "written": 0}, "written"),
])
def test_language_ranks_follow_the_aspect_pairs(personas, api_as, draft, ranks, field):
    """RULINGS 7: buying one aspect gives its pair partner rank − 1 and the other pair rank − 2."""
    before = snapshot()
    body = {"name": "Latin", "spoken": 0, "heard": 0, "written": 0, "read": 0, **ranks}
    response = api_as("player").post(lines_url(draft, "languages"), body, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()["errors"]
    assert snapshot() == before


def test_a_language_bought_in_one_aspect_is_accepted(personas, api_as, draft):
    body = {"name": "Latin", "spoken": 3, "heard": 2, "written": 1, "read": 1}
    assert api_as("player").post(lines_url(draft, "languages"), body, format="json").status_code == 201


def test_the_sheet_prices_languages_against_lan_and_int(personas, client, draft):
    """"Starting Languages": points = LAN, a free language per 5 INT; spoken 3 (3/2/1/1) costs 4."""
    from django.urls import reverse
    from rest_framework.test import APIClient

    from characters.selectors import character_with_sheet
    from characters.sheet import compute_sheet

    api = APIClient()
    api.force_authenticate(personas["player"])
    api.post(lines_url(draft, "languages"), {"name": "Portuguese", "native": True, "spoken": 3, "heard": 3,
                                             "written": 3, "read": 3}, format="json")
    api.post(lines_url(draft, "languages"), {"name": "Latin", "spoken": 3, "heard": 2, "written": 1, "read": 1},
             format="json")
    sheet = compute_sheet(character_with_sheet(character_id=draft.pk))
    languages = sheet.languages
    assert languages.points == draft.lan  # nothing given up from the native language
    assert languages.free_languages == sheet.derived["INT"][0] // 5
    latin = draft.languages.get(name="Latin")
    # Bought outright: 1 for the language, 3 raises of spoken. As a free language it starts at
    # spoken 1 already, so only the 2 raises to spoken 3 are paid.
    assert languages.costs[latin.pk] == (2 if languages.free_languages else 4)
    client.force_login(personas["player"])
    page = client.get(reverse("character-sheet", args=[draft.pk])).content.decode()
    assert "data-language-points" in page and f"of {draft.lan}" in page


def test_era_distance_is_the_gms_and_lowers_the_ranks_in_play(personas, api_as, client, draft):
    """RULINGS 7: each era step removes 0–0.5 rank, rounded down, never below 1 once held."""
    from django.urls import reverse

    body = {"name": "Latin", "spoken": 3, "heard": 2, "written": 1, "read": 1}
    latin = api_as("player").post(lines_url(draft, "languages"), body, format="json").json()
    url = lines_url(draft, "languages", latin["id"])
    assert api_as("player").patch(url, {"era_steps": 2, "era_step_loss": "0.5"}, format="json").status_code == 403
    response = api_as("gm").patch(url, {"era_steps": 2, "era_step_loss": "0.5"}, format="json")
    assert response.status_code == 200 and response.json()["era_steps"] == 2
    assert api_as("gm").patch(url, {"era_step_loss": "0.75"}, format="json").status_code == 400
    client.force_login(personas["player"])
    page = client.get(reverse("character-sheet", args=[draft.pk])).content.decode()
    assert "3 → 2 (-5)" in page or "3 → 2 (−5)" in page  # spoken: 3 − 2 × 0.5 = 2, a −5 language roll
    assert "1 (-10)" in page or "1 (−10)" in page  # written stays at 1: held ranks never fall below 1
