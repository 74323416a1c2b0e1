"""One cap per text field: the page form, the API serializer and the column agree (zenergate_site/limits.py).

The first test reads the caps each form, serializer and model declares; the others send a text
one character over the cap through the page and through the API, and see both refuse it.
"""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaign import forms as campaign_forms
from campaign import serializers as campaign_in
from campaign.models import Campaign
from characters import forms as character_forms
from characters import serializers as character_in
from characters.api_wounds import WoundsIn
from characters.models import Character, Disadvantage, Equipment, Language, Skill
from characters.serializers.lines import (
    DisadvantageIn,
    EquipmentIn,
    LanguageIn,
    SkillIn,
)
from characters.tests.factories import create_draft
from characters.views.wounds import WoundForm
from combat import forms as combat_forms
from combat import serializers as combat_in
from combat.models import Combatant, Encounter
from downtime import forms as downtime_forms
from downtime import serializers as downtime_in
from downtime.models import Therapy
from economy import forms as economy_forms
from economy import serializers as economy_in
from economy.models import Adventure, BadNewsToken, Complication, KarmaEntry, MacGuffin
from zenergate_site import limits


def form(form_class, name):
    return form_class.base_fields[name].max_length


def api(serializer_class, name):
    return serializer_class().fields[name].max_length


def column(model, name):
    return model._meta.get_field(name).max_length


LINE_KINDS = ["skills", "disadvantages", "equipment", "weapons", "armour", "languages"]

#: Each text field: its cap, then every place that declares one.
CAPS = {
    "campaign name": (limits.CAMPAIGN_NAME, [
        form(campaign_forms.CampaignForm, "name"), form(campaign_forms.CampaignSettingsForm, "name"),
        api(campaign_in.CampaignCreateIn, "name"), api(campaign_in.CampaignUpdateIn, "name"),
        column(Campaign, "name")]),
    "campaign description": (limits.CAMPAIGN_DESCRIPTION, [
        form(campaign_forms.CampaignForm, "description"), form(campaign_forms.CampaignSettingsForm, "description"),
        api(campaign_in.CampaignCreateIn, "description"), api(campaign_in.CampaignUpdateIn, "description")]),
    "stat dice": (limits.STAT_DICE, [
        form(campaign_forms.CampaignSettingsForm, "stat_dice"), api(campaign_in.CampaignUpdateIn, "stat_dice"),
        column(Campaign, "stat_dice")]),
    "username": (limits.USERNAME, [
        form(campaign_forms.MemberAddForm, "username"), form(campaign_forms.AccountForm, "username"),
        api(campaign_in.MemberAddIn, "username"), column(get_user_model(), "username")]),
    "character name": (limits.CHARACTER_NAME, [
        form(character_forms.NewCharacterForm, "name"), form(character_forms.StatsForm, "name"),
        api(character_in.CharacterCreateIn, "name"), api(character_in.CharacterPatchIn, "name"),
        column(Character, "name")]),
    "override reason": (limits.OVERRIDE_REASON, [
        character_forms.NewCharacterForm().fields["override_reason"].max_length,
        api(character_in.CharacterCreateIn, "override_reason"), api(character_in.CharacterPatchIn, "override_reason")]),
    "GM notes": (limits.GM_NOTES, [
        form(character_forms.NotesForm, "gm_notes"), api(character_in.CharacterPatchIn, "gm_notes"),
        form(combat_forms.EncounterForm, "gm_notes"), api(combat_in.EncounterIn, "gm_notes"),
        api(combat_in.EncounterPatchIn, "gm_notes")]),
    "review comment": (limits.REVIEW_COMMENT, [
        form(character_forms.ReturnForm, "comment"), api(character_in.ReturnIn, "comment")]),
    "line name": (limits.LINE_NAME, [
        *(form(character_forms.LINE_FORMS[kind], "name") for kind in LINE_KINDS),
        *(api(character_in.LINE_SERIALIZERS[kind][0], "name") for kind in LINE_KINDS),
        column(Skill, "name")]),
    "weapon category": (limits.WEAPON_CATEGORY, [
        form(character_forms.SkillForm, "weapon_category"), api(SkillIn, "weapon_category"),
        column(Skill, "weapon_category")]),
    "disadvantage affects": (limits.DISADVANTAGE_AFFECTS, [
        form(character_forms.DisadvantageForm, "affects"), api(DisadvantageIn, "affects"),
        column(Disadvantage, "affects")]),
    "equipment notes": (limits.EQUIPMENT_NOTES, [
        form(character_forms.EquipmentForm, "notes"), api(EquipmentIn, "notes"), column(Equipment, "notes")]),
    "language era": (limits.LANGUAGE_ERA, [
        form(character_forms.LanguageForm, "era"), api(LanguageIn, "era"), column(Language, "era")]),
    "wounds reason": (limits.WOUNDS_REASON, [form(WoundForm, "reason"), api(WoundsIn, "reason")]),
    "adventure name": (limits.ADVENTURE_NAME, [
        form(economy_forms.AdventureStartForm, "name"), api(economy_in.AdventureIn, "name"),
        column(Adventure, "name")]),
    "bad-news note": (limits.TOKEN_NOTE, [
        form(economy_forms.TokenForm, "note"), api(economy_in.BadNewsTokenIn, "note"), column(BadNewsToken, "note")]),
    "MacGuffin name": (limits.MACGUFFIN_NAME, [
        form(economy_forms.MacGuffinForm, "name"), api(economy_in.MacGuffinIn, "name"), column(MacGuffin, "name")]),
    "MacGuffin limitation": (limits.MACGUFFIN_LIMITATION, [
        form(economy_forms.MacGuffinForm, "limitation"), api(economy_in.MacGuffinIn, "limitation"),
        column(MacGuffin, "limitation")]),
    "Karma reason": (limits.KARMA_REASON, [
        form(economy_forms.SpendForm, "reason"), form(economy_forms.AwardForm, "reason"),
        api(economy_in.KarmaSpendIn, "reason"), api(economy_in.AwardIn, "reason"), column(KarmaEntry, "reason")]),
    "Complication description": (limits.COMPLICATION_DESCRIPTION, [
        form(economy_forms.ComplicationForm, "description"), api(economy_in.ComplicationIn, "description"),
        column(Complication, "description")]),
    "therapy name": (limits.THERAPY_NAME, [
        form(downtime_forms.TherapyForm, "name"), api(downtime_in.TherapyIn, "name"), column(Therapy, "name")]),
    "therapy dice": (limits.THERAPY_DICE, [
        *(form(downtime_forms.TherapyForm, name) for name in ("extra_reduction", "track_steps_back", "shock",
                                                               "trauma")),
        *(api(downtime_in.TherapyIn, name) for name in ("extra_reduction", "track_steps_back", "shock", "trauma")),
        *(column(Therapy, name) for name in ("extra_reduction", "track_steps_back", "shock", "trauma"))]),
    "encounter name": (limits.ENCOUNTER_NAME, [
        form(combat_forms.EncounterForm, "name"), api(combat_in.EncounterIn, "name"),
        api(combat_in.EncounterPatchIn, "name"), column(Encounter, "name")]),
    "NPC name": (limits.NPC_NAME, [
        form(combat_forms.NpcForm, "name"), api(combat_in.CombatantIn, "name"), column(Combatant, "name")]),
    "NPC weapon name": (limits.NPC_WEAPON_NAME, [
        form(combat_forms.NpcForm, "weapon"), api(combat_in.NpcWeaponIn, "name")]),
    "idempotency key": (limits.IDEMPOTENCY_KEY, [
        form(economy_forms.KeyedForm, "idempotency_key"), form(downtime_forms.DowntimeForm, "idempotency_key"),
        form(downtime_forms.TransitionForm, "idempotency_key"), form(downtime_forms.TreatNowForm, "idempotency_key"),
        api(economy_in.KarmaSpendIn, "idempotency_key"), api(economy_in.ContributionIn, "idempotency_key"),
        api(downtime_in.DowntimeIn, "idempotency_key"), api(downtime_in.TransitionIn, "idempotency_key"),
        api(downtime_in.TreatmentIn, "idempotency_key")]),
}


