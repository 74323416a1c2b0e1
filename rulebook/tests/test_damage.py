"""Trauma, shock, the shock save, stat damage, dying and END ("Damage & Recovery", "Death")."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.damage import (
    Hit,
    WoundState,
    activity_endurance_cost,
    apply_hit,
    attack_endurance_cost,
    dying_round,
    restore_from_dying,
    shock_after_save,
    shock_from_hit,
    shock_threshold_save,
    trauma,
    unconscious_minutes,
    unconscious_seconds,
)
from rulebook.tests.scripted import ScriptedRng

FAIL_4D6 = (6, 6, 6, 6)
PASS_4D6 = (1, 2, 2, 2)

# The rifle example's target: SHK 6 (so HP 26–30); CON 12 is ours, the article gives none.
RIFLE_TARGET = WoundState(hit_points=30, shock_threshold=6,
                          stats={"CON": 12, "RES": 14, "STR": 10, "END": 12})
# 8 rolled on the rifle's 2d6, +1 chest trauma, +2 chest shock, armour 5, chest d8 = 4 → RES.
RIFLE_HIT = Hit(weapon_damage=8, armour_rating=5, location_trauma=1, location_shock=2,
                stat_damage=(("RES", 1),))


def test_rifle_example_trauma_and_shock():
    """Article, "Damage & Recovery", the rifle example: 8 + 1 − 5 = 4 trauma;
    2 + d6 4 + 2 = 8 shock."""
    assert trauma(8, 1, 5) == 4
    assert shock_from_hit(4, 4, 2) == 8


def test_rifle_example_failed_save():
    """Article, "Damage & Recovery", the rifle example: CON save at −2 fails,
    d10 6 → index 4 → 10 s,
    ⌈8 / 3⌉ = 3 shock back after the missed action, waking 1 under the threshold's top."""
    rng = ScriptedRng(4, *FAIL_4D6, 6)
    result = apply_hit(wounds=RIFLE_TARGET, hit=RIFLE_HIT, rng=rng)
    assert rng.done()
    assert (result.trauma, result.shock_d6, result.full_shock) == (4, 4, 8)
    assert result.save.excess == 2 and result.save.target_modifier == -2
    assert result.save.target == 12 - 2 and not result.save.saved
    assert result.save.d10 == 6 and result.save.unconscious_index == 4
    assert result.unconscious_seconds == 10
    assert result.shock_taken == 8 and result.wounds.shock == 8
    assert result.shock_back_on_waking == 3
    assert RIFLE_TARGET.shock_threshold - (result.wounds.shock - result.shock_back_on_waking) == 1
    assert result.wounds.trauma == 4 and result.wounds.current_hit_points == 26


def test_rifle_example_stat_damage():
    """Article, "Damage & Recovery", the rifle example: not critical → 1 point of RES."""
    result = apply_hit(wounds=RIFLE_TARGET, hit=RIFLE_HIT, rng=ScriptedRng(4, *FAIL_4D6, 6))
    assert result.stat_damage == (("RES", 1),)
    assert result.wounds.stats["RES"] == 13 and result.wounds.stat_damage == {"RES": 1}


def test_rifle_example_successful_save():
    """Article, "Damage & Recovery", the rifle example: on a save the d6 4 halves to 2,
    + 2 chest = 4."""
    rng = ScriptedRng(4, *PASS_4D6)
    result = apply_hit(wounds=RIFLE_TARGET, hit=RIFLE_HIT, rng=rng)
    assert rng.done() and result.save.saved
    assert result.shock_taken == 4 == shock_after_save(4, 2)
    assert result.wounds.shock == 4 and result.wounds.shock_this_round == 4
    assert result.unconscious_seconds is None and result.shock_back_on_waking is None


def test_unconscious_seconds_on_the_time_chart():
    assert unconscious_seconds(6, 2) == 10
    assert unconscious_seconds(4, 0) == 1
    assert unconscious_seconds(1, 0) == Fraction(4, 10)
    assert unconscious_seconds(1, 0) < unconscious_seconds(1, 3)
    with pytest.raises(RulesError):
        unconscious_seconds(11, 0)


