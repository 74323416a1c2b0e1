"""Checks rolled from a sheet line, and the Karma reroll of a failed one.

Article, "Skill Checks" (3d6 at or under ranks + the stat's foundation), "Stat Checks", and
"Karma" ("Karma can be used to re-roll a failed roll … These applications consume one Karma").
"""

import pytest
from django.urls import reverse

from characters import items
from characters.selectors import character_with_sheet
from characters.sheet import line_check
from economy.models import KarmaEntry
from rolls.models import Roll

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet(personas, make_character):
    """The player's character (PRAC 12, karma 3) with 2 ranks of Stealth and a pistol it has no skill for."""
    gm = personas["gm"]
    character = make_character("player", karma=3, stats={"PRAC": 12, "ACC": 15})
    stealth = items.item_create(character=character, kind_name="skills", by=gm, is_gm=True,
                                data={"name": "Stealth", "breadth": "narrow", "ranks": 2, "stat": "PRAC"})
    pistol = items.item_create(character=character, kind_name="weapons", by=gm, is_gm=True,
                               data={"name": "Pistol", "damage_points": 3})
    return {"character": character, "stealth": stealth, "pistol": pistol,
            "url": f"/api/v1/characters/{character.pk}/rolls/"}


def _roll(client, sheet, line, **body):
    return client.post(sheet["url"], {"line": line, **body}, format="json")


def test_a_skill_roll_uses_the_sheets_target_and_the_modifier(sheet, api_as):
    """Stealth 2 ranks on PRAC 12: 2 + ⌈12/2⌉ + 2 = 10; at −2 the roll needs 8 or less."""
    player = api_as("player")
    response = _roll(player, sheet, f"skill:{sheet['stealth'].pk}", modifier=-2, dice=[2, 3, 4],
                     idempotency_key="k1")
    assert response.status_code == 201, response.json()
    roll = response.json()
    assert roll["params"]["target"] == 8 and roll["total"] == 9 and roll["success"] is False
    assert roll["character"] == sheet["character"].pk and roll["label"].endswith("Stealth check")
    assert ["situational modifier", -2] in roll["detail"]["breakdown"]
    again = _roll(player, sheet, f"skill:{sheet['stealth'].pk}", modifier=-2, idempotency_key="k1")
    assert again.status_code == 200 and again.json()["id"] == roll["id"]
    assert Roll.objects.filter(character=sheet["character"]).count() == 1


def test_a_stat_and_a_weapon_line_roll_their_own_checks(sheet, api_as):
    """A stat check rolls the sheet's stat line; an unskilled pistol attacks with ACC's foundation alone."""
    loaded = character_with_sheet(character_id=sheet["character"].pk)
    stat = line_check(loaded, "stat:AWA")
    weapon = line_check(loaded, f"weapon:{sheet['pistol'].pk}")
    assert weapon.target == 10  # ⌈15/2⌉ + 2, no ranks: unproficient
    player = api_as("player")
    rolled = _roll(player, sheet, "stat:AWA").json()
    assert rolled["params"]["target"] == stat.target and rolled["params"]["dice"] == stat.dice
    assert len([d for d in rolled["dice"] if d["kept"]]) == stat.dice
    assert _roll(player, sheet, f"weapon:{sheet['pistol'].pk}").json()["params"]["target"] == weapon.target


@pytest.mark.parametrize("line", ["stat:LUCK", "skill:999999", "weapon:x", "", "skill"])
def test_a_line_the_sheet_does_not_have_is_400(sheet, api_as, line):
    response = _roll(api_as("player"), sheet, line)
    assert response.status_code == 400 and "line" in response.json()["errors"]
    assert not Roll.objects.exists()


def test_another_characters_skill_is_not_this_sheets_line(sheet, api_as, make_character, personas):
    other = make_character("other_player")
    skill = items.item_create(character=other, kind_name="skills", by=personas["gm"], is_gm=True,
                              data={"name": "Lockpicking", "breadth": "narrow", "ranks": 3, "stat": "DEX"})
    assert _roll(api_as("player"), sheet, f"skill:{skill.pk}").status_code == 400


