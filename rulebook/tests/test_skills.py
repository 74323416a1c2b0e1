"""Skill costs, skill check targets and eventual success (rulebook.skills)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.skills import (
    BREADTHS,
    SKILL_STANDARDS,
    breadth_cost,
    eventual_success,
    skill_check_target,
    skill_cost,
)
from rulebook.stats import SKILL_CHECK_DICE, skill_foundation
from rulebook.tables import time_multiplier


def total_of(breakdown):
    return sum(value for _, value in breakdown)


# --- Costs ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("breadth", "cost"), [
    ("specific", 1), ("narrow", 2), ("broad", 4),
    ("weapon_model", 1), ("weapon_type", 2), ("weapon_category", 3),
])
def test_a_first_rank_costs_the_breadth(breadth, cost):
    """Article, "Skill Definitions" (1/2/4) and "Weapon Skills" (model 1, type 2, category 3)."""
    assert skill_cost(breadth, 1) == cost


def test_each_further_rank_costs_one():
    """Article, "Improving Skills": additional ranks cost 1 skill point each."""
    assert skill_cost("broad", 3) == 6
    assert skill_cost("narrow", 2) == 3
    assert skill_cost("weapon_category", 3) == 5


def test_no_ranks_cost_nothing():
    assert skill_cost("broad", 0) == 0


def test_breadth_names_are_forgiving_about_case_and_spacing():
    assert breadth_cost("Weapon type") == 2
    assert breadth_cost(" BROAD ") == 4


def test_ranks_beyond_the_cap_are_refused_and_the_cap_can_change():
    with pytest.raises(RulesError, match="cap of 3"):
        skill_cost("narrow", 4)
    assert skill_cost("narrow", 4, max_ranks=5) == 5


def test_unknown_and_unclassified_breadths_are_refused_with_a_hint():
    with pytest.raises(RulesError, match="specific, narrow, broad"):
        skill_cost("huge", 1)
    with pytest.raises(RulesError, match="GM"):
        skill_cost("unclassified", 1)


def test_negative_ranks_are_refused():
    with pytest.raises(RulesError, match="at least 0"):
        skill_cost("narrow", -1)


@given(st.sampled_from(sorted(BREADTHS)), st.integers(1, 10))
def test_cost_grows_by_one_per_rank(breadth, ranks):
    assert skill_cost(breadth, ranks, max_ranks=10) == BREADTHS[breadth] + ranks - 1


def test_skill_standards_name_the_ranks():
    """Article, "Skill Standards": 3 expert, 2 skilled assistant, 1 trainee, 0 unskilled."""
    assert SKILL_STANDARDS[3].startswith("Expert")
    assert SKILL_STANDARDS[0].startswith("Unskilled")


# --- Check targets --------------------------------------------------------------------------


def test_a_proficient_target_is_ranks_plus_foundation_plus_modifier():
    """Article, "Skill Checks": skill ranks + stat basis + modifier, rolled on 3d6."""
    target = skill_check_target(ranks=3, stat=20, modifier=-1)
    assert target.total == 3 + 12 - 1
    assert target.dice == SKILL_CHECK_DICE == 3
    assert target.breakdown[0] == ("skill ranks", 3)
    assert target.breakdown[-1] == ("modifier", -1)


def test_each_further_relevant_skill_adds_two():
    """Article, "In-game language usage": the 16th-century French the character already has
    counts as a related skill, +2 to the roll."""
    base = skill_check_target(ranks=1, stat=14).total
    assert skill_check_target(ranks=1, stat=14, extra_relevant=1).total == base + 2
    assert skill_check_target(ranks=1, stat=14, extra_relevant=3).total == base + 6


def test_an_unproficient_target_is_the_foundation_plus_one_per_indirect_skill():
    """Article, "Unproficient": the Skill Foundation alone, +1 per indirectly related skill."""
    target = skill_check_target(ranks=0, stat=15, indirect=2, modifier=2)
    assert target.total == skill_foundation(15) + 2 + 2 == 14
    assert "unproficient" in target.breakdown[0][0]


def test_counts_that_do_not_apply_to_the_kind_of_check_are_refused():
    with pytest.raises(RulesError, match="unproficient"):
        skill_check_target(ranks=2, stat=12, indirect=1)
    with pytest.raises(RulesError, match="indirectly related"):
        skill_check_target(ranks=0, stat=12, extra_relevant=1)


def test_skill_check_arguments_are_keyword_only():
    with pytest.raises(TypeError):
        skill_check_target(2, 12)


def test_the_target_carries_exact_odds():
    """Article, "Combat": a stat of 24 needs 14 or less on 3d6, so it can still fail."""
    odds = skill_check_target(ranks=0, stat=24).odds
    assert odds.probability == Fraction(196, 216)


@given(st.integers(0, 5), st.integers(-5, 40), st.integers(0, 4), st.integers(-15, 15))
def test_the_breakdown_adds_up_to_the_target(ranks, stat, others, modifier):
    if ranks:
        target = skill_check_target(ranks=ranks, stat=stat, extra_relevant=others,
                                    modifier=modifier)
        assert target.total == ranks + skill_foundation(stat) + 2 * others + modifier
    else:
        target = skill_check_target(ranks=0, stat=stat, indirect=others, modifier=modifier)
        assert target.total == skill_foundation(stat) + others + modifier
    assert total_of(target.breakdown) == target.total


# --- Eventual success -----------------------------------------------------------------------


def test_the_camp_site_example_lowers_the_margin_by_the_desired_five():
    """Article, "Eventual Success", the camp-site example: the players want a success by 5,
    so the GM takes 5 off the margin before reading the extra-time chart."""
    exactly_enough = eventual_success(5, desired_margin=5)
    assert exactly_enough.adjusted_margin == 0
    assert exactly_enough.time_index == 0 and exactly_enough.multiplier == 1
    marginal = eventual_success(1, desired_margin=5)
    assert marginal.time_index == 4 and marginal.multiplier == 10


def test_a_better_result_takes_less_time():
    quick = eventual_success(3)
    assert quick.time_index == -3
    assert quick.multiplier == Fraction(2, 5)
    assert quick.time_taken(60) == 24


def test_a_failure_still_succeeds_but_slowly():
    slow = eventual_success(-4)
    assert slow.time_index == 4
    assert slow.time_taken(Fraction(1, 2)) == 5


def test_a_huge_margin_reads_less_than_a_tenth():
    fast = eventual_success(9)
    assert fast.under_a_tenth and fast.multiplier == 0
    assert not eventual_success(5).under_a_tenth


@given(st.integers(-30, 30), st.integers(-10, 10))
def test_eventual_success_reads_the_chart_at_minus_the_adjusted_margin(margin, desired):
    result = eventual_success(margin, desired_margin=desired)
    assert result.time_index == desired - margin
    assert total_of(result.breakdown) == result.time_index
    assert result.multiplier == time_multiplier(result.time_index)


@given(st.integers(-20, 20))
def test_a_bigger_margin_never_takes_longer(margin):
    assert eventual_success(margin + 1).multiplier <= eventual_success(margin).multiplier


def test_situational_terms_fit_the_kind_of_check():
    """Article, "Skill Checks" (+2 per further relevant skill), "Unproficient" (+1 per indirectly
    related skill), "Additional Rules" (extra time: double +2, half −3); a stat check takes no skills."""
    from rulebook.skills import situational_terms

    assert situational_terms(kind="skill", relevant=2, time_taken=2, modifier=-1) == [
        ("2 further relevant skill(s)/equipment × 2", 4), ("time taken 2 ÷ normal 1 (time chart)", 2),
        ("situational modifier", -1)]
    assert situational_terms(kind="weapon", proficient=False, indirect=3) == [
        ("3 indirectly related skill(s)/equipment × 1", 3)]
    assert situational_terms(kind="skill", time_taken="1/2")[0][1] == -3
    for bad in ({"kind": "stat", "relevant": 1}, {"kind": "skill", "indirect": 1},
                {"kind": "weapon", "proficient": False, "relevant": 1}, {"kind": "skill", "relevant": -1},
                {"kind": "spell"}):
        with pytest.raises(RulesError):
            situational_terms(**bad)
