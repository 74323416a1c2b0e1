"""Hit location table, sub-tables, critical locations and effects ("Hit Location")."""

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.damage import WOUNDABLE_STATS
from rulebook.hit_locations import (
    AREAS,
    BODY_PARTS,
    LOCATIONS,
    attackers_choices,
    column,
    hit_location,
    require_area,
    resolve_location,
    stat_risk_tally,
    stat_risks,
    upper_leg_only,
)
from rulebook.tests.scripted import ScriptedRng

# The article's rows as printed, ranges left to right, with the column each was rebuilt into.
ARTICLE_ROWS = {
    "skull": ((1, 5), (1, 7), (1, 10), (1, 2), (1, 2), (1, 15)),
    "face": ((6, 10), (8, 14), (11, 21), (3, 5), (3, 5), (16, 40)),
    "neck": ((11, 15), (15, 21), (22, 28), (6, 10), (6, 10), (41, 55)),
    "left_chest": ((16, 30), (22, 35), (29, 42), (11, 20), (11, 15), (56, 60)),
    "left_upper_arm": ((31, 35), (36, 42), (43, 49), (21, 30)),
    "left_abdomen": ((36, 40), (43, 49), (31, 35), (16, 20)),
    "left_forearm": ((41, 45), (50, 56), (50, 56), (36, 50), (21, 30), (61, 65)),
    "right_chest": ((46, 60), (57, 70), (57, 63), (51, 55), (31, 40), (66, 70)),
    "right_upper_arm": ((61, 65), (71, 77), (64, 70), (41, 50)),
    "right_abdomen": ((66, 70), (56, 60), (51, 55)),
    "right_forearm": ((71, 75), (78, 84), (71, 77), (61, 70), (56, 70), (71, 75)),
    "left_leg": ((76, 85), (71, 80), (71, 75)),
    "right_leg": ((86, 95), (81, 85), (76, 85)),
    "attackers_choice": ((96, 100), (85, 100), (78, 100), (86, 100), (86, 100), (76, 100)),
}


@given(st.sampled_from(AREAS), st.integers(1, 100))
def test_every_column_covers_each_d100_result_exactly_once(area, d100):
    """RULINGS 6: every rebuilt column covers 1–100 exactly once."""
    rows = [row for row in column(area) if row[0] <= d100 <= row[1]]
    assert len(rows) == 1
    assert hit_location(area, d100) == rows[0][2]


def test_columns_are_contiguous_from_1_to_100():
    for area in AREAS:
        rows = column(area)
        assert rows[0][0] == 1 and rows[-1][1] == 100
        for (_, last, _), (first, _, _) in zip(rows, rows[1:]):
            assert first == last + 1


def test_every_printed_range_is_kept_in_its_row_and_printed_order():
    """Article, "Hit Location" table: each row's ranges fill columns left to right."""
    for location, spans in ARTICLE_ROWS.items():
        rebuilt = [(first, last) for area in AREAS for first, last, loc in column(area)
                   if loc == location]
        assert rebuilt == list(spans), location


def test_rebuilt_columns_use_only_printed_ranges():
    printed = {(loc, span) for loc, spans in ARTICLE_ROWS.items() for span in spans}
    for area in AREAS:
        for first, last, location in column(area):
            assert (location, (first, last)) in printed


def test_known_look_ups_including_00():
    assert hit_location("whole_body", 100) == "attackers_choice"
    assert hit_location("whole_body", 50) == "right_chest"
    assert hit_location("head_torso", 45) == "left_abdomen"
    assert hit_location("left_hand", 58) == "right_abdomen"
    assert hit_location("right_hand", 45) == "right_upper_arm"
    assert hit_location("eye", 30) == "face"
    assert set(loc for area in AREAS for _, _, loc in column(area)) == set(LOCATIONS)


@pytest.mark.parametrize("area, d100", [("whole_body", 0), ("eye", 101), ("torso", 5),
                                        ("eye", True)])
def test_bad_look_ups_are_refused(area, d100):
    with pytest.raises(RulesError):
        hit_location(area, d100)


@pytest.mark.parametrize("d100, sub, part", [(31, 1, "shoulder"), (32, 2, "shoulder"),
                                             (33, 4, "upper_arm"), (35, 6, "elbow")])
