"""The economy's services and the ledger's database guarantees, below the HTTP layer."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from campaign.errors import CampaignConflict, CampaignError
from campaign.models import LogEntry
from characters.models import Character
from economy import services as economy
from economy.ledger import KarmaShort, karma_ledger, karma_post
from economy.models import KarmaEntry, MacGuffin

pytestmark = pytest.mark.django_db


@pytest.fixture
def hero(make_character):
    return make_character("player", name="Mara")


# --- The database keeps the promises even if a service forgets them -----------------------
def test_the_database_refuses_a_negative_balance(hero, arranging):
    with pytest.raises(IntegrityError), transaction.atomic():
        Character.objects.filter(pk=hero.pk).update(karma=-1)
    with pytest.raises(IntegrityError), transaction.atomic():
        KarmaEntry.objects.create(campaign=hero.campaign, character=hero, kind="manual", amount=-11,
                                  balance_after=-1)


def test_the_database_refuses_a_key_twice_and_a_second_payout(hero, personas, arranging):
    KarmaEntry.objects.create(campaign=hero.campaign, character=hero, kind="reroll", amount=0, balance_after=10,
                              idempotency_key="k")
    with pytest.raises(IntegrityError), transaction.atomic():
        KarmaEntry.objects.create(campaign=hero.campaign, character=hero, kind="reroll", amount=0,
                                  balance_after=10, idempotency_key="k")
    adventure = economy.adventure_start(campaign=hero.campaign, name="A", base_xp=1, by=personas["gm"])
    KarmaEntry.objects.create(campaign=hero.campaign, character=hero, kind="payout", amount=1, balance_after=11,
                              adventure=adventure)
    with pytest.raises(IntegrityError), transaction.atomic():
        KarmaEntry.objects.create(campaign=hero.campaign, character=hero, kind="payout", amount=1,
                                  balance_after=12, adventure=adventure)


def test_the_database_refuses_a_pool_past_its_target(personas):
    pool = economy.macguffin_create(campaign=personas["campaign"], name="P", limitation="", target=4, upgrade="",
                                    by=personas["gm"])
    with pytest.raises(IntegrityError), transaction.atomic():
        MacGuffin.objects.filter(pk=pool.pk).update(progress=5)


# --- karma_post and karma_spend -----------------------------------------------------------
def test_a_replayed_key_returns_the_first_entry_and_changes_nothing(hero, personas):
    first, created = economy.karma_spend(character=hero, kind="reroll", idempotency_key="r", by=personas["player"],
                                         is_gm=False, params={})
    assert created and first.balance_after == 9
    log = LogEntry.objects.count()
    again, created = economy.karma_spend(character=hero, kind="reroll", idempotency_key="r", by=personas["player"],
                                         is_gm=False, params={})
    assert not created and again.pk == first.pk
    assert Character.objects.get(pk=hero.pk).karma == 9 and LogEntry.objects.count() == log


def test_an_effect_that_fails_posts_nothing(make_character, personas):
    strong = make_character("player", stats={"STR": 40}, karma=20)
    before = (KarmaEntry.objects.count(), LogEntry.objects.count())
    with pytest.raises(CampaignConflict) as excinfo:
        economy.karma_spend(character=strong, kind="stat_raise", idempotency_key="s", by=personas["player"],
                            is_gm=False, params={"stat": "STR"})
    assert excinfo.value.field == "stat" and "40" in excinfo.value.message
    strong.refresh_from_db()
    assert (strong.str, strong.karma) == (40, 20)
    assert (KarmaEntry.objects.count(), LogEntry.objects.count()) == before


def test_a_short_balance_raises_karma_short(make_character, personas):
    poor = make_character("player", karma=0)
    with pytest.raises(KarmaShort):
        karma_post(character=poor, amount=-1, kind="reroll", by=personas["player"])
    assert list(karma_ledger(character=poor).values_list("kind", flat=True)) == ["opening"]


@pytest.mark.parametrize("amount", ["1", 1.0, True, None])
def test_karma_post_wants_whole_numbers(hero, personas, amount):
    with pytest.raises(CampaignError):
        karma_post(character=hero, amount=amount, kind="manual", by=personas["gm"])


def test_every_post_is_in_the_campaign_log(hero, personas):
    economy.award(campaign=hero.campaign, kind="complication", character_ids=[hero.pk], by=personas["gm"],
                  reason="Gate under the cathedral")
    entry = LogEntry.objects.filter(action="karma.complication").get()
    assert entry.actor == personas["gm"] and "Mara: +2 Karma" in entry.summary
    assert entry.data["character"] == hero.pk


# --- Adventures and payouts ---------------------------------------------------------------
def test_payouts_round_up_and_post_once(hero, personas):
    gm = personas["gm"]
    adventure = economy.adventure_start(campaign=hero.campaign, name="Lisbon", base_xp=2, by=gm)
    economy.token_add(adventure=adventure, note="Quake", by=gm)
    rows = economy.payout_preview(adventure=adventure, outcome="advice", permanent=False, selfish=[])
    assert rows[0]["karma"] == 5  # (2 + 1) × 1.5 = 4.5, rounded up
    assert rows[0]["breakdown"][-1] == ("rounded up", 0.5)
    economy.adventure_close(adventure=adventure, outcome="advice", permanent=False, selfish=[], by=gm)
    with pytest.raises(CampaignConflict):
        economy.adventure_close(adventure=adventure, outcome="advice", permanent=False, selfish=[], by=gm)
    assert KarmaEntry.objects.filter(kind="payout", character=hero).count() == 1
    assert Character.objects.get(pk=hero.pk).karma == 15


def test_a_funded_macguffin_takes_effect_from_the_next_adventure(hero, personas):
    gm = personas["gm"]
    adventure = economy.adventure_start(campaign=hero.campaign, name="One", base_xp=1, by=gm)
    pool = economy.macguffin_create(campaign=hero.campaign, name="Radio", limitation="", target=4,
                                    upgrade="limited_comms", by=gm)
    economy.macguffin_contribute(macguffin=pool, character=hero, amount=4, idempotency_key="m", by=personas["player"])
    pool.refresh_from_db()
    assert pool.status == MacGuffin.Status.FUNDED and pool.funded_during == adventure
    assert economy.upgrades_in_effect(hero.campaign) == set()
    economy.adventure_close(adventure=adventure, outcome="none", permanent=False, selfish=[], by=gm)
    assert economy.upgrades_in_effect(hero.campaign) == set()  # between adventures: still waiting
    economy.adventure_start(campaign=hero.campaign, name="Two", base_xp=1, by=gm)
    assert economy.upgrades_in_effect(hero.campaign) == {"limited_comms"}


def test_drafts_have_no_karma_flags(make_character):
    draft = make_character("player", approve=False)
    assert economy.karma_flags(draft) == []


def test_a_client_key_cannot_swallow_a_payout(hero, personas):
    gm = personas["gm"]
    adventure = economy.adventure_start(campaign=hero.campaign, name="Lisbon", base_xp=3, by=gm)
    economy.karma_spend(character=hero, kind="reroll", idempotency_key=f"payout:{adventure.pk}",
                        by=personas["player"], is_gm=False, params={})
    economy.adventure_close(adventure=adventure, outcome="none", permanent=False, selfish=[], by=gm)
    assert KarmaEntry.objects.filter(character=hero, kind="payout").count() == 1
