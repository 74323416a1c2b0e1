"""Every API write of the campaign, its economy and its downtime refuses what it does not expect.

A field it does not know, or a known field of the wrong JSON type ("1" for 1, "true" for true, 12
for a text), is a 400 that names the field, and nothing is written. The table below lists every
write; a test checks that it is complete, so a new endpoint cannot be forgotten.
"""

from __future__ import annotations

import json

import pytest
from django.urls import URLPattern, URLResolver
from rest_framework import serializers

from campaign import serializers as campaign_in
from campaign import urls_api as campaign_urls
from campaign.models import Job, LogEntry
from campaign.testing import arranged
from characters import items
from zenergate_site.api_fields import NoBodyIn
from downtime import serializers as downtime_in
from downtime import urls_api as downtime_urls
from downtime.models import TransitionBatch, Treatment
from economy import serializers as economy_in
from economy import services as economy
from economy import urls_api as economy_urls
from zenergate_site.api_fields import FlagField, NumberField, TextField, WholeNumberField

pytestmark = pytest.mark.django_db

WRITES = ("post", "put", "patch")


def wrong_type(field) -> object:
    """Return a value of the wrong JSON type for a serializer field."""
    if isinstance(field, FlagField):
        return "true"
    if isinstance(field, (WholeNumberField, NumberField)):
        return "1"
    if isinstance(field, TextField):
        return 12
    if isinstance(field, serializers.ChoiceField):
        return {}
    if isinstance(field, serializers.DateTimeField):
        return 12
    if isinstance(field, (serializers.ListField, serializers.ListSerializer, serializers.DictField,
                          serializers.Serializer)):
        return "x"
    raise AssertionError(f"no wrong type for {field!r}")


@pytest.fixture
def writes(personas, make_character) -> dict[tuple[str, str], tuple[str, type, dict | None]]:
    """Every write, keyed (URL name, method): its path, input serializer and a valid body (None: a PATCH)."""
    p, c = personas, personas["campaign"]
    hero = make_character("player", karma=10)
    adventure = economy.adventure_start(campaign=c, name="Vienna, 1683", base_xp=1, by=p["gm"])
    token = economy.token_add(adventure=adventure, note="Storm", by=p["gm"])
    pool = economy.macguffin_create(campaign=c, name="Radio set", limitation="", target=4, upgrade="", by=p["gm"])
    with arranged(c):  # finished work to point the undo endpoints at
        job = Job.objects.create(campaign=c, kind=Job.Kind.DOWNTIME, params={"hours": 1, "rest": "comfortable"})
        batch = TransitionBatch.objects.create(campaign=c, category="1", idempotency_key="t-1")
        treatment = Treatment.objects.create(campaign=c, character=hero, kind="stimutabs", before={}, after={})
    latin = items.item_create(character=hero, kind_name="languages", by=p["gm"], is_gm=True, data={"name": "Latin"})
    api = "/api/v1"
    return {
        ("api-campaign-list", "post"): (f"{api}/campaigns/", campaign_in.CampaignCreateIn, {"name": "New"}),
        ("api-campaign-detail", "patch"): (f"{api}/campaigns/{c.pk}/", campaign_in.CampaignUpdateIn, None),
        ("api-campaign-archive", "post"): (f"{api}/campaigns/{c.pk}/archive/", NoBodyIn, {}),
        ("api-campaign-restore", "post"): (f"{api}/campaigns/{c.pk}/restore/", NoBodyIn, {}),
        ("api-campaign-members", "post"): (f"{api}/campaigns/{c.pk}/members/", campaign_in.MemberAddIn,
                                           {"username": "outsider", "role": "viewer"}),
        ("api-campaign-invitations", "post"): (f"{api}/campaigns/{c.pk}/invitations/", campaign_in.InvitationIn,
                                               {"role": "player"}),
        ("api-invitation-accept", "post"): (f"{api}/invitations/accept/", campaign_in.InvitationAcceptIn,
                                            {"token": "no-such-token"}),
        ("api-character-karma", "post"): (f"{api}/characters/{hero.pk}/karma/", economy_in.KarmaSpendIn,
                                          {"kind": "reroll", "idempotency_key": "k-1"}),
        ("api-character-complications", "post"): (
            f"{api}/characters/{hero.pk}/complications/", economy_in.ComplicationIn,
            {"cause": "debt", "form": "blown_roll", "ranks": 1, "description": "The radio gives them away"}),
        ("api-campaign-awards", "post"): (f"{api}/campaigns/{c.pk}/awards/", economy_in.AwardIn,
                                          {"kind": "npc_boost", "characters": [hero.pk], "reason": "Saved him"}),
        ("api-campaign-adventures", "post"): (f"{api}/campaigns/{c.pk}/adventures/", economy_in.AdventureIn,
                                              {"name": "Prague", "base_xp": 1}),
        ("api-adventure-tokens", "post"): (f"{api}/adventures/{adventure.pk}/tokens/", economy_in.BadNewsTokenIn,
                                           {"note": "Flood"}),
        ("api-adventure-token-void", "post"): (f"{api}/adventures/{adventure.pk}/tokens/{token.pk}/void/",
                                               NoBodyIn, {}),
        ("api-adventure-close", "post"): (f"{api}/adventures/{adventure.pk}/close/", economy_in.CloseIn,
                                          {"outcome": "none", "preview": True}),
        ("api-campaign-macguffins", "post"): (f"{api}/campaigns/{c.pk}/macguffins/", economy_in.MacGuffinIn,
                                              {"name": "Lattice", "target": 4}),
        ("api-macguffin-contributions", "post"): (f"{api}/macguffins/{pool.pk}/contributions/",
                                                  economy_in.ContributionIn,
                                                  {"character": hero.pk, "amount": 1, "idempotency_key": "k-2"}),
        ("api-campaign-downtime", "post"): (f"{api}/campaigns/{c.pk}/downtime/", downtime_in.DowntimeIn,
                                            {"hours": 8, "preview": True}),
        ("api-job-undo", "post"): (f"{api}/jobs/{job.pk}/undo/", NoBodyIn, {}),
        ("api-campaign-transitions", "post"): (f"{api}/campaigns/{c.pk}/transitions/", downtime_in.TransitionIn,
                                               {"category": "1", "characters": [hero.pk], "preview": True}),
        ("api-transition-undo", "post"): (f"{api}/transitions/{batch.pk}/undo/", NoBodyIn, {}),
        ("api-campaign-therapies", "post"): (f"{api}/campaigns/{c.pk}/therapies/", downtime_in.TherapyIn,
                                             {"name": "Prussian blue"}),
        ("api-character-treatments", "post"): (f"{api}/characters/{hero.pk}/treatments/", downtime_in.TreatmentIn,
                                               {"kind": "stimutabs", "idempotency_key": "k-3"}),
        ("api-treatment-undo", "post"): (f"{api}/treatments/{treatment.pk}/undo/", NoBodyIn, {}),
        ("api-language-immersion", "post"): (f"{api}/characters/{hero.pk}/languages/{latin.pk}/immersion/",
                                             downtime_in.ImmersionIn, {"hours": 1}),
    }


