"""The characters API: building, reading and reviewing a sheet over HTTP."""

import pytest

from campaign.models import LogEntry
from campaign.testing import arranged
from characters.models import Character

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



def url(character, tail: str = "") -> str:
    pk = character if isinstance(character, int) else character.pk
    return f"/api/v1/characters/{pk}/{tail}"


@pytest.fixture
def draft(personas):
    return create_draft(personas)


# --- Create ------------------------------------------------------------------------------
def test_create_returns_the_computed_sheet(personas, api_as):
    payload = {"campaign": personas["campaign"].pk, "name": "  Mara  ", "stats": STATS, "int_dice": INT_DICE,
               "trades": {"STR": 1, "ENC": -2}, "karma_swaps": [{"lowered": "PERS", "raised": "AWA"}]}
    response = api_as("player").post("/api/v1/characters/", payload, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    character = Character.objects.get(pk=body["id"])
    assert character.owner == personas["player"] and body["owner"] == "player"
    assert body["name"] == "Mara" and body["state"] == "draft" and body["campaign"] == personas["campaign"].pk
    assert body["stats"] == {**STATS, "STR": 13, "ENC": 11, "PERS": 13, "AWA": 18}
    # INT from the traded stats: (15 + 14 + 11 + 12) / 4 = 13, +4 −2 → 15; DEX ⌈(16 + 15) / 2⌉ = 16.
    assert body["derived"] == {"DEX": 16, "INT": 15, "HP": 2 * 14 + 13 + 15, "SHK": 12, "END": 14}
    assert sum(line["value"] for line in body["derived_breakdown"]["INT"]) == 15
    assert body["derived_frozen"] == dict.fromkeys(["DEX", "INT", "HP", "SHK", "END"], False)
    # AWA 18 is a high stat (−1), one swap (−1): 10 − 1 − 1 = 8.
    assert body["starting_karma"] == 8 and body["karma"] == 0
    assert body["trades"] == {"STR": 1, "ENC": -2}
    assert body["karma_swaps"] == [{"lowered": "PERS", "raised": "AWA"}]
    assert body["budget"]["available"] == 31 and body["budget"]["spent"] == 0
    assert "gm_notes" not in body
    assert LogEntry.objects.filter(action="character.create", data__character=body["id"]).exists()


def test_gm_creates_characters_they_own(personas, api_as):
    payload = {"campaign": personas["campaign"].pk, "name": "NPC", "stats": STATS, "int_dice": INT_DICE}
    response = api_as("gm").post("/api/v1/characters/", payload, format="json")
    assert response.status_code == 201
    assert response.json()["owner"] == "gm" and response.json()["gm_notes"] == ""


@pytest.mark.parametrize("change, field", [
    ({"stats": {**STATS, "STR": 41}}, "stats"),
    ({"stats": {**STATS, "STR": 0}}, "stats"),
    ({"stats": {k: v for k, v in STATS.items() if k != "PERS"}}, "stats"),
    ({"stats": {**STATS, "LUCK": 3}}, "stats"),
    ({"stats": {**STATS, "STR": "12"}}, "stats"),
    ({"int_dice": [0, 7]}, "int_dice"),
    ({"int_dice": [4]}, "int_dice"),
    ({"name": "   "}, "name"),
    ({"name": "x" * 81}, "name"),
    ({"trades": {"LUCK": 1}}, "trades"),
    ({"trades": {"STR": 30}}, "trades"),  # a rule: 12 + 30 passes 40 (the service says so)
    ({"karma_swaps": [{"lowered": "STR", "raised": "STR"}]}, "karma_swaps"),
    ({"karma_swaps": [{"lowered": "STR"}]}, "karma_swaps"),
    ({"campaign": "1"}, "campaign"),
    ({"owner": 1}, "owner"),
])
def test_create_names_the_bad_field_and_saves_nothing(personas, api_as, change, field):
    payload = {"campaign": personas["campaign"].pk, "name": "Mara", "stats": STATS, "int_dice": INT_DICE, **change}
    before = snapshot()
    response = api_as("player").post("/api/v1/characters/", payload, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][field][0]
    assert snapshot() == before


def test_create_in_an_unknown_campaign_is_404(personas, api_as):
    payload = {"campaign": 10**12, "name": "Mara", "stats": STATS, "int_dice": INT_DICE}
    assert api_as("player").post("/api/v1/characters/", payload, format="json").status_code == 404


# --- List ----------------------------------------------------------------------------------
def test_list_shows_the_callers_campaigns_only(personas, api_as, make_user):
    from campaign import services as campaign_services

    mine = create_draft(personas)
    stranger = make_user("stranger")
    elsewhere = campaign_services.campaign_create(name="Elsewhere", by=stranger)
    hidden = create_draft({"campaign": elsewhere, "player": stranger}, name="Hidden")
    body = api_as("viewer").get("/api/v1/characters/").json()
    assert [c["id"] for c in body] == [mine.pk]
    assert body[0]["owner"] == "player" and body[0]["stats"] == STATS and body[0]["state"] == "draft"
    assert body[0]["wounds"]["dying"] is False
    assert "gm_notes" not in body[0]
    assert api_as("outsider").get("/api/v1/characters/").json() == []
    assert [c["id"] for c in api_as("gm").get(f"/api/v1/characters/?campaign={personas['campaign'].pk}").json()] \
        == [mine.pk]
    # A campaign the caller is not in does not exist for them.
    assert api_as("gm").get(f"/api/v1/characters/?campaign={elsewhere.pk}").status_code == 404
    assert hidden.pk not in [c["id"] for c in api_as("gm").get("/api/v1/characters/").json()]


@pytest.mark.parametrize("value", ["abc", "1.5", "-3", "0", str(10**30), "1,2"])
def test_list_rejects_a_bad_campaign_parameter(personas, api_as, value):
    response = api_as("gm").get("/api/v1/characters/", {"campaign": value})
    assert response.status_code == 400
    assert response.json()["errors"]["campaign"]


# --- The sheet -----------------------------------------------------------------------------
def test_sheet_has_every_line_with_targets_odds_and_costs(personas, api_as, draft):
    player = personas["player"]
    skill = add_line(draft, "skills", player, name="Medic", breadth="narrow", ranks=2, stat="PRAC")
    add_line(draft, "disadvantages", player, name="Bad back", value=2, ranks=1)
    add_line(draft, "equipment", player, name="Med kit", breadth="specific")
    add_line(draft, "weapons", player, name="Pistol", damage_points=3)
    add_line(draft, "armour", player, name="Vest", hardness=4, coverage=2)
    add_line(draft, "languages", player, name="Gaelic", spoken=3, heard=3, written=1, read=1, native=True)
    body = api_as("viewer").get(url(draft)).json()

    [medic] = body["skills"]
    # 2 ranks + foundation ⌈15 / 2⌉ + 2 = 10 → target 12 on 3d6.
    assert medic["id"] == skill.pk and medic["target"] == 12 and medic["dice"] == 3
    assert medic["probability"] == pytest.approx(0.7407, abs=1e-4)
    assert sum(line["value"] for line in medic["target_breakdown"]) == 12
    assert medic["classified"] is False
    assert [d["name"] for d in body["disadvantages"]] == ["Bad back"]
    assert body["equipment"][0]["breadth"] == "specific"
    assert body["weapons"][0]["cost"] == 3 + 1  # damage points + rate of fire ("Weapons")
    # ⌈4 × 2 / 3⌉ = 3 points; rating 4 × 2 / 4 = 2 ("Armor").
    assert body["armour"][0]["cost"] == 3 and body["armour"][0]["rating"] == 2
    assert body["languages"][0]["native"] is True and body["languages"][0]["classified"] is True

    assert set(body["stat_checks"]) == set(STATS)
    assert body["stat_checks"]["STR"]["target"] == 12 and body["stat_checks"]["STR"]["dice"] == 4
    assert 0 < body["stat_checks"]["STR"]["probability"] < 1
    assert body["stat_checks"]["DEX"]["target"] == 16  # effective DEX ⌈(16 + 15) / 2⌉
    assert body["wounds"] == {"trauma": 0, "shock": 0, "endurance_spent": 0, "stat_damage": {},
                              "long_term_con_damage": 0, "transitions_taken": 0, "dying": False,
                              "dying_modifier": None}
    budget = body["budget"]
    assert budget["spent"] == -sum(line["points"] for line in budget["lines"] if line["points"] < 0)
    assert budget["pending"] == 4  # the skill, the equipment, the weapon and the armour await the GM
    assert body["owner"] == "player" and body["review_comment"] == "" and body["state"] == "draft"


@pytest.mark.parametrize("persona, sees_notes", [
    ("gm", True), ("player", False), ("other_player", False), ("viewer", False)])
def test_gm_notes_reach_gms_only(personas, api_as, draft, persona, sees_notes):
    draft.gm_notes = "Secretly a Zener agent"
    with arranged(draft.campaign_id):
        draft.save(update_fields=["gm_notes"])
    body = api_as(persona).get(url(draft)).json()
    assert ("gm_notes" in body) is sees_notes
    assert "Zener agent" in str(body) if sees_notes else "Zener agent" not in str(body)


def test_gm_notes_are_gm_only_on_patch_too(personas, api_as, draft):
    gm_patch = api_as("gm").patch(url(draft), {"gm_notes": "Owes the syndicate"}, format="json")
    assert gm_patch.status_code == 200 and gm_patch.json()["gm_notes"] == "Owes the syndicate"
    player_patch = api_as("player").patch(url(draft), {"name": "Mara Vey"}, format="json")
    assert player_patch.status_code == 200 and player_patch.json()["name"] == "Mara Vey"
    assert "gm_notes" not in player_patch.json() and "syndicate" not in str(player_patch.json())
    # The player cannot write them either.
    refused = api_as("player").patch(url(draft), {"gm_notes": "nothing to see"}, format="json")
    assert refused.status_code == 403 and "syndicate" not in str(refused.json())
    draft.refresh_from_db()
    assert draft.gm_notes == "Owes the syndicate"


# --- Edits ---------------------------------------------------------------------------------
def test_owner_edits_a_draft(personas, api_as, draft):
    response = api_as("player").patch(url(draft), {"stats": {"STR": 18}, "int_dice": [6, 1],
                                                   "trades": {"ENC": -1}}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["stats"]["STR"] == 18 and body["stats"]["ENC"] == 12
    assert body["starting_karma"] == 9  # STR 18 is a high stat
    assert body["derived"]["INT"] == (15 + 14 + 12 + 12) // 4 + 6 - 1
    draft.refresh_from_db()
    assert draft.rolled_stats["STR"] == 18 and draft.stat_trades == {"ENC": -1}


@pytest.mark.parametrize("make", [create_submitted, create_active])
def test_player_stat_edits_after_submission_conflict(personas, api_as, make):
    character = make(personas)
    before = snapshot(character.pk)
    response = api_as("player").patch(url(character), {"stats": {"STR": 13}}, format="json")
    assert response.status_code == 409
    assert response.json()["errors"]["stats"]
    assert snapshot(character.pk) == before
    # The GM may.
    response = api_as("gm").patch(url(character), {"stats": {"STR": 13}}, format="json")
    assert response.status_code == 200 and response.json()["stats"]["STR"] == 13


def test_gm_stat_edit_over_a_karma_raise_is_a_400(personas, api_as):
    character = create_active(personas)
    Character.objects.filter(pk=character.pk).update(stat_raises={"STR": 2}, str=STATS["STR"] + 2)
    response = api_as("gm").patch(url(character), {"stats": {"STR": 40}}, format="json")
    assert response.status_code == 400 and response.json()["errors"]["stats"]


def test_gm_sets_the_state_of_an_approved_character(personas, api_as):
    character = create_active(personas)
    response = api_as("gm").patch(url(character), {"state": "dead"}, format="json")
    assert response.status_code == 200 and response.json()["state"] == "dead"
    assert api_as("gm").patch(url(character), {"state": "active"}, format="json").json()["state"] == "active"
    assert api_as("player").patch(url(character), {"state": "retired"}, format="json").status_code == 403
    bad = api_as("gm").patch(url(character), {"state": "submitted"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"]["state"]
    character.refresh_from_db()
    assert character.state == "active"


def test_state_and_other_changes_land_together_or_not_at_all(personas, api_as, draft):
    before = snapshot(draft.pk)
    response = api_as("gm").patch(url(draft), {"name": "Renamed", "state": "dead"}, format="json")
    assert response.status_code == 409  # a draft cannot die: approve it first
    assert snapshot(draft.pk) == before


def test_delete(personas, api_as, draft):
    assert api_as("player").delete(url(draft)).status_code == 204
    assert not Character.objects.filter(pk=draft.pk).exists()
    active = create_active(personas, name="Vey")
    assert api_as("player").delete(url(active)).status_code == 409
    # An approved character has a Karma ledger: even the GM retires it rather than deleting it.
    response = api_as("gm").delete(url(active))
    assert response.status_code == 409 and "retired" in response.json()["errors"]["detail"][0]
    assert Character.objects.filter(pk=active.pk).exists() and active.karma_entries.exists()


# --- Budget --------------------------------------------------------------------------------
def test_budget(personas, api_as, draft):
    add_line(draft, "skills", personas["player"], name="Medic", breadth="broad", ranks=3, stat="PRAC")
    add_line(draft, "skills", personas["gm"], is_gm=True, name="Pistol", breadth="weapon_model", ranks=1,
             stat="ACC")
    body = api_as("other_player").get(url(draft, "budget/")).json()
    assert set(body) >= {"available", "spent", "remaining", "lines", "pending"}
    assert body["available"] == 30 and body["spent"] == 4 + 2 + 1
    assert body["remaining"] == body["available"] - body["spent"]
    assert body["pending"] == 1
    assert [line["pending"] for line in body["lines"]] == [False, True, False]
    assert body["lines"][0] == {"label": "2 × INT 15", "points": 30, "pending": False}


# --- Submit, approve, return ---------------------------------------------------------------
def test_submit_needs_a_profession_and_a_budget_that_adds_up(personas, api_as, draft):
    response = api_as("player").post(url(draft, "submit/"))
    assert response.status_code == 400 and response.json()["errors"]["skills"]
    for n in range(8):  # 8 broad skills at 3 ranks: 48 points of 30
        add_line(draft, "skills", personas["player"], name=f"Skill {n}", breadth="broad", ranks=3, stat="PRAC")
    before = snapshot(draft.pk)
    response = api_as("player").post(url(draft, "submit/"))
    assert response.status_code == 400
    assert "48" in response.json()["errors"]["budget"][0]
    assert snapshot(draft.pk) == before


def test_the_review_cycle(personas, api_as, draft):
    add_line(draft, "skills", personas["player"], name="Medic", breadth="broad", ranks=2, stat="PRAC")
    response = api_as("player").post(url(draft, "submit/"))
    assert response.status_code == 200 and response.json()["state"] == "submitted"
    assert api_as("player").post(url(draft, "submit/")).status_code == 409

    # The GM cannot approve an unclassified skill, and says which.
    response = api_as("gm").post(url(draft, "approve/"))
    assert response.status_code == 400
    assert "Medic" in response.json()["errors"]["classification"][0]

    response = api_as("gm").post(url(draft, "return/"), {"comment": "Medic is narrow, not broad."}, format="json")
    assert response.status_code == 200 and response.json()["state"] == "draft"
    assert api_as("player").get(url(draft)).json()["review_comment"] == "Medic is narrow, not broad."
    assert api_as("gm").post(url(draft, "return/"), {"comment": "again"}, format="json").status_code == 409

    skill_id = draft.skills.get().pk
    assert api_as("gm").patch(url(draft, f"skills/{skill_id}/"), {"breadth": "narrow"},
                              format="json").json()["classified"] is True
    api_as("player").post(url(draft, "submit/"))
    response = api_as("gm").post(url(draft, "approve/"))
    assert response.status_code == 200 and response.json()["state"] == "active"
    body = api_as("player").get(url(draft)).json()
    assert body["state"] == "active" and body["karma"] == body["starting_karma"] == 10
    assert all(body["derived_frozen"][code] for code in ("INT", "HP", "SHK", "END"))
    assert api_as("gm").post(url(draft, "approve/")).status_code == 409


def test_return_needs_a_comment(personas, api_as):
    character = create_submitted(personas)
    for payload in ({}, {"comment": ""}, {"comment": "   "}):
        response = api_as("gm").post(url(character, "return/"), payload, format="json")
        assert response.status_code == 400 and response.json()["errors"]["comment"]
    character.refresh_from_db()
    assert character.state == "submitted"


# --- History and revert --------------------------------------------------------------------
def test_history_lists_changes_and_the_gm_reverts(personas, api_as, draft):
    api_as("player").patch(url(draft), {"name": "Mara Vey"}, format="json")
    api_as("player").post(url(draft, "skills/"), {"name": "Medic", "breadth": "narrow", "ranks": 1,
                                                  "stat": "PRAC"}, format="json")
    rows = api_as("viewer").get(url(draft, "history/")).json()
    assert [row["what"] for row in rows][:3] == ["added skill Medic", "changed the sheet", "created the sheet"]
    assert rows[1]["who"] == "player" and rows[1]["history_id"]
    created = rows[2]

    response = api_as("gm").post(url(draft, "history/"), {"history_id": created["history_id"]}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["name"] == "Mara" and response.json()["skills"] == []
    assert api_as("player").post(url(draft, "history/"), {"history_id": created["history_id"]},
                                 format="json").status_code == 403


def test_revert_to_a_point_of_another_sheet_is_refused(personas, api_as, draft):
    other = create_draft(personas, owner="other_player", name="Other")
    foreign = other.history.first().history_id
    before = snapshot()
    response = api_as("gm").post(url(draft, "history/"), {"history_id": foreign}, format="json")
    assert response.status_code == 400 and response.json()["errors"]["history_id"]
    assert snapshot() == before


def test_schema_describes_the_character_endpoints(personas, api_as):
    response = api_as("gm").get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in ("/api/v1/characters/", "/api/v1/characters/{character_id}/",
                 "/api/v1/characters/{character_id}/skills/{item_id}/", "/api/v1/characters/{character_id}/budget/",
                 "/api/v1/characters/{character_id}/history/"):
        assert path in paths, path
