"""Blows and rests of the other rule sets, pure: each number from the seeds' examples or rules."""

from fractions import Fraction

import pytest

from rulebook import RulesError
from rulebook.systems import exchanges, rocket_house
from rulebook.systems.rocket_house import FATIGUE_ONLY, WOUNDS_ONLY, Fighter

GARETH, KNIGHT = Fighter(93, 4, 4), Fighter(72, 3, 4)
TOUGH = {"toughness": 76}  # the Puce Knight: Good (76 %), 15 Fatigue


def _round(first=GARETH, second=KNIGHT, dice=(82, 44, 47), **options):
    return exchanges.rocket_house_round(first=first, second=second, first_condition={}, second_condition={},
                                        first_numbers={"toughness": 60}, second_numbers=TOUGH, dice=list(dice),
                                        names=("Gareth", "the Puce Knight"), **options)


def test_gareth_and_the_puce_knight():
    """003, "Combat" and "Damage": 12 − 4 Effect, − 4 armour: 4 damage, a basic wound; 15 − 4 = 11
    Fatigue; the Toughness check at 76 − 10 = 66 is rolled 47: still awake."""
    blow = _round()
    assert blow.conditions == {"second": {"fatigue": 11, "wounds": ["basic"], "unconscious": False, "dead": False}}
    assert blow.summary.english() == "82 against 44: the Puce Knight takes 4 damage, a basic wound, Toughness check made"
    assert dict(blow.breakdown)["second: Toughness check (Toughness + the wound's penalty)"] == 66
    assert blow.probability == rocket_house.combat_odds(GARETH, KNIGHT).second_hurt


def test_gareths_strength_would_have_made_it_serious():
    """003, "Strength in Combat": his 2 bonus Effect raise the damage from 4 to 6, a serious wound."""
    blow = _round(first_strength=2)
    assert blow.conditions["second"]["wounds"] == ["serious"] and blow.spent == {"first.strength_effect": 2}


def test_both_offensive():
    """003, "Stances": Gareth takes 7 − 4 = 3 (a wound, 3 Fatigue), the knight 12 − 4 = 8 (extreme)."""
    blow = _round(first=Fighter(93, 4, 4, "offensive"), second=Fighter(72, 3, 4, "offensive"), dice=(82, 44, 30, 20))
    assert blow.conditions["first"]["wounds"] == ["basic"] and blow.conditions["first"]["fatigue"] == 9
    assert blow.conditions["second"]["wounds"] == ["extreme"]


def test_a_failed_toughness_check_and_out_of_the_fight():
    blow = _round(dice=(82, 44, 67))
    assert blow.conditions["second"]["unconscious"] is True
    with pytest.raises(RulesError, match="second fighter is out of the fight"):
        exchanges.rocket_house_round(first=GARETH, second=KNIGHT, first_condition={},
                                     second_condition=blow.conditions["second"], first_numbers={},
                                     second_numbers=TOUGH, dice=[1, 1])


def test_a_splat_kills_and_less_lethal_never_does():
    brute = Fighter(95, 5, 0)
    dead = _round(first=brute, second=Fighter(50), dice=(95, 99))  # 9 + 5 = 14 against nothing: splat
    assert dead.conditions["second"]["dead"] is True and dead.summary.english().endswith("a splat wound: dead")
    stunned = _round(first=brute, second=Fighter(50), dice=(95, 99, 10), less_lethal=True)
    assert stunned.conditions["second"]["wounds"] == ["extreme"] and not stunned.conditions["second"]["dead"]


def test_wounds_only():
    """003, "Wounds Only": the net Effect's band is the wound (1 basic, 4 serious, 7 extreme, 9 a
    kill); Fatigue is not counted; Toughness is armour once a fight (Good gives 2)."""
    blow = _round(damage_mode=WOUNDS_ONLY, dice=(82, 44, 47))
    assert blow.conditions["second"]["wounds"] == ["serious"] and blow.conditions["second"]["fatigue"] == 15
    armoured = _round(damage_mode=WOUNDS_ONLY, second_toughness=2, dice=(82, 44, 47))
    assert armoured.conditions["second"]["wounds"] == ["basic"]
    assert armoured.spent == {"second.toughness_armour": 2}
    shown = exchanges.standing("rocket_house", blow.conditions["second"], TOUGH, damage_mode=WOUNDS_ONLY)
    assert shown["lines"] == [("Wounds", "serious"), ("Bleeding", "out cold in 10 minutes, dead in 15 without "
                                                                  "first aid")]
    with pytest.raises(RulesError, match="only under the Wounds Only rule"):
        _round(second_toughness=1)