@pytest.mark.parametrize("persona, status", [("gm", 201), ("player", 201), ("other_player", 403), ("viewer", 403),
                                             ("outsider", 404), (None, 401)])
def test_who_may_roll_from_a_sheet(sheet, api_as, persona, status):
    response = _roll(api_as(persona), sheet, "stat:AWA")
    assert response.status_code == status
    assert Roll.objects.count() == (1 if status == 201 else 0)


def _failed(client, sheet, key="fail"):
    response = _roll(client, sheet, f"skill:{sheet['stealth'].pk}", dice=[6, 6, 6], idempotency_key=key)
    assert response.status_code == 201 and response.json()["success"] is False
    return response.json()["id"]


def test_a_karma_reroll_spends_one_karma_once_and_names_the_roll_it_replaces(sheet, api_as):
    player = api_as("player")
    failed = _failed(player, sheet)
    url = f"/api/v1/rolls/{failed}/reroll/"
    first = player.post(url, {"idempotency_key": "tap", "dice": [1, 2, 3]}, format="json")
    assert first.status_code == 201, first.json()
    reroll = first.json()
    assert reroll["reroll_of"] == failed and reroll["success"] is True and reroll["total"] == 6
    assert reroll["params"]["target"] == 10 and "Karma reroll" in reroll["label"]
    double = player.post(url, {"idempotency_key": "tap"}, format="json")  # the second tap of a double tap
    assert double.status_code == 200 and double.json()["id"] == reroll["id"]
    other_key = player.post(url, {"idempotency_key": "another"}, format="json")
    assert other_key.status_code == 409
    spends = KarmaEntry.objects.filter(character=sheet["character"], kind="reroll")
    assert spends.count() == 1 and spends.get().amount == -1
    sheet["character"].refresh_from_db()
    assert sheet["character"].karma == 2


def test_only_a_failed_sheet_roll_with_karma_left_is_rerolled(sheet, api_as, personas):
    player = api_as("player")
    success = _roll(player, sheet, f"skill:{sheet['stealth'].pk}", dice=[1, 1, 1]).json()["id"]
    assert player.post(f"/api/v1/rolls/{success}/reroll/", {"idempotency_key": "a"},
                       format="json").status_code == 409
    free = player.post(f"/api/v1/campaigns/{personas['campaign'].pk}/rolls/", {"notation": "3d6"},
                       format="json").json()["id"]
    assert player.post(f"/api/v1/rolls/{free}/reroll/", {"idempotency_key": "b"}, format="json").status_code == 409
    for n in range(3):  # spend the three Karma on rerolls of failures
        failed = _failed(player, sheet, key=f"f{n}")
        assert player.post(f"/api/v1/rolls/{failed}/reroll/", {"idempotency_key": f"r{n}", "dice": [6, 6, 6]},
                           format="json").status_code == 201
    broke = _failed(player, sheet, key="f-last")
    refused = player.post(f"/api/v1/rolls/{broke}/reroll/", {"idempotency_key": "r-last"}, format="json")
    assert refused.status_code == 409 and "Karma" in str(refused.json())
    assert not Roll.objects.filter(reroll_of_id=broke).exists()
    assert KarmaEntry.objects.filter(character=sheet["character"], kind="reroll").count() == 3


@pytest.mark.parametrize("persona, status", [("gm", 201), ("other_player", 403), ("viewer", 403),
                                             ("outsider", 404), (None, 401)])
def test_who_may_spend_the_karma_of_a_reroll(sheet, api_as, persona, status):
    failed = _failed(api_as("player"), sheet)
    response = api_as(persona).post(f"/api/v1/rolls/{failed}/reroll/", {"idempotency_key": "x"}, format="json")
    assert response.status_code == status
    assert KarmaEntry.objects.filter(kind="reroll").count() == (1 if status == 201 else 0)