def test_upper_arm_d6(d100, sub, part):
    """Article, "Hit Location": upper arm d6, 1–2 shoulder, 6 elbow."""
    result = resolve_location("whole_body", ScriptedRng(sub, 1), d100=d100)
    assert (result.location, result.part, result.side, result.sub_roll) == (
        "left_upper_arm", part, "left", sub)


def test_forearm_d6_six_is_the_hand_with_two_stat_rolls():
    """Article, "Hit Location": forearm d6 6 = hand; the hand rolls d10 twice."""
    rng = ScriptedRng(6, 2, 9)
    result = resolve_location("whole_body", rng, d100=73)
    assert result.location == "right_forearm" and result.part == "hand"
    assert result.stat_rolls == ((2, "DEX"), (9, "PRAC"))
    assert result.stat_damage == (("DEX", 1), ("PRAC", 1))
    assert rng.asked == [6, 10, 10] and rng.done()


@pytest.mark.parametrize("d12, part", [(1, "upper_leg"), (6, "upper_leg"), (7, "knee"),
                                       (8, "lower_leg"), (11, "lower_leg"), (12, "foot")])
def test_leg_d12(d12, part):
    """Article, "Hit Location": leg d12, 1–6 upper leg, 7 knee, 8–11 lower leg, 12 foot."""
    assert resolve_location("whole_body", ScriptedRng(d12, 1), d100=80).part == part


def test_leg_hits_beside_a_hand_are_upper_leg_only_without_a_d12():
    """Article, "Hit Location": the hand columns' legs say "(Upper Leg Only)"."""
    rng = ScriptedRng(4)
    result = resolve_location("left_hand", rng, d100=75)
    assert (result.location, result.part, result.sub_roll, result.upper_leg_only) == (
        "left_leg", "upper_leg", None, True)
    assert result.stat_rolls == ((4, "MEL"),) and rng.asked == [5]
    assert upper_leg_only("right_hand", "right_leg")
    assert not upper_leg_only("whole_body", "left_leg")


def test_skull_is_always_a_critical_location_without_a_roll():
    rng = ScriptedRng(5)
    result = resolve_location("whole_body", rng, d100=3)
    assert result.critical_location and result.critical_location_roll is None
    assert (result.shock_bonus, result.trauma_bonus) == (2, 4 + 2)
    assert result.stat_damage == (("AWA", 1),)


@pytest.mark.parametrize("d100, die, face, critical", [
    (12, 6, 1, True), (12, 6, 2, False),        # neck, 1 in 6
    (20, 12, 3, True), (20, 12, 4, False),      # left chest, 3 in 12 on a d12
    (50, 6, 1, True), (38, 6, 6, False),        # right chest, left abdomen
])
def test_critical_location_chances(d100, die, face, critical):
    rng = ScriptedRng(face, 1)
    result = resolve_location("whole_body", rng, d100=d100)
    assert rng.asked[0] == die
    assert result.critical_location is critical
    assert result.trauma_bonus == BODY_PARTS[result.part].trauma + (2 if critical else 0)


def test_critical_hit_on_a_critical_location_does_d3_stat_damage():
    """RULINGS 6: a critical hit on a critical location inflicts d3 instead of 1."""
    rng = ScriptedRng(1, 2, 3)  # neck critical-location d6, neck d5 → CON, d3
    result = resolve_location("whole_body", rng, critical_hit=True, d100=12)
    assert result.stat_damage == (("CON", 3),) and result.next_attack_bonus == 0
    assert rng.done()


def test_critical_hit_elsewhere_does_1_point_and_earns_plus_2_next_round():
    """Article, "Combat" summary: a critical hit with no extra damage gives +2 next round."""
    result = resolve_location("whole_body", ScriptedRng(3, 1), critical_hit=True, d100=12)
    assert not result.critical_location
    assert result.stat_damage == (("CON", 1),) and result.next_attack_bonus == 2


def test_rifle_example_chest_d8_four_is_res():
    """Article, "Damage & Recovery", the rifle example: chest d8 = 4 → 1 point of RES."""
    rng = ScriptedRng(5, 4)  # right chest: critical-location d6 5 (not critical), d8 4
    result = resolve_location("whole_body", rng, d100=50)
    assert (result.shock_bonus, result.trauma_bonus) == (2, 1)
    assert not result.critical_location
    assert result.stat_damage == (("RES", 1),)