def test_fatigue_only():
    """003, "Fatigue Only": no wounds and no Toughness check; at 0 out cold and bleeding a Fatigue a
    minute, dead at −Toughness."""
    blow = _round(damage_mode=FATIGUE_ONLY, dice=(82, 44))
    assert blow.conditions["second"] == {"fatigue": 11, "wounds": [], "unconscious": False, "dead": False}
    out = exchanges.rocket_house_round(first=Fighter(95, 5, 0), second=Fighter(50), first_condition={},
                                       second_condition={"fatigue": 3}, first_numbers={}, second_numbers=TOUGH,
                                       dice=[95, 99], damage_mode=FATIGUE_ONLY)
    assert out.conditions["second"]["unconscious"] and out.conditions["second"]["fatigue"] == -11
    shown = exchanges.standing("rocket_house", out.conditions["second"], TOUGH, damage_mode=FATIGUE_ONLY)
    assert shown["state"] == "unconscious" and ("Bleeding", "1 Fatigue a minute until first aid") in shown["lines"]


def test_the_pistol_against_light_armour():
    """002, "Armor system": 2d6 + 4 against PT 15 / DR 30; 12 on the dice: 16, 4 soaked, 12 taken."""
    blow = exchanges.success_check_attack(bonus=5, tn=15, weapon_dice=2, modifier=4, pt=15, dr=30, target={},
                                          target_numbers={"health": 30}, check_dice=[6, 7], damage_dice=[6, 6])
    assert blow.conditions == {"second": {"damage": 12, "burned": 0}} and blow.spent == {"first.edge": 0}
    assert blow.probability == Fraction(16, 25)  # 2d10 + 5 ≥ 15: 10 or more on 2d10, 64 %


def test_edge_for_damage_is_spent_only_on_a_hit():
    miss = exchanges.success_check_attack(bonus=0, tn=20, weapon_dice=2, modifier=4, edge_damage=1, target={},
                                          target_numbers={}, check_dice=[1, 2])
    assert miss.spent == {"first.edge": 0} and miss.conditions == {}
    with pytest.raises(RulesError, match="no damage to roll"):
        exchanges.success_check_attack(bonus=0, tn=20, weapon_dice=2, modifier=4, target={}, target_numbers={},
                                       check_dice=[1, 2], damage_dice=[6, 6])


def test_a_zerospace_hit_and_the_tired_attacker():
    """001, "Konsequenzen": a hit costs 1 Endurance; "Ausdauer": more than half of it lost, a penalty die."""
    hit = exchanges.zerospace_attack(av=6, dv=5, attacker={}, target={}, attacker_numbers={"brawn": 4},
                                     target_numbers={"brawn": 3}, dice=[4, 4, 3, 3])
    assert hit.conditions == {"second": {"endurance": 2}}
    tired = exchanges.zerospace_attack(av=6, dv=5, attacker={"endurance": 1}, target={}, attacker_numbers={"brawn": 4},
                                       target_numbers={"brawn": 3}, dice=[6, 3, 3])
    assert dict(tired.breakdown)["attacker's penalty die (Endurance below half)"] == -1
    assert dict(tired.breakdown)["faces counted"] == (6,)  # by the default ruling a penalty die takes one away


def test_rest():
    rested = exchanges.recover("rocket_house", {"fatigue": 2, "wounds": ["extreme"], "unconscious": True,
                                                "dead": False}, {}, TOUGH, 24 * 14)
    assert rested.condition == {"fatigue": 15, "wounds": ["basic"], "unconscious": False, "dead": False,
                                "bandaged": True}
    edge = exchanges.recover("success_check", {}, {"edge": 0}, {"edge_max": 3}, 2)
    assert edge.pools == {"edge": 1} and edge.lines == ("Edge 0 → 1 of 3 (short rest)",)
    assert exchanges.recover("success_check", {}, {"edge": 0}, {"edge_max": 3}, 8).pools == {"edge": 3}
    assert exchanges.recover("zerospace", {"endurance": 0}, {}, {"brawn": 5}, 1).condition == {
        "endurance": 2, "half_back": True}  # 5 lost: 2 back (rounded down)
    assert exchanges.recover("core_rules", {}, {}, {}, 100).lines == ()


def _zs(endurance, hours, rest="comfortable", base=5, **more):
    return exchanges.recover("zerospace", {"endurance": endurance, **more}, {}, {"brawn": base}, hours, rest=rest)


