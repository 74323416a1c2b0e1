"""Experience payouts and Campaign MacGuffin pools (rulebook.experience)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.experience import (
    COMPLICATION_AWARD,
    NPC_BOOST_AWARD,
    NPC_BOOST_BONUS,
    adventure_payout,
    macguffin_progress,
    macguffin_target,
)


def total_of(breakdown):
    return sum(value for _, value in breakdown)


# --- Experience -----------------------------------------------------------------------------


def test_xp_balance_best_case_pays_28_each():
    """Article, "XP Balance": 3 base XP and a couple of setbacks make 7; a permanent solution
    put in place by the PCs multiplies by 4, to 28 each (56 for two PCs)."""
    payout = adventure_payout(base_xp=3, tokens=4, outcome="solution", permanent=True)
    assert payout.total == 28
    assert total_of(payout.breakdown) == 28
    assert 2 * payout.total == 56


def test_xp_balance_instant_awards_make_64_between_two_pcs():
    """Article, "XP Balance": 4–8 instant Karma for the two setbacks, so up to 64 in all."""
    one_pc_each = 2 * COMPLICATION_AWARD
    both_pcs_each = 2 * 2 * COMPLICATION_AWARD
    assert (one_pc_each, both_pcs_each) == (4, 8)
    assert 2 * adventure_payout(3, 4, "solution", True).total + both_pcs_each == 64


def test_xp_balance_smaller_adventure_departs_from_the_rules():
    """Article, "XP Balance", the smaller adventure: one setback (2 tokens, as in the larger
    example) and a base of 1 XP is (1 + 2) × 4 = 12 under the rules. The article writes
    (2 + 2) × 4 = 16, which needs a base of 2; no reading of the stated rules gives 16 from
    a base of 1."""
    assert adventure_payout(base_xp=1, tokens=2, outcome="solution", permanent=True).total == 12
    assert adventure_payout(base_xp=2, tokens=2, outcome="solution", permanent=True).total == 16


def test_advice_pays_half_again_and_rounds_up():
    """Article, "Experience": +50% when the locals implement the PCs' advice."""
    payout = adventure_payout(3, 0, "advice", False)
    assert payout.total == 5
    assert payout.breakdown[-1] == ("rounded up", Fraction(1, 2))
    assert adventure_payout(3, 0, "advice", True).total == 9


def test_selfish_behaviour_costs_one_but_never_below_zero():
    """Article, "Experience": selfish or amoral behaviour reduces the award by 1."""
    assert adventure_payout(2, 1, "none", False, selfish=True).total == 2
    assert adventure_payout(0, 0, "none", False, selfish=True).total == 0


def test_a_permanent_solution_needs_an_outcome_and_outcomes_are_named():
    with pytest.raises(RulesError, match="permanent"):
        adventure_payout(2, 0, "none", True)
    with pytest.raises(RulesError, match="advice"):
        adventure_payout(2, 0, "great", False)


def test_instant_awards():
    """Article, "Experience": a complication pays 2 at once; an NPC +10 boost pays 1."""
    assert (COMPLICATION_AWARD, NPC_BOOST_AWARD, NPC_BOOST_BONUS) == (2, 1, 10)


@given(st.integers(0, 10), st.integers(0, 10), st.sampled_from(["none", "advice", "solution"]),
       st.booleans(), st.booleans())
def test_payout_breakdown_adds_up(base, tokens, outcome, permanent, selfish):
    if permanent and outcome == "none":
        return
    payout = adventure_payout(base, tokens, outcome, permanent, selfish)
    assert total_of(payout.breakdown) == payout.total >= 0


# --- Campaign MacGuffins --------------------------------------------------------------------


def test_macguffin_targets_default_to_4_10_20_and_the_gm_may_set_another():
    """Article, "Campaign MacGuffins": about 4 minor, 10 new capability, 20 removal."""
    assert [macguffin_target(s) for s in ("minor", "capability", "removal")] == [4, 10, 20]
    assert macguffin_target("removal", gm_target=15) == 15
    with pytest.raises(RulesError, match="minor"):
        macguffin_target("giant")


def test_macguffin_progress():
    """Article, "XP Balance": 20 points spent on a major Campaign MacGuffin."""
    half = macguffin_progress(10, 20)
    assert half.remaining == 10 and not half.funded
    done = macguffin_progress(20, macguffin_target("removal"))
    assert done.funded and done.remaining == 0
