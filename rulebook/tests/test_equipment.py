"""General equipment, weapons, armour and armour effects (rulebook.equipment)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.equipment import (
    EQUIPMENT_INDIRECT_BONUS,
    EQUIPMENT_RELATED_BONUS,
    armour_cost,
    armour_effects,
    armour_rating,
    base_damage_dice,
    consumed_refund,
    damage_description,
    equipment_cost,
    found_equipment_cost,
    weapon_cost,
)
from rulebook.skills import skill_check_target


def total_of(breakdown):
    return sum(value for _, value in breakdown)


# --- General equipment ----------------------------------------------------------------------


def test_equipment_costs_like_a_skill_by_breadth():
    """Article, "Equipment": defined like skills (specific, narrow, broad)."""
    assert [equipment_cost(b) for b in ("specific", "narrow", "broad")] == [1, 2, 4]
    assert equipment_cost("narrow", ranks=3) == 4


def test_weapon_breadths_are_not_general_equipment():
    with pytest.raises(RulesError, match="weapon"):
        equipment_cost("weapon_type")


def test_a_fishing_rod_helps_the_fisherman_as_a_related_skill():
    """Article, "Equipment": buying a fishing rod on top of "Fisherman" gives a bonus."""
    with_rod = skill_check_target(ranks=2, stat=14, extra_relevant=1)
    without = skill_check_target(ranks=2, stat=14)
    assert with_rod.total - without.total == EQUIPMENT_RELATED_BONUS == 2
    assert EQUIPMENT_INDIRECT_BONUS == 1


def test_consumed_equipment_refunds_all_but_one_point():
    """Article, "Weapons": completely used up, refunded all but 1 point of the cost."""
    assert consumed_refund(5) == 4
    assert consumed_refund(1) == 0
    assert consumed_refund(0) == 0


def test_found_equipment_left_behind_costs_nothing():
    """Article, "Weapons": equipment obtained during an adventure and not taken costs nothing."""
    assert found_equipment_cost(6, left_behind=True) == 0
    assert found_equipment_cost(6, left_behind=False) == 6


# --- Weapons --------------------------------------------------------------------------------


@pytest.mark.parametrize(("points", "text", "dice"), [
    (1, "⅓d6", Fraction(1, 3)), (2, "½d6", Fraction(1, 2)), (3, "1d6", 1),
    (4, "2d6", 2), (5, "3d6", 3), (6, "4d6", 4), (7, "5d6", 5), (8, "6d6", 6),
])
def test_damage_points_buy_dice(points, text, dice):
    """Article, "Weapons": 1 point ⅓d6, 2 ½d6, 3 1d6, 4 2d6, 5 3d6 and so on; the rule of
    thumb puts handguns at 2d6, rifles 3d6, shotguns 4d6, grenades 5d6, anti-vehicle 6d6."""
    assert damage_description(points) == text
    assert base_damage_dice(points) == dice


def test_rate_of_fire_adds_dice():
    """Article, "Weapons": a short burst adds a d6, full auto 2½d6."""
    assert damage_description(4, 2) == "2d6 + 1d6 short burst"
    assert damage_description(4, 3, 2) == "2d6 + 2½d6 full auto + 2"
    assert weapon_cost(4, 3).damage_d6 == Fraction(9, 2)


def test_a_weapons_cost_is_the_sum_of_its_points_and_that_sum_is_its_base_range():
    """Article, "Weapons": damage + rate of fire + 1 per +1 damage; the sum is read on the
    index table as the base range."""
    rifle = weapon_cost(5, 1, extra_damage=1)
    assert rifle.total == 7
    assert rifle.base_range_index == rifle.effective_range_index == 7
    assert rifle.damage_description == "3d6 + 1"
    assert rifle.damage_bonus == 1
    assert total_of(rifle.breakdown) == 7


def test_restricting_the_range_saves_a_point_per_two_steps():
    pistol = weapon_cost(4, 2, range_reduction_steps=5)
    assert pistol.base_range_index == 6
    assert pistol.effective_range_index == 1
    assert pistol.total == 6 - 2


def test_the_range_cannot_be_restricted_below_index_zero():
    with pytest.raises(RulesError, match="at most 5"):
        weapon_cost(4, 1, range_reduction_steps=6)


def test_skill_halves_the_cost_rounding_up():
    """Article, "Weapons": halved (round up) with an appropriate skill."""
    unskilled = weapon_cost(5, 2)
    skilled = weapon_cost(5, 2, skilled=True)
    assert (unskilled.total, skilled.total) == (7, 4)
    assert total_of(skilled.breakdown) == 4


def test_a_melee_weapon_has_no_range_and_buys_reach():
    """Article, "Weapons": melee weapons have zero range; range is bought back as reach."""
    knife = weapon_cost(3, 1, melee=True)
    assert knife.total == 4
    assert knife.base_range_index == knife.effective_range_index == 0
    spear = weapon_cost(3, 1, melee=True, reach_steps=3)
    assert spear.total == 4 + 2
    assert spear.effective_range_index == 3


def test_melee_and_ranged_options_do_not_mix():
    with pytest.raises(RulesError, match="reach"):
        weapon_cost(3, 1, melee=True, range_reduction_steps=2)
    with pytest.raises(RulesError, match="melee"):
        weapon_cost(3, 1, reach_steps=2)


def test_weapon_inputs_are_checked():
    with pytest.raises(RulesError, match="Rate of fire"):
        weapon_cost(3, 4)
    with pytest.raises(RulesError, match="Damage points"):
        weapon_cost(0, 1)


@given(st.integers(1, 12), st.integers(1, 3), st.integers(0, 5), st.data())
def test_weapon_cost_properties(damage, rof, extra, data):
    summed = damage + rof + extra
    steps = data.draw(st.integers(0, summed))
    plain = weapon_cost(damage, rof, extra, steps)
    skilled = weapon_cost(damage, rof, extra, steps, skilled=True)
    assert plain.total == summed - steps // 2 >= 1
    assert skilled.total == -(-plain.total // 2)
    assert total_of(plain.breakdown) == plain.total
    assert total_of(skilled.breakdown) == skilled.total


# --- Armour ---------------------------------------------------------------------------------


def test_armour_costs_a_third_of_hardness_times_coverage_plus_nim_penalty_rounded_up():
    """Article, "Armor": hardness × coverage, plus the NIM penalty, divided by three."""
    full = armour_cost(5, 4, 2)
    assert full.total == 8  # 22 / 3 → 8
    assert total_of(full.breakdown) == 8
    assert armour_cost(3, 2, 0).total == 2
    assert armour_cost(5, 4, 2, skilled=True).total == 4


def test_armour_inputs_are_checked():
    with pytest.raises(RulesError, match="Hardness"):
        armour_cost(11, 4, 0)
    with pytest.raises(RulesError, match="Coverage"):
        armour_cost(5, 5, 0)
    with pytest.raises(RulesError, match="NIM penalty"):
        armour_cost(5, 4, -2)


@pytest.mark.parametrize(("hardness", "coverage", "rating"), [
    (10, 4, 10), (5, 4, 5), (5, 2, 3), (3, 2, 2), (1, 1, 0), (2, 1, 1), (6, 3, 5), (7, 1, 2),
])
def test_armour_rating_scales_hardness_by_coverage_rounding_halves_up(hardness, coverage, rating):
    assert armour_rating(hardness, coverage) == rating


@given(st.integers(1, 10), st.integers(1, 4))
def test_full_coverage_rates_the_hardness_and_less_never_more(hardness, coverage):
    assert armour_rating(hardness, 4) == hardness
    assert armour_rating(hardness, coverage) <= hardness


def _column(stat, tech_shift=0):
    return [armour_effects(t, tech_shift)[stat] for t in range(11)]


def test_armour_effects_follow_the_article_lists():
    """Article, "Other Armour Effects": the RES, NIM, ACC, MEL and DEX lists by type."""
    assert _column("RES") == [-4, -3, -2, -1, 0, 0, 0, 0, 0, 0, 0]
    assert _column("NIM") == [0, 0, 0, 0, -1, -1, -2, -2, -3, -3, -4]
    assert _column("ACC") == [0, 0, 0, 0, 0, -1, -1, -2, -2, -3, -3]
    assert _column("MEL") == [0, 0, 0, 0, 0, 0, -2, -2, -4, -4, -6]
    assert _column("DEX") == [0, 0, 0, 0, -1, -1, -2, -2, -4, -4, -6]


def test_tech_shift_moves_nim_acc_and_mel_but_not_res_or_dex():
    """Article, "Other Armour Effects": low-tech armour reads 1–3 types heavier, high-tech 1–5
    lighter, for NIM, ACC and MEL."""
    low_tech = armour_effects(6, tech_shift=2)
    assert low_tech == {"RES": 0, "NIM": -3, "ACC": -2, "MEL": -4, "DEX": -2}
    high_tech = armour_effects(10, tech_shift=-5)
    assert high_tech == {"RES": 0, "NIM": -1, "ACC": -1, "MEL": 0, "DEX": -6}
    assert armour_effects(2, tech_shift=-5)["RES"] == -2


def test_the_shifted_type_stays_within_zero_to_ten():
    assert armour_effects(10, tech_shift=3) == armour_effects(10)
    assert armour_effects(1, tech_shift=-5) == armour_effects(1)


def test_tech_shift_and_type_are_range_checked():
    with pytest.raises(RulesError, match="Tech shift"):
        armour_effects(5, tech_shift=4)
    with pytest.raises(RulesError, match="Tech shift"):
        armour_effects(5, tech_shift=-6)
    with pytest.raises(RulesError, match="Armour type"):
        armour_effects(11)


@given(st.integers(0, 9), st.integers(-5, 3))
def test_heavier_armour_never_hinders_less(armour_type, shift):
    lighter, heavier = armour_effects(armour_type, shift), armour_effects(armour_type + 1, shift)
    for stat in ("NIM", "ACC", "MEL", "DEX"):
        assert heavier[stat] <= lighter[stat] <= 0
