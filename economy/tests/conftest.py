"""Fixtures for the economy, shared by every app's tests: approved characters with a known Karma balance."""

from __future__ import annotations

import pytest

#: Stats with no stat ≥ 17 or ≤ 8 (effective DEX ⌈(16 + 15) / 2⌉ = 16): starting Karma 10.
BASE_STATS = {"STR": 12, "CON": 14, "RES": 13, "NIM": 15, "DEX": 16, "ACC": 12, "MEL": 10,
              "PRAC": 15, "THEO": 14, "ENC": 13, "LAN": 12, "AWA": 16, "PERS": 14}
#: Raised to 17 one by one to take starting Karma below 10 (−1 each); DEX and NIM stay put.
HIGH_ORDER = ("STR", "CON", "RES", "ACC", "MEL", "AWA", "PERS", "PRAC", "THEO", "ENC", "LAN")
PROFESSION = {"name": "Temporal physics", "breadth": "narrow", "ranks": 1, "stat": "THEO"}


def campaign_gm(campaign):
    from campaign.models import Membership

    return Membership.objects.filter(campaign=campaign, role=Membership.Role.GM).select_related("user").first().user


@pytest.fixture
def make_character(personas):
    """``character_maker`` for this test's personas."""
    return character_maker(personas)


def character_maker(personas: dict):
    """Return ``make(owner, *, karma=10, …)``: an approved character whose balance is ``karma``.

    ``owner`` is a persona name or a user. Starting Karma comes from the stats (10 less one per
    stat raised to 17) as far as it can; a GM correction in the ledger makes up the rest, so
    the balance is exactly ``karma`` and equals the ledger's sum. ``stats`` overrides single
    stats (starting Karma then follows the rules); ``skills`` and ``disadvantages`` are sheet
    lines the GM has classified; ``approve=False`` leaves a draft.
    """
    from characters import items, lifecycle, services
    from economy.services import award

    def make(owner, *, karma: int = 10, name: str | None = None, campaign=None, stats: dict | None = None,
             skills: list[dict] | None = None, disadvantages: list[dict] | None = None, approve: bool = True):
        owner = personas[owner] if isinstance(owner, str) else owner
        campaign = campaign or personas["campaign"]
        gm = campaign_gm(campaign)
        values = dict(BASE_STATS)
        if stats is None:
            for code in HIGH_ORDER[:max(10 - karma, 0)]:
                values[code] = 17
        else:
            values.update(stats)
        character = services.character_create(campaign=campaign, owner=owner, name=name or f"{owner.username}'s PC",
                                              stats=values, int_dice=[4, 2], by=owner, is_gm=True,
                                              override_reason="Test set-up: the stats this test needs")
        for line in skills or [PROFESSION]:
            items.item_create(character=character, kind_name="skills", data=line, by=gm, is_gm=True)
        for line in disadvantages or []:
            items.item_create(character=character, kind_name="disadvantages", data=line, by=gm, is_gm=True)
        if not approve:
            return character
        lifecycle.character_submit(character=character, by=owner)
        character = lifecycle.character_approve(character=character, by=gm)
        character.refresh_from_db()
        if character.karma != karma:
            award(campaign=campaign, kind="manual", character_ids=[character.pk], by=gm,
                  amount=karma - character.karma, reason="Test set-up: the balance this test needs")
            character.refresh_from_db()
        assert character.karma == karma
        return character

    return make


@pytest.fixture
def elsewhere(make_user):
    """Another campaign, with its own GM and player: its characters are foreign to ``personas``."""
    from campaign import services

    gm2 = make_user("gm2")
    campaign = services.campaign_create(name="Elsewhere", by=gm2)
    make_user("stranger")
    services.membership_add(campaign=campaign, username="stranger", role="player", by=gm2)
    return campaign