def _routes(patterns):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns)
        elif isinstance(pattern, URLPattern):
            yield pattern


def test_the_table_lists_every_write_of_the_campaign_economy_and_downtime_apis(writes):
    found = {(route.name, method) for urls in (campaign_urls, economy_urls, downtime_urls)
             for route in _routes(urls.urlpatterns) for method in WRITES
             if hasattr(route.callback.view_class, method)}
    assert found == set(writes)


def _send(client, method: str, path: str, body: dict):
    return client.generic(method.upper(), path, json.dumps(body), content_type="application/json")


def test_an_unknown_field_is_a_400_naming_it(api_as, writes):
    client, log = api_as("gm"), LogEntry.objects.count()
    for (name, method), (path, _, valid) in writes.items():
        response = _send(client, method, path, {**(valid or {}), "surprise": 1})
        assert response.status_code == 400, (name, response.content)
        assert response.json()["errors"] == {"surprise": ["Unknown field."]}, name
    assert LogEntry.objects.count() == log


def test_a_field_of_the_wrong_type_is_a_400_naming_it(api_as, writes):
    client, log, tried = api_as("gm"), LogEntry.objects.count(), 0
    for (name, method), (path, serializer_class, valid) in writes.items():
        for field_name, field in serializer_class().fields.items():
            response = _send(client, method, path, {**(valid or {}), field_name: wrong_type(field)})
            assert response.status_code == 400, (name, field_name, response.content)
            assert field_name in response.json()["errors"], (name, field_name, response.content)
            tried += 1
    assert tried > 60 and LogEntry.objects.count() == log


@pytest.mark.parametrize("field, value", [("name", 12), ("name", True), ("description", ["x"]),
                                          ("stat_dice", 4), ("max_skill_ranks", "3"), ("max_skill_ranks", 3.0)])
def test_campaign_settings_take_json_types_only(personas, api_as, field, value):
    """DRF alone would take 12 as the name "12" and "3" as 3: the campaign's writes do not guess."""
    campaign = personas["campaign"]
    response = api_as("gm").patch(f"/api/v1/campaigns/{campaign.pk}/", {field: value}, format="json")
    assert response.status_code == 400 and list(response.json()["errors"]) == [field]
    campaign.refresh_from_db()
    assert campaign.name == "Test campaign" and campaign.max_skill_ranks == 3
