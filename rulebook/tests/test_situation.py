"""The situation's terms on a check: the universal tables and the skill rules, term by term.

Article: "Additional Rules" (Loads, Target Size Adjustment, Cover, Extra Time Spent/Rushing,
Aiming, Assistants), "Tables" (Delicacy, Scaling, Assistants), "Skill Checks", "Unproficient",
"Skill Standards", "Spot/Listen Checks". RULINGS.md section 5. Readings: docs/rules.md,
"The check builder".
"""

from fractions import Fraction

import pytest

from rulebook import RulesError
from rulebook.situation import (
    LineFacts,
    Situation,
    SituationError,
    best_assistance,
    carrying_capacity_kg,
    shared_load_term,
    situation_terms,
)

AWA = LineFacts(kind="stat", stat="AWA", level=14)
SKILL = LineFacts(kind="skill", stat="PRAC", level=3, strength=10)


def total(situation, line=SKILL):
    return sum(value for _, value in situation_terms(situation, line))


def test_a_spot_check_at_40_m_on_a_1_m2_target_while_actively_looking():
    """"Spot/Listen Checks": range and size count; actively looking adds up to +5.
    40 m is distance row 16, range index 13; a 1 m² target is size 0; the difference 13 earns
    range-adjustment step 4 (threshold 12): −4. Looking hard: +5. Net +1."""
    terms = situation_terms(Situation(range_m=Fraction(40), size_index=0, looking=5), AWA)
    assert terms == [("range 40 m against size index +0", -4), ("actively looking out for it", 5)]


def test_actively_looking_is_a_spot_or_listen_check_and_at_most_5():
    with pytest.raises(SituationError) as caught:
        situation_terms(Situation(looking=2), LineFacts(kind="stat", stat="STR"))
    assert caught.value.field == "looking"
    with pytest.raises(SituationError):
        situation_terms(Situation(looking=6), AWA)


def test_cover_lowers_the_size_before_range_is_read():
    """"Cover": cover reduces the target's effective size; 2 m is range index 0, so a human
    (size 0) behind cover worth 3 steps is −(step for a difference of 3) = −2."""
    assert total(Situation(range_m=Fraction(2), size_index=0, cover=3)) == -2
    assert total(Situation(range_m=Fraction(2), size_index=4)) == 4  # size beats range: the difference


def test_size_without_a_range_is_refused():
    with pytest.raises(SituationError) as caught:
        situation_terms(Situation(size_index=3), SKILL)
    assert caught.value.field == "range_m"


def test_an_assisted_repair_with_two_assistants_one_and_two_ranks_below():
    """"Assistants": a lead with 3 ranks, assistants with 2 and 1. Mixed skill reads the largest
    deficit (RULINGS 5): two at −2 is row 1 (2–3 @ skill −2); the one at −1 alone is also row 1
    (1 @ skill −1). Either way +1."""
    assert best_assistance(3, (1, 1))[0] == 1  # two at −2
    assert best_assistance(3, (2,))[0] == 1  # one at −1
    assert best_assistance(3, (2, 1))[0] == 1
    assert total(Situation(assistants=(2, 1))) == 1


def test_the_best_group_leaves_out_an_assistant_who_would_drag_the_column_down():
    """Four skilled assistants (2 ranks under an expert's 3) are row 3 at −1 (4–7): +3. Adding an
    unskilled helper (deficit 3) would make the group read the −3 column (5 there: row 1); the
    lead does better without them."""
    assert best_assistance(3, (2, 2, 2, 2))[0] == 3
    assert best_assistance(3, (2, 2, 2, 2, 0))[0] == 3


def test_assistants_the_table_cannot_use_add_nothing():
    """One assistant three levels down is below row 0 of the −3 column ("2–3 @ skill −3")."""
    bonus, lines = best_assistance(3, (0,))
    assert bonus == 0 and "too few" in lines[0][0]


def test_a_climb_with_a_balanced_45_kg_load():
    """"Loads": a balanced load counts half: 22.5 kg, weight row 7. STR read as a weight row is
    what a character carries free (STR 10 is 30 kg); STR 5 carries row 5 and pays the 2 rows over."""
    strong = situation_terms(Situation(load_kg=Fraction(45), load_kind="balanced"), SKILL)
    assert strong == [("45 kg balanced load: counts 22.5 kg (weight row 7) against STR 10", 0)]
    weak = LineFacts(kind="skill", level=1, strength=5)
    assert total(Situation(load_kg=Fraction(45), load_kind="balanced"), weak) == -2


