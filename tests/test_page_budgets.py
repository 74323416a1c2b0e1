"""What the busiest pages cost in statements before the cache (the page cache off), on the long
campaign bench/pages measures (bench/load/scale.py: six characters of 30 skills and lines of every
kind, a ledger of some 200 entries, three pools, a fight of all six). Their time is measured in
bench/pages (docs/performance.md); here, that no read is added to them unnoticed."""

import importlib.util
from pathlib import Path

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db(transaction=True)

#: (page, who) → the most statements one uncached render may make, the session's two included.
BUDGETS = {
    ("sheet", "player"): 12, ("sheet", "GM"): 12,
    ("dashboard", "player"): 19, ("dashboard", "GM"): 19,
    ("encounter", "player"): 13, ("encounter", "GM"): 14,
}


@pytest.fixture
def long_campaign(settings):
    settings.PAGE_CACHE_SECONDS = 0
    spec = importlib.util.spec_from_file_location("scale", Path(__file__).parents[1] / "bench" / "load" / "scale.py")
    scale = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scale)
    ids = scale.build()
    from django.contrib.auth import get_user_model

    from campaign.models import Campaign
    from characters.models import Character
    from combat import services as combat

    campaign = Campaign.objects.get(pk=ids["campaign"])
    gm = campaign.memberships.get(role="gm").user
    encounter = combat.encounter_create(campaign=campaign, by=gm, name="The customs house")
    for character in Character.objects.filter(campaign=campaign, state=Character.State.ACTIVE):
        combat.combatant_add(encounter=encounter, by=gm, character_id=character.pk)
    combat.initiative_roll(encounter=encounter, by=gm)
    return {"sheet": f"/characters/{ids['character']}/", "dashboard": f"/campaigns/{campaign.pk}/",
            "encounter": f"/encounters/{encounter.pk}/",
            "player": get_user_model().objects.get(username=ids["owner"]), "GM": gm}


def test_the_busiest_pages_keep_their_statement_budgets(long_campaign, django_assert_max_num_queries):
    clients = {}
    for who in ("player", "GM"):
        clients[who] = Client()
        clients[who].force_login(long_campaign[who])
    for (page, who), most in BUDGETS.items():
        clients[who].get(long_campaign[page])  # warm: templates, the session's first touch
        with django_assert_max_num_queries(most, info=f"{page} for the {who}"):
            assert clients[who].get(long_campaign[page]).status_code == 200
