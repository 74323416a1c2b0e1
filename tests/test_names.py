"""A name that shows nothing, or that carries a text-direction control, is refused wherever names
are typed: campaigns, characters, sheet lines, encounters, NPCs, MacGuffin pools, adventures,
therapies and the accounts a GM makes, on the page and in the API alike. The same request
with an ordinary name goes through, so it is the name that is refused."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaign.models import Campaign
from characters.models import Character, Skill
from characters.tests.factories import INT_DICE, STATS, create_draft
from combat import services as combat
from combat.models import Combatant, Encounter
from downtime.models import Therapy
from economy.models import Adventure, MacGuffin

pytestmark = pytest.mark.django_db

#: A Hangul filler (a letter that draws nothing), zero-width characters, a right-to-left override
#: that makes "gnp.exe" read "exe.png", a right-to-left isolate.
BAD_NAMES = ["\u3164", "\u200b\u200d", "Evil\u202egnp.exe", "\u2067Mara"]
GOOD_NAME = "Zoë 👩\u200d🚀"


def _stats_form() -> dict:
    return {**STATS, "int_plus": INT_DICE[0], "int_minus": INT_DICE[1]}


def _encounter(p):
    return combat.encounter_create(campaign=p["campaign"], by=p["gm"], name="Ambush")


NPC = {"acc": 14, "mel": 14, "awa": 14, "res": 14, "con": 14, "armour_rating": 0, "weapon": "Pistol",
       "damage_points": 4, "ranks": 1}
THERAPY = {"con_healed": 1, "extra_reduction": "d3", "track_steps_back": "d3", "shock": "d6", "trauma": "d3",
           "efficacy_loss": 0}

#: Each case: who sends it, what counts the rows it would add, and (p, name) → (method, path, body).
PAGES = {
    "campaign": ("gm", Campaign, lambda p, name: (reverse("home"), {"name": name, "stat_entry": "enter"})),
    "character": ("player", Character, lambda p, name: (
        reverse("character-new", args=[p["campaign"].pk]), {"name": name, **_stats_form()})),
    "skill": ("player", Skill, lambda p, name: (
        reverse("character-line-add", args=[create_draft(p).pk, "skills"]),
        {"skills-new-name": name, "skills-new-breadth": "broad", "skills-new-ranks": 1, "skills-new-stat": "THEO",
         "skills-new-weapon_category": "", "next": "build"})),
    "encounter": ("gm", Encounter, lambda p, name: (
        reverse("campaign-encounters", args=[p["campaign"].pk]), {"name": name, "initiative_stat": "MEL"})),
    "NPC": ("gm", Combatant, lambda p, name: (
        reverse("encounter-act", args=[_encounter(p).pk]), {"action": "add_npc", "name": name, **NPC})),
    "MacGuffin": ("gm", MacGuffin, lambda p, name: (
        reverse("campaign-macguffins", args=[p["campaign"].pk]), {"name": name, "target_preset": "4"})),
    "adventure": ("gm", Adventure, lambda p, name: (
        reverse("campaign-adventures", args=[p["campaign"].pk]), {"name": name, "base_xp": 2})),
    "therapy": ("gm", Therapy, lambda p, name: (
        reverse("campaign-downtime", args=[p["campaign"].pk]), {"action": "therapy", "name": name, **THERAPY})),
    "account": ("gm", get_user_model(), lambda p, name: (
        reverse("campaign-settings", args=[p["campaign"].pk]),
        {"action": "new_account", "account-username": name, "account-role": "player"})),
}

APIS = {
    "campaign": ("gm", Campaign, lambda p, name: ("/api/v1/campaigns/", {"name": name})),
    "character": ("player", Character, lambda p, name: (
        "/api/v1/characters/", {"campaign": p["campaign"].pk, "name": name, "stats": STATS, "int_dice": INT_DICE})),
    "skill": ("player", Skill, lambda p, name: (
        f"/api/v1/characters/{create_draft(p).pk}/skills/",
        {"name": name, "breadth": "broad", "ranks": 1, "stat": "THEO"})),
    "encounter": ("gm", Encounter, lambda p, name: (f"/api/v1/campaigns/{p['campaign'].pk}/encounters/",
                                                    {"name": name})),
    "NPC": ("gm", Combatant, lambda p, name: (f"/api/v1/encounters/{_encounter(p).pk}/combatants/",
                                              {"name": name, "stats": {"ACC": 14, "MEL": 14}, "hit_points": 10})),
    "MacGuffin": ("gm", MacGuffin, lambda p, name: (f"/api/v1/campaigns/{p['campaign'].pk}/macguffins/",
                                                    {"name": name, "target": 4})),
    "adventure": ("gm", Adventure, lambda p, name: (f"/api/v1/campaigns/{p['campaign'].pk}/adventures/",
                                                    {"name": name, "base_xp": 2})),
    "therapy": ("gm", Therapy, lambda p, name: (f"/api/v1/campaigns/{p['campaign'].pk}/therapies/",
                                                {"name": name})),
}


@pytest.mark.parametrize("case", PAGES)
def test_the_page_refuses_an_invisible_or_bidi_name_and_takes_an_ordinary_one(personas, client, case):
    persona, model, build = PAGES[case]
    client.force_login(personas[persona])
    for name in BAD_NAMES:
        path, body = build(personas, name)
        before = model.objects.count()
        response = client.post(path, body)
        assert model.objects.count() == before, (case, name, response.status_code)
    path, body = build(personas, GOOD_NAME if case != "account" else "zoe.k")
    before = model.objects.count()
    client.post(path, body)
    assert model.objects.count() == before + 1, case


@pytest.mark.parametrize("case", APIS)
def test_the_api_refuses_an_invisible_or_bidi_name_naming_the_field(personas, api_as, case):
    persona, model, build = APIS[case]
    client = api_as(persona)
    for name in BAD_NAMES:
        path, body = build(personas, name)
        before = model.objects.count()
        response = client.post(path, body, format="json")
        assert response.status_code == 400, (case, name, response.content)
        assert list(response.json()["errors"]) == ["name"], (case, name, response.content)
        assert model.objects.count() == before
    path, body = build(personas, GOOD_NAME)
    before = model.objects.count()
    assert client.post(path, body, format="json").status_code == 201, case
    assert model.objects.count() == before + 1


def test_renaming_a_character_through_the_api_is_checked_too(personas, api_as):
    character = create_draft(personas)
    response = api_as("player").patch(f"/api/v1/characters/{character.pk}/", {"name": "Mara\u202e"}, format="json")
    assert response.status_code == 400 and list(response.json()["errors"]) == ["name"]
    character.refresh_from_db()
    assert character.name == "Mara"