def test_an_unbalanced_load_counts_in_full_and_a_shared_one_per_bearer():
    """45 kg unbalanced is row 14 (45 kg): 4 over STR 10. Shared by three bearers: 15 kg, row 3."""
    assert total(Situation(load_kg=Fraction(45))) == -4
    assert total(Situation(load_kg=Fraction(45), bearers=3)) == 0
    assert total(Situation(load_kg=Fraction(90), load_kind="distributed")) == 0  # 30 kg, row 10


def test_a_shared_load_moves_at_the_pace_of_its_most_burdened_bearer():
    """"Loads": a shared load is divided among its bearers, and the group moves only as fast and
    as far as its most heavily burdened member. 90 kg unbalanced among three is 30 kg each (row
    10): nothing for STR 10 or 12, 5 rows over STR 5: the group's term is −5, named for her."""
    label, value = shared_load_term(Fraction(90), "unbalanced", {"Jon": 12, "Mara": 5, "Kit": 10})
    assert value == -5 and label.endswith("against STR 5; Mara, the most burdened, sets the group's pace")
    assert "shared by 3" in label
    assert shared_load_term(Fraction(90), "unbalanced", {"Jon": 12, "Kit": 10})[1] == -4  # 45 kg each: row 14, Kit 4 under
    with pytest.raises(SituationError):
        shared_load_term(Fraction(90), "unbalanced", {})


def test_carrying_capacity_is_the_weight_row_of_str():
    """Vehicle STR defines carrying capacity ("Loads"): row 10 is 30 kg, row 14 45 kg, +7 rows ×2."""
    assert carrying_capacity_kg(10) == 30 and carrying_capacity_kg(14) == 45 and carrying_capacity_kg(17) == 60


def test_a_load_needs_a_strength():
    with pytest.raises(SituationError) as caught:
        situation_terms(Situation(load_kg=Fraction(10)), LineFacts(kind="skill"))
    assert caught.value.field == "load_kg"


def test_delicacy_costs_its_row_and_scaling_gives_back_two_rows_a_step():
    """Delicacy: 1 cm is row 0, 1 mm row 2, 0.1 mm row 3 (a human hair). A jeweller's loupe (×10,
    scaling row 1) brings the hair-fine job back two rows, never past hand scale."""
    assert total(Situation(delicacy_m=Fraction(1, 1000))) == -2
    assert total(Situation(delicacy_m=Fraction(1, 10000))) == -3
    assert total(Situation(delicacy_m=Fraction(1, 10000), scaling=10)) == -1
    assert total(Situation(delicacy_m=Fraction(1, 1000), scaling=1000)) == 0  # capped at the 1 cm row
    assert total(Situation(delicacy_m=Fraction(5, 100))) == 1  # a 5 cm job is coarse work


def test_scaling_without_a_delicacy_is_refused():
    with pytest.raises(SituationError) as caught:
        situation_terms(Situation(scaling=10), SKILL)
    assert caught.value.field == "delicacy_m"


def test_aiming_is_a_weapons_and_capped_by_its_class():
    """"Aiming": the time chart read in seconds, pistols capped at 2 s: 5 s with a pistol is +2."""
    pistol = LineFacts(kind="weapon", level=1, aiming="pistol")
    assert total(Situation(aim_seconds=Fraction(5)), pistol) == 2
    assert total(Situation(aim_seconds=Fraction(5)), LineFacts(kind="weapon", aiming="rifle")) == 3
    with pytest.raises(SituationError):
        situation_terms(Situation(aim_seconds=Fraction(5)), SKILL)


def test_further_relevant_skills_and_indirect_ones_follow_proficiency():
    """"Skill Checks": +2 per further relevant skill; "Unproficient": +1 per indirect one."""
    assert total(Situation(relevant=2)) == 4
    assert total(Situation(indirect=2), LineFacts(kind="weapon", proficient=False)) == 2
    with pytest.raises(RulesError):
        situation_terms(Situation(relevant=1), AWA)


def test_a_related_language_adds_two():
    """"In-game language usage": a related language helps as a related skill does (+2)."""
    assert total(Situation(relevant=1), LineFacts(kind="language", stat="LAN")) == 2


def test_every_term_adds_up_with_the_modifier():
    situation = Situation(modifier=-3, time_taken=Fraction(2), delicacy_m=Fraction(1, 1000), assistants=(2,))
    assert total(situation) == -3 + 2 - 2 + 1


def test_given_names_only_what_was_set():
    assert Situation().given() == {}
    assert Situation(range_m=Fraction(40), looking=5, assistants=(2, 1)).given() == {
        "range_m": "40", "looking": 5, "assistants": [2, 1]}
