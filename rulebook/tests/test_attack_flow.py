"""An attack from the roll to the wounds, with dice named by slot (rulebook.combat)."""

import random
from fractions import Fraction

import pytest

from rulebook import RulesError
from rulebook.combat import ATTACK_DICE_SLOTS, attack_with_damage
from rulebook.damage import WoundState
from rulebook.dice import DiceSlots
from rulebook.equipment import roll_weapon_damage
from rulebook.tests.scripted import ScriptedRng

STATS = {"CON": 12, "RES": 14, "STR": 12, "MEL": 12, "END": 12}


def _target():
    return WoundState(hit_points=40, shock_threshold=6, stats=STATS)


def test_the_rifle_example_from_the_roll_to_the_wounds():
    """Article, "Damage & Recovery" (the rifle example): 8 rolled trauma, armour 5, chest hit:
    9 − 5 = 4 trauma; shock 2 + d6 4 + 2 = 8 against SHK 6; the CON save at −2 fails; d10 6
    → time chart 4 → 10 seconds out; chest d8 of 4 → 1 point of RES."""
    dice = DiceSlots({"attack": [1, 2, 3], "location": [50], "effect": [6, 4], "damage": [2, 3, 3],
                      "shock": [4], "save": [6, 6, 6, 6], "unconscious": [6]}, ATTACK_DICE_SLOTS)
    outcome = attack_with_damage(attack_stat=14, weapon_ranks=2, defense=0, target_wounds=_target(),
                                 target_armour_rating=5, damage_points=5, dice=dice, endurance=10)
    dice.check_all_used()
    assert outcome.attack.outcome == "hit" and outcome.attack.location.location == "right_chest"
    assert not outcome.attack.location.critical_location
    assert outcome.damage.total == 8
    hit = outcome.hit
    assert hit.trauma == 4 and hit.full_shock == 8
    assert hit.save.target == 12 - 2 and not hit.save.saved
    assert hit.unconscious_seconds == Fraction(10)
    assert hit.stat_damage == (("RES", 1),)
    assert hit.shock_back_on_waking == 3  # ⌈8 / 3⌉ after the missed action
    assert outcome.attack.endurance_left == 9  # a trigger pull costs 1 END


def test_a_miss_rolls_nothing_after_the_attack():
    dice = DiceSlots({"attack": [6, 6, 6]}, ATTACK_DICE_SLOTS, fallback=ScriptedRng())
    outcome = attack_with_damage(attack_stat=10, weapon_ranks=0, defense=0, target_wounds=_target(),
                                 target_armour_rating=0, damage_points=3, dice=dice)
    assert outcome.attack.outcome == "miss" and outcome.damage is None and outcome.hit is None


def test_a_near_miss_lands_one_area_up():
    """Article, "Combat": missing an aimed area by 5 or less hits one area up, −1 shock and trauma."""
    dice = DiceSlots({"attack": [6, 6, 5], "damage": [6], "shock": [3]}, ATTACK_DICE_SLOTS,
                     fallback=random.Random(3))
    outcome = attack_with_damage(attack_stat=20, weapon_ranks=2, defense=0, target_wounds=_target(),
                                 target_armour_rating=0, damage_points=3, dice=dice, aimed_area="head_neck")
    assert outcome.attack.outcome == "near_miss" and outcome.attack.area_hit == "head_torso"
    assert (outcome.attack.shock_adjustment, outcome.attack.trauma_adjustment) == (-1, -1)
    assert ("near miss shock", -1) in outcome.hit.breakdown


def test_unknown_slots_and_faces_that_do_not_fit_are_refused():
    with pytest.raises(RulesError, match="Unknown dice slot"):
        DiceSlots({"atack": [1]}, ATTACK_DICE_SLOTS)
    dice = DiceSlots({"attack": [7, 1, 1]}, ATTACK_DICE_SLOTS)
    with pytest.raises(RulesError, match="d6"):
        attack_with_damage(attack_stat=10, weapon_ranks=0, defense=0, target_wounds=_target(),
                           target_armour_rating=0, damage_points=3, dice=dice)


@pytest.mark.parametrize("points, rate, extra, faces, total", [
    (1, 1, 0, [5], 2),          # ⅓d6: ⌈5 / 3⌉
    (2, 1, 0, [5], 3),          # ½d6: ⌈5 / 2⌉
    (5, 1, 2, [1, 2, 3], 8),    # 3d6 + 2
    (3, 2, 0, [4, 6], 10),      # 1d6 + short burst 1d6
    (3, 3, 0, [1, 2, 3, 3], 8),  # 1d6 + full auto 2d6 + ½d6 (⌈3 / 2⌉)
])
def test_weapon_damage_rolls_whole_and_fractional_dice(points, rate, extra, faces, total):
    """"Weapons": 1 point ⅓d6, 2 points ½d6, n points (n − 2)d6; bursts add 1d6 or 2½d6."""
    rng = ScriptedRng(*faces)
    assert roll_weapon_damage(points, rate, extra, rng=rng).total == total
    assert rng.done()