def test_attackers_choice_defaults_and_choices():
    skull = resolve_location("head_torso", ScriptedRng(1), d100=90)
    assert skull.attackers_choice and skull.chosen_by_default and skull.location == "skull"
    eye = resolve_location("eye", ScriptedRng(7, 1), d100=80)
    assert (eye.location, eye.part, eye.trauma_bonus, eye.shock_bonus) == ("eye", "eye", 6, 2)
    assert eye.stat_damage == (("AWA", 1), ("DEX", 1)) and not eye.critical_location
    hand = resolve_location("left_hand", ScriptedRng(5, 5), d100=99)
    assert (hand.location, hand.part) == ("left_forearm", "hand")


def test_a_chosen_location_that_can_be_critical_is_one():
    """Article, "Hit Location": attacker's choice is an automatic critical location if available."""
    rng = ScriptedRng(1, 2)  # no critical-location die: neck d5, then d3 for the critical hit
    result = resolve_location("whole_body", rng, critical_hit=True, d100=97, chosen_location="neck")
    assert result.critical_location and not result.chosen_by_default
    assert result.stat_damage == (("CON", 2),) and rng.done()
    limb = resolve_location("whole_body", ScriptedRng(3), d100=97, chosen_location="left_leg",
                            chosen_part="knee")
    assert limb.part == "knee" and not limb.critical_location


def test_choices_are_checked():
    assert "eye" in attackers_choices("whole_body")
    assert "left_leg" not in attackers_choices("head_neck")
    with pytest.raises(RulesError):
        resolve_location("head_neck", ScriptedRng(), d100=90, chosen_location="left_leg")
    with pytest.raises(RulesError):
        resolve_location("whole_body", ScriptedRng(), d100=50, chosen_location="skull")
    with pytest.raises(RulesError):
        resolve_location("left_hand", ScriptedRng(), d100=90, chosen_location="left_leg",
                         chosen_part="foot")


def test_the_effects_chart_reproduces_the_articles_risks_by_stat():
    """Article, "Hit Location": "the risks by stat are" STR 14 … ENC 1 (two-roll parts twice)."""
    assert stat_risk_tally() == {"STR": 14, "CON": 12, "RES": 5, "NIM": 11, "DEX": 12, "ACC": 9,
                                 "MEL": 18, "PRAC": 10, "THEO": 8, "ENC": 1, "AWA": 10,
                                 "PERS": 5, "END": 5}


def test_every_effects_die_has_one_stat_per_face():
    for part in BODY_PARTS.values():
        assert len(part.faces) == part.die
        assert set(part.faces) <= set(WOUNDABLE_STATS)


@given(st.sampled_from(AREAS), st.integers(0, 2**32), st.booleans())
def test_any_roll_resolves_to_a_named_part_with_sane_damage(area, seed, critical_hit):
    result = resolve_location(area, random.Random(seed), critical_hit=critical_hit)
    assert result.location in LOCATIONS + ("eye",) and result.location != "attackers_choice"
    assert result.part in BODY_PARTS
    assert len(result.stat_damage) == BODY_PARTS[result.part].rolls
    top = 3 if critical_hit and result.critical_location else 1
    assert all(1 <= points <= top for _, points in result.stat_damage)


def test_require_area_knows_the_six_columns():
    """Article, "Hit Location": one column per aimed area; anything else is refused by name."""
    assert [require_area(area) for area in AREAS] == list(AREAS)
    with pytest.raises(RulesError, match="torso"):
        require_area("torso")


def test_the_risks_of_an_aimed_area_add_up_to_the_effect_rolls_of_a_hit():
    """"Hit Location": per hit, each location's part rolls its effect die once (twice for a hand or
    an eye). Aimed at the eye: 25 % the attacker's choice, the eye itself (two rolls), +1/4; 10 %
    a forearm, whose d6 finds the hand (two rolls) one time in six, +1/60: 1 + 1/4 + 1/60 = 19/15
    effect rolls per hit."""
    eye = stat_risks("eye")
    assert sum(eye.values()) == Fraction(19, 15)
    assert list(eye)[0] == "AWA"  # skull 2/8, face 2/5, eye 3/10 twice: the eye shot's first risk
    # Whole body: the hand (d6 = 6 on a forearm) rolls twice too; all parts at least once.
    assert sum(stat_risks("whole_body").values()) > 1
    assert stat_risks("left_hand")["DEX"] > stat_risks("whole_body")["DEX"]
    with pytest.raises(RulesError):
        stat_risks("tail")
