"""A campaign with something in every table the document holds, built through the services."""

import io
import random

import pytest
from django.core.management import call_command

from economy.tests.conftest import make_character  # noqa: F401  (fixture)


def _play_combat(campaign, gm):
    """Initiative, an attack, turns, a refused and a waiting attack request, a reaction and its undo."""
    from combat import attacks, library
    from combat import services as combat
    from combat.fighters import fighter
    from combat.models import Combatant

    fight = campaign.encounters.get()
    fighters = list(Combatant.objects.filter(encounter=fight).select_related("character").order_by("position"))
    pcs = [f for f in fighters if f.character_id]
    guard = next(f for f in fighters if f.name == "Customs guard")
    combat.combatant_update(combatant=next(f for f in fighters if f.name == "Rooftop sniper"), by=gm, revealed=True)
    combat.initiative_roll(encounter=fight, by=gm, dice={pcs[0].pk: [6], pcs[1].pk: [5]}, rng=random.Random(1))
    weapon = pcs[0].character.weapons.get()
    attacks.attack_make(encounter=fight, by=gm, rng=random.Random(2),
                        request=attacks.AttackRequest(attacker=pcs[0].pk, target=guard.pk, weapon=weapon.pk))
    for _ in range(len(fighters) * 2):  # on to a player character's turn, for a request with its weapon id
        fight.refresh_from_db()
        acting = Combatant.objects.select_related("character").get(pk=fight.order[fight.turn])
        if acting.character_id and not (acting.dead or fighter(acting).dying or acting.out_cold_until):
            break
        combat.turn_next(encounter=fight, by=gm, rng=random.Random(3))
    other = next(f for f in fighters if f.pk != acting.pk)
    own = acting.character.weapons.get().pk
    refused = attacks.attack_request(encounter=fight, by=acting.character.owner,
                                     request=attacks.AttackRequest(attacker=acting.pk, target=other.pk, weapon=own))
    attacks.request_answer(encounter=fight, by=gm, request_id=refused.pk, approve=False)
    attacks.attack_request(encounter=fight, by=acting.character.owner,
                           request=attacks.AttackRequest(attacker=acting.pk, target=other.pk, weapon=own))
    combat.reaction(encounter=fight, by=gm, combatant_id=guard.pk, milliseconds=300, rng=random.Random(4))
    combat.undo_last(encounter=fight, by=gm)
    library.setup_save(encounter=fight, by=gm, name="Customs house crew")  # the GM's NPC library


def _play_economy(campaign, gm, mara, tomas):
    """Close the demo adventure, a Complication, spends of several kinds, the upgrades that allow a delay."""
    from economy import services as economy
    from economy.models import Adventure, MacGuffin

    lisbon = campaign.adventures.get()
    economy.token_add(adventure=lisbon, note="The harbour floods", by=gm)
    economy.token_void(token=lisbon.tokens.order_by("id").last(), by=gm)
    economy.adventure_close(adventure=lisbon, outcome=Adventure.Outcome.ADVICE, permanent=False,
                            selfish=[tomas.pk], by=gm)
    economy.award(campaign=campaign, kind="manual", character_ids=[mara.pk, tomas.pk], by=gm, amount=40,
                  reason="Saved the gate")
    economy.award(campaign=campaign, kind="npc_boost", character_ids=[mara.pk], by=gm, reason="Helped the consul")
    temper = tomas.disadvantages.get()
    economy.karma_spend(character=tomas, kind="disadvantage_removal", idempotency_key="calm", by=tomas.owner,
                        is_gm=False, params={"disadvantage": temper.pk})
    economy.karma_spend(character=mara, kind="stat_raise", idempotency_key="stronger", by=mara.owner, is_gm=False,
                        params={"stat": "STR"})
    economy.karma_spend(character=mara, kind="assist", idempotency_key="help", by=mara.owner, is_gm=False,
                        params={"character": tomas.pk, "reason": "Steadies his aim"})
    economy.complication_record(character=tomas, cause="debt", form="stat_loss", ranks=1, stat="PERS",
                                description="Loses face with the harbour master", by=gm)
    for pool in campaign.macguffins.order_by("id"):
        economy.macguffin_contribute(macguffin=pool, character=tomas, amount=pool.target - pool.progress,
                                     idempotency_key=f"fund-{pool.pk}", by=tomas.owner)
    detection = economy.macguffin_create(campaign=campaign, name="Threshold detector", limitation="",
                                         target=2, upgrade=MacGuffin.Upgrade.DETECTION, by=gm)
    economy.macguffin_contribute(macguffin=detection, character=mara, amount=2, idempotency_key="detect",
                                 by=mara.owner)
    economy.adventure_start(campaign=campaign, name="Porto, 1809", base_xp=1, by=gm)
    economy.karma_spend(character=mara, kind="delay_transition", idempotency_key="delay", by=mara.owner,
                        is_gm=False, params={"time_index": 2})