def test_unconscious_minutes_on_the_time_chart():
    assert unconscious_minutes(7) == 1
    assert unconscious_minutes(10) == 5
    assert unconscious_minutes(1) == 0  # index −6: a moment


def test_shock_below_the_threshold_needs_no_save():
    rng = ScriptedRng(1)
    result = apply_hit(wounds=RIFLE_TARGET, hit=Hit(weapon_damage=2), rng=rng)
    assert rng.done() and result.save is None and result.shock_taken == 2
    with pytest.raises(RulesError):
        shock_threshold_save(con=12, round_shock=6, shock_threshold=6, rng=ScriptedRng())


def test_shock_earlier_in_the_round_counts_toward_the_threshold():
    wounds = WoundState(hit_points=30, shock_threshold=6, stats={"CON": 12}, shock=5,
                        shock_this_round=5)
    result = apply_hit(wounds=wounds, hit=Hit(weapon_damage=0), rng=ScriptedRng(2, *PASS_4D6))
    assert result.save.excess == 1 and result.shock_taken == 1
    assert result.round_shock == 6 and result.wounds.next_round().shock_this_round == 0


def test_total_shock_over_hp_knocks_out_for_minutes():
    wounds = WoundState(hit_points=20, shock_threshold=4, stats={"CON": 12}, shock=19)
    rng = ScriptedRng(3, 9)
    result = apply_hit(wounds=wounds, hit=Hit(weapon_damage=0), rng=rng)
    assert rng.done() and result.wounds.shock == 22
    assert result.overload_d10 == 9 and result.unconscious_minutes == 2


def test_armour_that_stops_all_trauma_stops_stat_damage():
    hit = Hit(weapon_damage=3, armour_rating=5, stat_damage=(("STR", 1),))
    result = apply_hit(wounds=RIFLE_TARGET, hit=hit, rng=ScriptedRng(1))
    assert result.trauma == 0 and result.stat_damage == ()
    assert result.wounds.stats["STR"] == 10


def test_near_miss_adjustments():
    """Article, "Combat": one area up −1 shock and −1 trauma; two up −2 shock and zero trauma."""
    one_up = Hit(weapon_damage=6, armour_rating=2, trauma_adjustment=-1, shock_adjustment=-1)
    result = apply_hit(wounds=RIFLE_TARGET, hit=one_up, rng=ScriptedRng(1))
    assert result.trauma == 3 and result.full_shock == 2 + 1 - 1
    two_up = Hit(weapon_damage=6, shock_adjustment=-2, no_trauma=True, stat_damage=(("STR", 1),))
    result = apply_hit(wounds=RIFLE_TARGET, hit=two_up, rng=ScriptedRng(3))
    assert result.trauma == 0 and result.full_shock == 1 and result.stat_damage == ()


def test_dying_when_hp_or_a_stat_reaches_zero_but_not_shock():
    """Article, "Death": any stat other than shock at 0 or less."""
    assert not WoundState(hit_points=10, shock_threshold=2, stats={"CON": 5}, shock=40).dying
    hp = WoundState(hit_points=10, shock_threshold=2, stats={"CON": 5}, trauma=12)
    assert hp.current_hit_points == -2 and hp.dying_causes == ("HP",)
    stat = WoundState(hit_points=10, shock_threshold=2, stats={"CON": 5, "RES": 0})
    assert stat.dying_causes == ("RES",)


def test_a_hit_can_leave_the_target_dying():
    wounds = WoundState(hit_points=10, shock_threshold=20, stats={"CON": 10}, trauma=8)
    result = apply_hit(wounds=wounds, hit=Hit(weapon_damage=4), rng=ScriptedRng(1))
    assert result.dying and result.wounds.current_hit_points == -2


def _round(con, previous, help_, faces):
    rng = ScriptedRng(*faces)
    result = dying_round(con=con, previous_modifier=previous, medical_help=help_, rng=rng)
    assert rng.done()
    return result