def test_the_sheet_offers_roll_to_its_player_and_the_gm_only(sheet, client, personas):
    url = reverse("character-sheet", args=[sheet["character"].pk])
    form_url = reverse("sheet-roll-form", args=[sheet["character"].pk])
    for persona, shown in (("player", True), ("gm", True), ("other_player", False), ("viewer", False)):
        client.force_login(personas[persona])
        page = client.get(url).content.decode()
        assert (f"{form_url}?line=stat%3AAWA" in page) is shown, persona
        assert (f"{form_url}?line=skill%3A{sheet['stealth'].pk}" in page) is shown, persona


def test_a_hopeless_stat_roll_says_less_than_a_hundredth_of_a_percent_not_an_exponent(sheet, client, personas):
    # A stat check at −40 escalates to many dice: its chance once printed as "9.7e-27 %", and
    # its exact fraction ran past a phone's card.
    client.force_login(personas["player"])
    form_url = reverse("sheet-roll-form", args=[sheet["character"].pk])
    odds = client.get(form_url, {"line": "stat:AWA", "modifier": "-40", "part": "odds"}).content.decode()
    assert "&lt; 0.01%" in odds and "e-" not in odds.replace("title", "")


def test_the_roll_form_shows_the_odds_as_the_modifier_changes_and_rolls(sheet, client, personas):
    client.force_login(personas["player"])
    form_url = reverse("sheet-roll-form", args=[sheet["character"].pk])
    line = f"skill:{sheet['stealth'].pk}"
    form = client.get(form_url, {"line": line}).content.decode()
    assert "≤ <strong>10</strong> on 3d6" in form and 'name="idempotency_key"' in form
    odds = client.get(form_url, {"line": line, "modifier": "-2", "part": "odds"}).content.decode()
    assert "≤ <strong>8</strong> on 3d6" in odds and "25.9%" in odds
    assert "whole number" in client.get(form_url, {"line": line, "modifier": "lots", "part": "odds"}).content.decode()
    result = client.post(reverse("sheet-roll", args=[sheet["character"].pk]),
                         {"line": line, "modifier": "0", "dice": ["6", "6", "5"], "idempotency_key": "p1"},
                         HTTP_HX_REQUEST="true")
    assert result.status_code == 200
    assert "failure" in result.content.decode() and "Reroll for 1 Karma" in result.content.decode()
    bad = client.post(reverse("sheet-roll", args=[sheet["character"].pk]),
                      {"line": line, "dice": ["7"], "idempotency_key": "p2"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400 and Roll.objects.count() == 1


@pytest.mark.parametrize("line, body, target, term", [
    # Article, "Skill Checks": each further relevant skill or equipment the GM accepts adds 2.
    ("skill", {"relevant": 2}, 14, ["2 further relevant skill(s)/equipment × 2", 4]),
    # Article, "Unproficient": the foundation alone, +1 per indirectly related skill.
    ("weapon", {"indirect": 1}, 11, ["1 indirectly related skill(s)/equipment × 1", 1]),
    # Article, "Additional Rules", extra time: twice as long is +2, half the time −3 (time chart).
    ("skill", {"time_taken": 2}, 12, ["time taken 2 ÷ normal 1 (time chart)", 2]),
    ("skill", {"time_taken": 0.5}, 7, ["time taken 0.5 ÷ normal 1 (time chart)", -3]),
])
def test_the_situations_terms_add_to_the_lines_target(sheet, api_as, line, body, target, term):
    key = {"skill": f"skill:{sheet['stealth'].pk}", "weapon": f"weapon:{sheet['pistol'].pk}"}[line]
    response = _roll(api_as("player"), sheet, key, **body)
    assert response.status_code == 201, response.json()
    assert response.json()["params"]["target"] == target and term in response.json()["detail"]["breakdown"]


@pytest.mark.parametrize("line, body, field", [
    ("weapon", {"relevant": 1}, "relevant"),  # unproficient: related skills count +1, not +2
    ("skill", {"indirect": 1}, "indirect"),  # with ranks: further relevant skills count +2
    ("stat", {"relevant": 1}, "relevant"),  # a stat check takes no skills
    ("skill", {"time_taken": -1}, "time_taken"),  # time runs forward
    ("skill", {"relevant": 21}, "relevant"),
])
def test_a_term_that_does_not_fit_the_check_is_400_and_rolls_nothing(sheet, api_as, line, body, field):
    key = {"skill": f"skill:{sheet['stealth'].pk}", "weapon": f"weapon:{sheet['pistol'].pk}", "stat": "stat:AWA"}[line]
    response = _roll(api_as("player"), sheet, key, **body)
    assert response.status_code == 400 and field in response.json()["errors"], response.json()
    assert not Roll.objects.exists()


def test_the_roll_form_counts_the_terms_as_they_are_typed(sheet, client, personas):
    client.force_login(personas["player"])
    form_url = reverse("sheet-roll-form", args=[sheet["character"].pk])
    line = f"skill:{sheet['stealth'].pk}"
    assert "Further relevant skills or equipment (+2 each)" in client.get(form_url, {"line": line}).content.decode()
    odds = client.get(form_url, {"line": line, "part": "odds", "relevant": "1", "time_taken": "2"}).content.decode()
    assert "≤ <strong>14</strong> on 3d6" in odds and "1 further relevant skill(s)/equipment × 2 +2" in odds
    unskilled = client.get(form_url, {"line": f"weapon:{sheet['pistol'].pk}"}).content.decode()
    assert "Indirectly related skills or equipment (+1 each)" in unskilled
    awa = client.get(form_url, {"line": "stat:AWA"}).content.decode()
    assert "Actively looking out for it" in awa and "Further relevant" not in awa  # a stat takes no skills
    assert "Actively looking" not in client.get(form_url, {"line": "stat:STR"}).content.decode()


def test_a_gms_private_sheet_roll_and_its_reroll_stay_behind_the_screen(sheet, api_as, client, personas):
    """A GM rolls the player's Stealth in secret (a check the player must not know failed): the roll
    and its Karma reroll are in the GM's feed and nowhere a player or viewer looks."""
    gm = api_as("gm")
    secret = _roll(gm, sheet, f"skill:{sheet['stealth'].pk}", dice=[6, 6, 6], private=True).json()
    assert secret["private"] is True and secret["success"] is False
    reroll = gm.post(f"/api/v1/rolls/{secret['id']}/reroll/", {"idempotency_key": "r1", "dice": [1, 1, 1]},
                     format="json").json()
    assert reroll["private"] is True and reroll["reroll_of"] == secret["id"]
    feed_url = f"/api/v1/campaigns/{sheet['character'].campaign_id}/rolls/"
    for persona in ("player", "other_player", "viewer"):
        seen = [r["id"] for r in api_as(persona).get(feed_url).json()["rolls"]]
        assert secret["id"] not in seen and reroll["id"] not in seen, persona
        client.force_login(personas[persona])
        page = client.get(reverse("campaign-rolls-feed", args=[sheet["character"].campaign_id])).content.decode()
        assert "Stealth check" not in page, persona
    assert {secret["id"], reroll["id"]} <= {r["id"] for r in gm.get(feed_url).json()["rolls"]}


def test_probing_roll_ids_finds_no_private_roll(sheet, api_as):
    """A player naming the GM's private roll (to reroll it) is answered word for word as for a
    roll id never used: probing ids tells nothing of the rolls behind the screen."""
    gm = api_as("gm")
    secret = _roll(gm, sheet, f"skill:{sheet['stealth'].pk}", dice=[6, 6, 6], private=True).json()
    for persona in ("player", "other_player", "viewer"):
        client = api_as(persona)
        hidden = client.post(f"/api/v1/rolls/{secret['id']}/reroll/", {"idempotency_key": "p"}, format="json")
        never = client.post("/api/v1/rolls/987654/reroll/", {"idempotency_key": "p"}, format="json")
        assert hidden.status_code == never.status_code == 404, persona
        assert hidden.json() == never.json(), persona