def _play_downtime(campaign, gm, mara, tomas):
    """A therapy given at once, a downtime run to the end, a Zener Transition that meets a delay."""
    from downtime import services as downtime
    from downtime import transitions, treatments

    therapy = treatments.therapy_define(campaign=campaign, by=gm, name="Iodine course", efficacy_loss=1)
    treatments.treatment_give(character=tomas, by=gm, kind="therapy", therapy_id=therapy.pk,
                              idempotency_key="iodine", rng=random.Random(5))
    treatments.treatment_give(character=mara, by=gm, kind="stimutabs", idempotency_key="tabs", rng=random.Random(6))
    job, _ = downtime.downtime_start(campaign=campaign, by=gm, request={
        "hours": 30, "rest": "comfortable", "idempotency_key": "week",
        "therapies": [{"character": tomas.pk, "kind": "therapy", "therapy": therapy.pk}],
        "medical": {tomas.pk: {"medic": mara.pk}}})
    downtime.downtime_run(job_id=job.pk)  # what the worker does
    transitions.transition_make(campaign=campaign, by=gm, category="2", character_ids=[mara.pk, tomas.pk],
                                idempotency_key="jump", rng=random.Random(7))


def _play_other_rule_sets(campaign, gm, users):
    """A Rocket House evening: a sheet with its ledger and history, a fight with a blow (one undone),
    a rest in the downtime job; then back to Zener Gate, the sheets kept."""
    from campaign import services
    from characters import system_sheets
    from combat import system_blows, system_fights
    from downtime import services as downtime

    alice = users["alice"]
    campaign = services.campaign_update(campaign=campaign, by=gm, rule_set="rocket_house")
    gareth = system_sheets.system_sheet_create(campaign=campaign, owner=alice, by=alice, name="Sir Gareth",
                                               lines=[{"name": "Fighting", "inputs": {"trait": 93}}],
                                               numbers={"toughness": 60, "strength": 70, "armour": 4})
    system_sheets.system_sheet_update(sheet=gareth, by=alice, numbers={"toughness": 62})
    fight = system_fights.system_fight_start(campaign=campaign, by=gm, name="The field", fighters=[
        {"sheet": gareth.pk, "total": 9}, {"name": "Puce Knight", "total": 4, "numbers": {"toughness": 76, "armour": 4}}])
    system_fights.system_fight_act(fight=fight, by=gm, is_gm=True, action="next")
    for dice in ([44, 65], [82, 44, 47]):
        system_blows.system_fight_blow(fight=fight, by=alice, is_gm=False, attacker="Sir Gareth",
                                       target="Puce Knight", inputs={"line": "Fighting", "second_skill": 72,
                                                                     "first_weapon": 4, "first_strength": 1,
                                                                     "dice": dice})
    system_blows.system_fight_undo(fight=fight, by=gm, is_gm=True)
    system_blows.system_fight_blow(fight=fight, by=gm, is_gm=True, attacker="Puce Knight", target="Sir Gareth",
                                   inputs={"first_skill": 72, "second_skill": 93, "first_weapon": 3,
                                           "dice": [61, 21, 15]})
    job, _ = downtime.downtime_start(campaign=campaign, by=gm, request={
        "hours": 2, "rest": "comfortable", "idempotency_key": "rest-after-the-joust"})
    downtime.downtime_run(job_id=job.pk)
    services.campaign_update(campaign=campaign, by=gm, rule_set="zener")