@pytest.mark.parametrize("field", CAPS)
def test_every_place_that_takes_the_text_declares_the_same_cap(field):
    cap, declared = CAPS[field]
    assert declared and all(length == cap for length in declared), f"{field}: {declared}, expected {cap}"


# --- The caps at work, page and API side by side ------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("field, cap", [("description", limits.CAMPAIGN_DESCRIPTION), ("name", limits.CAMPAIGN_NAME)])
def test_campaign_text_at_the_cap_passes_and_over_it_is_refused_on_the_page_and_in_the_api(
        personas, client, api_as, field, cap):
    client.force_login(personas["gm"])
    body = {"name": "Gatecrashers", "description": "", "stat_entry": "enter"}
    before = Campaign.objects.count()

    over = client.post(reverse("home"), {**body, field: "x" * (cap + 1)})
    assert f"at most {cap} characters" in over.content.decode()
    refused = api_as("gm").post("/api/v1/campaigns/", {**body, field: "x" * (cap + 1)}, format="json")
    assert refused.status_code == 400 and list(refused.json()["errors"]) == [field]
    assert Campaign.objects.count() == before

    assert client.post(reverse("home"), {**body, field: "p" * cap}).status_code == 302
    assert api_as("gm").post("/api/v1/campaigns/", {**body, field: "a" * cap}, format="json").status_code == 201
    assert set(Campaign.objects.values_list(field, flat=True)) >= {"p" * cap, "a" * cap}


@pytest.mark.django_db
def test_character_gm_notes_have_the_same_cap_on_the_page_as_in_the_api(personas, client, api_as):
    character = create_draft(personas)
    client.force_login(personas["gm"])
    page = reverse("character-notes", args=[character.pk])
    api_path = f"/api/v1/characters/{character.pk}/"

    assert client.post(page, {"gm_notes": "x" * (limits.GM_NOTES + 1), "next": "sheet"}).status_code == 400
    refused = api_as("gm").patch(api_path, {"gm_notes": "x" * (limits.GM_NOTES + 1)}, format="json")
    assert refused.status_code == 400 and list(refused.json()["errors"]) == ["gm_notes"]
    character.refresh_from_db()
    assert character.gm_notes == ""

    assert client.post(page, {"gm_notes": "p" * limits.GM_NOTES, "next": "sheet"}).status_code in (200, 302)
    assert Character.objects.get(pk=character.pk).gm_notes == "p" * limits.GM_NOTES
    assert api_as("gm").patch(api_path, {"gm_notes": "a" * limits.GM_NOTES}, format="json").status_code == 200
    assert Character.objects.get(pk=character.pk).gm_notes == "a" * limits.GM_NOTES
