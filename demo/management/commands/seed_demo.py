"""Load the demo campaign (idempotent: running it again changes nothing)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaign import services
from campaign.models import Campaign, Membership
from characters import items, lifecycle
from characters import services as character_services
from characters.models import Character
from economy import services as economy
from economy.models import MacGuffin

DEMO_PASSWORD = "zener-demo"
DEMO_CAMPAIGN = "Chronosquad Seven"

# Two approved temporanauts that show off the sheet: every line kind, a trade, a disadvantage.
DEMO_CHARACTERS = {
    "alice": {
        "name": "Mara Velez",
        "stats": {"STR": 11, "CON": 14, "RES": 13, "NIM": 15, "DEX": 16, "ACC": 12, "MEL": 10,
                  "PRAC": 15, "THEO": 14, "ENC": 13, "LAN": 12, "AWA": 16, "PERS": 14},
        "int_dice": [4, 2],
        "trades": {},
        "lines": {
            "skills": [
                {"name": "Field Medic", "breadth": "broad", "ranks": 3, "stat": "PRAC"},
                {"name": "First Aid", "breadth": "narrow", "ranks": 2, "stat": "PRAC"},
                {"name": "Surgery", "breadth": "specific", "ranks": 3, "stat": "DEX"},
                {"name": "Pistol", "breadth": "weapon_type", "ranks": 2, "stat": "ACC", "weapon_category": "Firearm"},
                {"name": "Persuasion", "breadth": "narrow", "ranks": 1, "stat": "PERS"},
                {"name": "Wilderness Survival", "breadth": "broad", "ranks": 1, "stat": "AWA"},
            ],
            "disadvantages": [{"name": "Poor at Mathematics", "value": 2, "ranks": 1, "affects": "calculations"}],
            "equipment": [{"name": "Field surgery kit", "breadth": "narrow", "ranks": 2, "notes": "counts for First Aid"}],
            "weapons": [{"name": "9 mm pistol", "damage_points": 4, "rate_of_fire": 1, "skilled": True}],
            "armour": [{"name": "Kevlar vest", "hardness": 4, "coverage": 2, "nim_penalty": 1}],
            "languages": [
                {"name": "English", "era": "21st century", "native": True, "spoken": 3, "heard": 3, "written": 3, "read": 3},
                {"name": "Spanish", "era": "1920s", "spoken": 3, "heard": 2, "written": 1, "read": 1},
            ],
        },
    },
    "bob": {
        "name": "Tomas Kettering",
        "stats": {"STR": 16, "CON": 17, "RES": 15, "NIM": 12, "DEX": 13, "ACC": 15, "MEL": 14,
                  "PRAC": 16, "THEO": 11, "ENC": 10, "LAN": 8, "AWA": 12, "PERS": 9},
        "int_dice": [3, 5],
        "trades": {"ENC": -2},
        "lines": {
            "skills": [
                {"name": "Combat Engineer", "breadth": "broad", "ranks": 3, "stat": "PRAC"},
                {"name": "Demolitions", "breadth": "narrow", "ranks": 3, "stat": "PRAC"},
                {"name": "Rifle", "breadth": "weapon_type", "ranks": 2, "stat": "ACC", "weapon_category": "Firearm"},
                {"name": "Brawling", "breadth": "narrow", "ranks": 1, "stat": "MEL"},
            ],
            "disadvantages": [{"name": "Short temper", "value": 2, "ranks": 2, "affects": "social checks under stress"}],
            "equipment": [],
            "weapons": [{"name": "Assault rifle", "damage_points": 5, "rate_of_fire": 2, "skilled": True}],
            "armour": [{"name": "Ceramic plate carrier", "hardness": 6, "coverage": 3, "nim_penalty": 2, "skilled": True}],
            "languages": [{"name": "English", "era": "21st century", "native": True, "spoken": 3, "heard": 3,
                           "written": 3, "read": 3}],
        },
    },
}


class Command(BaseCommand):
    help = "Create the demo users (gm, alice, bob, carol; password zener-demo) and the demo campaign."

    @transaction.atomic
    def handle(self, *args, **options):
        User = get_user_model()
        users = {}
        for username in ("gm", "alice", "bob", "carol"):
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
            users[username] = user
        gm = users["gm"]
        campaign = Campaign.objects.filter(name=DEMO_CAMPAIGN, memberships__user=gm).first()
        if campaign is None:
            campaign = services.campaign_create(
                name=DEMO_CAMPAIGN, by=gm,
                description="Two temporanauts, one unreliable gate, and a long way home.",
            )
        for username, spec in DEMO_CHARACTERS.items():
            if not Membership.objects.filter(campaign=campaign, user=users[username]).exists():
                services.membership_add(campaign=campaign, username=username, role="player", by=gm)
            if not Character.objects.filter(campaign=campaign, owner=users[username]).exists():
                self._character(campaign, users[username], gm, spec)
        if not campaign.macguffins.exists():
            self._economy(campaign, gm)
        if not campaign.encounters.exists():
            self._encounter(campaign, gm)
        self.stdout.write(self.style.SUCCESS(
            f"Demo ready: campaign #{campaign.pk} “{campaign.name}”; users gm, alice, bob, carol "
            f"(password {DEMO_PASSWORD})."))

    def _character(self, campaign, owner, gm, spec):
        character = character_services.character_create(
            campaign=campaign, owner=owner, name=spec["name"], stats=spec["stats"],
            int_dice=spec["int_dice"], trades=spec["trades"], by=owner)
        for kind, lines in spec["lines"].items():
            for line in lines:
                items.item_create(character=character, kind_name=kind, data=line, by=owner, is_gm=False)
        lifecycle.character_submit(character=character, by=owner)
        # The GM accepts every proposed breadth, then approves.
        for kind_name in items.ITEM_KINDS:
            for line in getattr(character, kind_name).filter(classified=False):
                items.item_update(item=line, kind_name=kind_name, data={}, by=gm, is_gm=True)
        return lifecycle.character_approve(character=character, by=gm)

    def _encounter(self, campaign, gm):
        """A fight ready to run: both characters, a revealed guard and a hidden sniper."""
        from combat import library  # the demo composes every app; nothing imports it back
        from combat import services as combat

        fight = combat.encounter_create(campaign=campaign, by=gm, name="The customs house",
                                        gm_notes="The sniper on the roof is a Chronosquad deserter.")
        for character in campaign.characters.order_by("name"):
            combat.combatant_add(encounter=fight, by=gm, character_id=character.pk)
        combat.combatant_add(encounter=fight, by=gm, npc={
            "name": "Customs guard", "revealed": True, "stats": {"ACC": 13, "MEL": 14, "AWA": 12},
            "armour_rating": 2, "armour_type": 2,
            "weapons": [{"name": "Flintlock pistol", "damage_points": 4, "ranks": 1}]})
        combat.combatant_add(encounter=fight, by=gm, npc={
            "name": "Rooftop sniper", "stats": {"ACC": 17, "AWA": 15},
            "weapons": [{"name": "Long rifle", "damage_points": 5, "ranks": 2}]})
        # The same cast in the GM's NPC library, to start the next fight at the customs house from.
        library.setup_save(encounter=fight, by=gm, name="Customs house crew")

    def _economy(self, campaign, gm):
        radio = economy.macguffin_create(campaign=campaign, name="Crystal radio set",
                                         limitation="No word from Zener Command", target=10,
                                         upgrade=MacGuffin.Upgrade.COMMS, by=gm)
        economy.macguffin_create(campaign=campaign, name="Meitner field lattice",
                                 limitation="Nothing but clothes survives a transition", target=20,
                                 upgrade=MacGuffin.Upgrade.MEITNER, by=gm)
        adventure = economy.adventure_start(campaign=campaign, name="Lisbon, 1755", base_xp=2, by=gm)
        economy.token_add(adventure=adventure, note="The quake is three days early", by=gm)
        for character, amount in zip(campaign.characters.order_by("name"), (3, 2), strict=False):
            economy.macguffin_contribute(macguffin=radio, character=character, amount=amount,
                                         idempotency_key=f"demo-radio-{character.pk}", by=character.owner)
        tomas = campaign.characters.get(name="Tomas Kettering")
        Character.objects.filter(pk=tomas.pk).update(trauma=4, shock=3, endurance_spent=5)
