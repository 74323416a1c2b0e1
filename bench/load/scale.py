"""Build the scaled-up demo campaign that bench/load drives.

The demo (seed_demo) has two characters with a handful of lines each; a real table at the end
of a long campaign has more. This adds, through the same services the app uses for everything
that has rules (characters, approval, Karma, pools), a campaign with

- 6 approved characters (one per player: alice, bob, carol, dave, erin, frank),
- 30 skills each and several lines of every other kind (disadvantages, equipment, weapons,
  armour, languages),
- about 200 ledger entries (adventure payouts and GM awards), and
- 3 MacGuffin pools with contributions.

Lines are written with ``bulk_create`` after approval: the bench measures reading a big sheet,
not the budget rules that would stop a starting character from buying 30 skills.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank")
PASSWORD = "zener-bench"
CAMPAIGN = "Bench: a long campaign"
STATS = {"STR": 12, "CON": 14, "RES": 13, "NIM": 13, "DEX": 14, "ACC": 13, "MEL": 12,
         "PRAC": 14, "THEO": 13, "ENC": 12, "LAN": 12, "AWA": 14, "PERS": 12}
STAT_NAMES = tuple(STATS)
BREADTHS = ("specific", "narrow", "broad")


@transaction.atomic
def build() -> dict:
    """Create the users and the campaign (idempotent by name); return ids for the load run."""
    from campaign import services
    from campaign.models import Campaign
    from characters import items, lifecycle
    from characters import services as character_services
    from characters.models import (
        Armour,
        Disadvantage,
        Equipment,
        Language,
        Skill,
        Weapon,
    )
    from economy import services as economy
    from economy.models import MacGuffin

    User = get_user_model()
    users = {}
    for username in ("gm",) + PLAYERS:
        user, created = User.objects.get_or_create(username=f"bench-{username}")
        if created:
            user.set_password(PASSWORD)
            user.save(update_fields=["password"])
        users[username] = user
    gm = users["gm"]
    campaign = Campaign.objects.filter(name=CAMPAIGN, memberships__user=gm).first()
    if campaign is not None:
        return _ids(campaign)
    campaign = services.campaign_create(name=CAMPAIGN, by=gm, description="Six temporanauts, many years in.")
    characters = []
    for n, username in enumerate(PLAYERS):
        services.membership_add(campaign=campaign, username=f"bench-{username}", role="player", by=gm)
        owner = users[username]
        character = character_services.character_create(
            campaign=campaign, owner=owner, name=f"Temporanaut {username.title()}", stats=STATS,
            int_dice=[3, 4], trades={}, by=owner)
        profession = items.item_create(character=character, kind_name="skills", by=owner, is_gm=False,
                                       data={"name": "Temporanaut", "breadth": "broad", "ranks": 1, "stat": "PRAC"})
        lifecycle.character_submit(character=character, by=owner)
        items.item_update(item=profession, kind_name="skills", data={}, by=gm, is_gm=True)
        character = lifecycle.character_approve(character=character, by=gm)
        line = {"character": character, "classified": True}
        Skill.objects.bulk_create(
            Skill(**line, position=1 + i, name=f"Skill {i:02d}", breadth=BREADTHS[i % 3], ranks=1 + i % 4,
                  stat=STAT_NAMES[i % len(STAT_NAMES)]) for i in range(29))
        Disadvantage.objects.bulk_create(
            Disadvantage(**line, position=i, name=f"Quirk {i}", value=(1, 2, 4)[i % 3], ranks=1,
                         affects="social checks") for i in range(4))
        Equipment.objects.bulk_create(
            Equipment(**line, position=i, name=f"Kit {i}", breadth=BREADTHS[i % 3], ranks=1 + i % 3)
            for i in range(6))
        Weapon.objects.bulk_create(
            Weapon(**line, position=i, name=f"Weapon {i}", damage_points=3 + i, rate_of_fire=1 + i % 2,
                   skilled=bool(i % 2)) for i in range(4))
        Armour.objects.bulk_create(
            Armour(**line, position=i, name=f"Armour {i}", hardness=2 + i, coverage=1 + i, nim_penalty=i)
            for i in range(2))
        Language.objects.bulk_create(
            Language(**line, position=i, name=f"Language {i}", era="21st century", native=i == 0,
                     spoken=3 - min(i, 2), heard=3 - min(i, 2), written=1, read=1) for i in range(4))
        characters.append(character)
    # The ledger: 11 adventures, each paying every character, plus GM awards ((11 + 22) × 6 ≈ 200 entries).
    for a in range(11):
        adventure = economy.adventure_start(campaign=campaign, name=f"Adventure {a + 1}", base_xp=2, by=gm)
        economy.token_add(adventure=adventure, note="A good idea", by=gm)
        economy.adventure_close(adventure=adventure, outcome="solution", permanent=False, selfish=(), by=gm)
    for a in range(22):
        economy.award(campaign=campaign, by=gm, kind="complication", character_ids=[c.pk for c in characters],
                      reason="Trouble at the table", idempotency_key=f"bench-award-{campaign.pk}-{a}")
    pools = [
        economy.macguffin_create(campaign=campaign, name=name, limitation="", target=target, upgrade=upgrade, by=gm)
        for name, target, upgrade in (("Crystal radio set", 30, MacGuffin.Upgrade.COMMS),
                                      ("Meitner field lattice", 40, MacGuffin.Upgrade.MEITNER),
                                      ("Chronometer", 50, MacGuffin.Upgrade.DETECTION))]
    for pool in pools:
        for character in characters:
            economy.macguffin_contribute(macguffin=pool, character=character, amount=2,
                                         idempotency_key=f"bench-pool-{pool.pk}-{character.pk}", by=character.owner)
    return _ids(campaign)


def _ids(campaign) -> dict:
    characters = list(campaign.characters.order_by("pk"))
    return {
        "campaign": campaign.pk,
        "character": characters[0].pk,
        "owner": characters[0].owner.username,
        "password": PASSWORD,
        "macguffin": campaign.macguffins.order_by("pk").first().pk,
    }