def test_death_example_rounds_d_to_d_plus_4():
    """Article, "Death", the example: modifiers 0, −1, −2, then −1 and 0 with medical help;
    the success at 0 with help restores him to 1 HP."""
    con, success = 12, (2, 2, 2, 2)  # 8: passes even at −2
    d = _round(con, None, False, success)
    d1 = _round(con, d.modifier, False, success)
    d2 = _round(con, d1.modifier, False, success)
    d3 = _round(con, d2.modifier, True, success)
    d4 = _round(con, d3.modifier, True, success)
    assert [r.modifier for r in (d, d1, d2, d3, d4)] == [0, -1, -2, -1, 0]
    assert [r.target for r in (d, d1, d2, d3, d4)] == [12, 11, 10, 11, 12]
    assert all(r.survived for r in (d, d1, d2, d3, d4))
    assert [r.restored for r in (d, d1, d2, d3, d4)] == [False, False, False, False, True]


def test_a_failed_dying_check_is_death_and_help_can_lift_the_modifier_above_zero():
    """RULINGS 6: help in the second round turns that round's step from −1 to +1, so the check
    is at +1: a CON 10 character rolling 11 lives (at 0 they would die) and is restored."""
    assert not _round(10, -3, False, (6, 6, 6, 6)).survived
    helped = _round(10, 0, True, (2, 3, 3, 3))  # 11
    assert helped.modifier == 1 and helped.target == 11 and helped.survived and helped.restored
    assert ("medical help", 1) in helped.breakdown
    assert not _round(10, 0, False, (2, 3, 3, 3)).survived  # the same dice without help: −1, dead
    assert not _round(10, -2, True, PASS_4D6).restored  # still below 0 after help: alive, not restored


def test_restore_from_dying_puts_each_failed_stat_back_to_1():
    wounds = WoundState(hit_points=10, shock_threshold=2, stats={"CON": 5, "RES": -1}, trauma=12,
                        stat_damage={"RES": 15})
    saved = restore_from_dying(wounds)
    assert saved.current_hit_points == 1 and saved.stats["RES"] == 1
    assert saved.stat_damage["RES"] == 13 and not saved.dying


def test_endurance_costs():
    """Article, "Endurance": ordinary 1 per half hour, strenuous 4 per hour, attacks 2 or 1."""
    assert activity_endurance_cost("ordinary", 30) == 1
    assert activity_endurance_cost("ordinary", 150) == 5
    assert activity_endurance_cost("ordinary", 29) == 0
    assert activity_endurance_cost("strenuous", 60) == 4
    assert activity_endurance_cost("strenuous", 45) == 3
    assert attack_endurance_cost("physical") == 2 and attack_endurance_cost("trigger") == 1
    with pytest.raises(RulesError):
        activity_endurance_cost("napping", 30)
    with pytest.raises(RulesError):
        attack_endurance_cost("psychic")


@pytest.mark.parametrize("args", [(-1, 0, 0), (5, 0, 11), (5, 0, -1)])
def test_bad_trauma_inputs_are_refused(args):
    with pytest.raises(RulesError):
        trauma(*args)


def test_unknown_stats_in_the_wound_state_are_refused():
    with pytest.raises(RulesError):
        WoundState(hit_points=10, shock_threshold=2, stats={"LUCK": 5})


@given(st.integers(0, 40), st.integers(-2, 8), st.integers(0, 9))
def test_trauma_is_never_negative_and_more_armour_never_hurts_more(weapon, location, armour):
    assert trauma(weapon, location, armour) >= trauma(weapon, location, armour + 1) >= 0


@given(st.integers(0, 40), st.integers(1, 6), st.integers(0, 4))
def test_a_successful_save_never_takes_more_shock(trauma_dealt, d6, location_shock):
    assert shock_after_save(d6, location_shock) <= shock_from_hit(trauma_dealt, d6, location_shock)