def _play_sheets(campaign, gm, users):
    """A draft whose lines were added, changed and removed, and GM notes written then reverted."""
    from characters import items, lifecycle, services

    carol = users["carol"]
    draft = services.character_create(campaign=campaign, owner=carol, name="Ines Duarte", by=carol, int_dice=[3, 3],
                                      stats={"STR": 10, "CON": 12, "RES": 13, "NIM": 14, "DEX": 15, "ACC": 11,
                                             "MEL": 9, "PRAC": 14, "THEO": 16, "ENC": 15, "LAN": 17, "AWA": 13,
                                             "PERS": 12})
    first = items.item_create(character=draft, kind_name="skills", by=carol, is_gm=False,
                              data={"name": "Linguistics", "breadth": "broad", "ranks": 2, "stat": "LAN"})
    items.item_create(character=draft, kind_name="skills", by=carol, is_gm=False,
                      data={"name": "Cartography", "breadth": "narrow", "ranks": 1, "stat": "PRAC"})
    gone = items.item_create(character=draft, kind_name="languages", by=carol, is_gm=False,
                             data={"name": "Latin", "era": "Classical", "spoken": 1, "heard": 2, "written": 3,
                                   "read": 3})
    items.item_update(item=first, kind_name="skills", data={"ranks": 3}, by=carol, is_gm=False)
    # A weapon linked to the weapon skill its name matches, then moved to another: the link travels.
    items.item_create(character=draft, kind_name="skills", by=carol, is_gm=False,
                      data={"name": "Rifle", "breadth": "weapon_type", "ranks": 1, "stat": "ACC"})
    shotgun = items.item_create(character=draft, kind_name="skills", by=carol, is_gm=False,
                                data={"name": "Shotgun", "breadth": "weapon_type", "ranks": 2, "stat": "ACC"})
    rifle = items.item_create(character=draft, kind_name="weapons", by=carol, is_gm=False,
                              data={"name": "Hunting rifle", "damage_points": 5})
    items.item_update(item=rifle, kind_name="weapons", data={"skill": shotgun.pk}, by=carol, is_gm=False)
    items.item_delete(item=gone, kind_name="languages", by=carol, is_gm=False)
    portuguese = items.item_create(character=draft, kind_name="languages", by=carol, is_gm=False,
                                   data={"name": "Portuguese", "era": "1800s", "native": True, "spoken": 3,
                                         "heard": 3, "written": 2, "read": 2})
    services.character_update(character=draft, by=gm, is_gm=True, data={"gm_notes": "Knows the gate's builder"})
    moment = portuguese.history.latest("history_date").history_date
    lifecycle.character_revert(character=draft, by=gm, at=moment)
    return draft


def _play_rolls(campaign, gm, users):
    """A rule set with a ruling of its own, a player's check, a notation roll and a private GM roll."""
    from campaign import services
    from rolls import services as rolls

    campaign = services.campaign_update(campaign=campaign, by=gm, rule_set="success_check",
                                        rulings={"advantage_drop": 1})
    rolls.roll_check(campaign=campaign, by=users["alice"], check={"bonus": 6, "tn": 15, "advantage": 1},
                     label="Picks the customs lock", rng=random.Random(8))
    rolls.roll_notation(campaign=campaign, by=users["bob"], text="4d6kh3", rng=random.Random(9))
    rolls.roll_notation(campaign=campaign, by=gm, text="1d20+2", label="Is the consul lying?", private=True,
                        rng=random.Random(10))
    # A check from alice's sheet that fails, and its Karma reroll: the copy keeps the link.
    from characters.models import Character

    mara = Character.objects.filter(campaign=campaign, owner=users["alice"], state="active").first()
    failed, _ = rolls.sheet_roll(character=mara, by=users["alice"], line="stat:AWA", dice=[6, 6, 6],
                                 rng=random.Random(11), idempotency_key="sheet-awa")
    rolls.roll_reroll(roll=failed, by=users["alice"], is_gm=False, idempotency_key="reroll-awa", rng=random.Random(12))


def _play_sessions(campaign, gm, users):
    """A night with its published recap and two notes, then a night whose recap is still a draft."""
    from campaign import sessions

    night = sessions.session_start(campaign=campaign, by=gm)
    sessions.session_note_add(session=night, by=users["alice"], text="Mara owes Tomas a favour.")
    night = sessions.session_end(campaign=campaign, by=gm, recap="The depot fell; the sniper got away.")
    sessions.session_recap_save(session=night, by=gm, recap=night.recap + "\nA fine night.", publish=True)
    sessions.session_note_add(session=night, by=gm, text="Next: the customs house.")
    sessions.session_start(campaign=campaign, by=gm)
    sessions.session_end(campaign=campaign, by=gm, recap="A quiet night (draft).")


@pytest.fixture
def rich(personas):
    """The demo campaign (seed_demo) played on: every table the document holds has rows.

    The personas' gm is the demo's GM; carol is a viewer and owns a draft.
    """
    from campaign import services
    from campaign.models import Campaign
    from characters.models import Character

    call_command("seed_demo", stdout=io.StringIO())
    campaign = Campaign.objects.get(name="Chronosquad Seven")
    gm = personas["gm"]
    users = {u.username: u for u in type(gm).objects.filter(username__in=("alice", "bob", "carol"))}
    services.membership_add(campaign=campaign, username="carol", role="viewer", by=gm)
    mara = Character.objects.get(campaign=campaign, name="Mara Velez")
    tomas = Character.objects.get(campaign=campaign, name="Tomas Kettering")
    _play_sheets(campaign, gm, users)
    _play_economy(campaign, gm, mara, tomas)
    _play_combat(campaign, gm)
    _play_other_rule_sets(campaign, gm, users)
    _play_downtime(campaign, gm, mara, tomas)
    _play_rolls(campaign, gm, users)
    _play_sessions(campaign, gm, users)
    campaign.refresh_from_db()
    return campaign