def test_zerospace_rest_gives_half_back_once_and_sleep_all():
    """001, "Endurance" (RULINGS §8): about half an hour's rest after a conflict gives back half the
    Endurance lost, rounded down, once; more only from a night's sleep, which restores all of it.
    Hand-worked: Brawn 5 at 2 (3 lost) → 2 + ⌊3 / 2⌋ = 3."""
    assert _zs(2, 2, rest="awake").condition["endurance"] == 3  # not 4: the half comes once
    assert _zs(2, 8).condition == {"endurance": 5}  # a night's sleep: all back
    assert _zs(2, 8, rest="awake").condition["endurance"] == 3  # eight hours awake are no night
    assert _zs(3, 8, base=4).condition == {"endurance": 4}  # once "Nothing to heal or refill"
    assert _zs(3, 1, base=4).condition["endurance"] == 3  # 1 lost: ⌊1 / 2⌋ = 0 back
    assert _zs(2, 4, rest="none").condition == {"endurance": 2}  # no rest at all: nothing back
    once = _zs(2, 1)
    again = exchanges.recover("zerospace", once.condition, {}, {"brawn": 5}, 3, rest="rough")
    assert again.condition["endurance"] == 3 and "the half-hour's half is spent" in again.lines[0]
    night = exchanges.recover("zerospace", again.condition, {}, {"brawn": 5}, 8, rest="rough")
    assert night.condition == {"endurance": 5} and night.lines == ("Endurance 3 → 5 of 5 (a night's sleep)",)


def test_zerospace_rally_is_the_half_hours_half_and_a_new_loss_allows_it_again():
    """001: a rally (a plot point spent) restores Endurance "as though they'd had a half-hour's
    worth of rest": 2 of 5 → 3, and resting then gives nothing more until sleep; a new hit
    starts a new conflict, whose half-hour rest gives half back again."""
    rallied = exchanges.rally({"endurance": 2}, {"brawn": 5})
    assert rallied == {"endurance": 3, "half_back": True}
    assert exchanges.recover("zerospace", rallied, {}, {"brawn": 5}, 1).condition["endurance"] == 3
    # The half comes once: after a rest's half (1 of 5 → 3), a rally has none left to give.
    rested = exchanges.recover("zerospace", {"endurance": 1}, {}, {"brawn": 5}, 1).condition
    assert rested["endurance"] == 3
    with pytest.raises(RulesError, match="back already"):
        exchanges.rally(rested, {"brawn": 5})
    hit = exchanges.zerospace_attack(av=6, dv=5, attacker={}, target=rallied, attacker_numbers={"brawn": 4},
                                     target_numbers={"brawn": 5}, dice=[4, 4, 3, 3])
    assert hit.conditions == {"second": {"endurance": 2}}  # hit for 1: the mark is gone
    assert exchanges.recover("zerospace", hit.conditions["second"], {}, {"brawn": 5}, 1).condition[
        "endurance"] == 3


def test_bleeding_adds_up_and_first_aid_stops_it():
    """003, "Wounds": two extreme and three serious wounds lose 2 Fatigue a turn and 3 more each
    minute; a turn is about 3 seconds. "First Aid": a roll less the worst wound's penalty stops it."""
    hurt = {"fatigue": 40, "wounds": ["extreme", "extreme", "serious", "serious", "serious"],
            "unconscious": False, "dead": False}
    numbers = {"toughness": 90}
    after_round, said = exchanges.bleed(hurt, numbers)
    assert after_round["fatigue"] == 38 and said.english() == "bleeds 2 Fatigue"
    condition = hurt
    for _ in range(20):  # a minute of rounds: 20 × 2, and the minute's 3
        condition, _ = exchanges.bleed(condition, numbers)
    assert condition["fatigue"] == 40 - 40 - 3 and condition["unconscious"]
    failed, roll = exchanges.first_aid(hurt, numbers, skill=60, dice=[45])  # 60 − 30 = 30: 45 fails
    assert not roll.success and "bandaged" not in failed
    seen, roll = exchanges.first_aid(hurt, numbers, skill=60, dice=[25])
    assert roll.success and seen["bandaged"] and not exchanges.bleed(seen, numbers)[1]
    assert ("Bleeding", "stopped by first aid") in exchanges.standing("rocket_house", seen, numbers)["lines"]


def test_wounds_only_bleeding_runs_on_a_clock():
    """003, "Wounds Only": an extreme wound knocks out in a minute and kills in five."""
    condition = {"fatigue": 10, "wounds": ["extreme"], "unconscious": False, "dead": False}
    for _ in range(19):
        condition, said = exchanges.bleed(condition, TOUGH, damage_mode=WOUNDS_ONLY)
    assert not condition["unconscious"]
    condition, said = exchanges.bleed(condition, TOUGH, damage_mode=WOUNDS_ONLY)
    assert condition["unconscious"] and said.english() == "passes out from the bleeding"
    condition, said = exchanges.bleed(condition, TOUGH, seconds=240, damage_mode=WOUNDS_ONLY)
    assert condition["dead"] and said.english() == "bleeds to death"
