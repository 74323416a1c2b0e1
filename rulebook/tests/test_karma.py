"""Disadvantages, Karma limits, Karmic Debt and Starvation, and Karma spends (rulebook.karma)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.karma import (
    ASSIST_BONUS,
    DELAY_TRANSITION_UPGRADES,
    SPEND_KINDS,
    Disadvantage,
    disadvantage_check_modifier,
    disadvantage_points,
    karmic_debt,
    karmic_starvation,
    max_disadvantage_ranks,
    spend_cost,
    stat_raise_cost,
)

ALL_UPGRADES = tuple(DELAY_TRANSITION_UPGRADES)


def total_of(breakdown):
    return sum(value for _, value in breakdown)


# --- Disadvantages --------------------------------------------------------------------------


def test_a_two_point_disadvantage_loses_a_point_per_further_rank_down_to_one():
    """Article, "Disadvantages": "Poor at Mathematics" is a 2-point disadvantage; each further
    rank is worth 1 less, to a minimum of 1."""
    assert disadvantage_points(2, 1) == 2
    assert disadvantage_points(2, 2) == 2 + 1
    assert disadvantage_points(2, 3) == 2 + 1 + 1


def test_a_broad_disadvantage_steps_down_four_three_two_one():
    assert [disadvantage_points(4, r) for r in range(6)] == [0, 4, 7, 9, 10, 11]
    assert disadvantage_points(value=1, ranks=3) == 3


def test_each_rank_is_minus_two_on_affected_checks():
    """Article, "Disadvantages": each rank is the equivalent of two negative ranks."""
    assert disadvantage_check_modifier(3) == -6


def test_disadvantage_values_other_than_one_two_or_four_are_refused():
    with pytest.raises(RulesError, match="1, 2 or 4"):
        disadvantage_points(3, 1)
    with pytest.raises(RulesError, match="1, 2 or 4"):
        disadvantage_points(True, 1)


def test_a_disadvantage_knows_its_points():
    assert Disadvantage("Phobia: heights", 4, 2).points == 7


def test_rank_limit_is_starting_karma_over_three_rounded_up():
    """Article, "Karma Limits": starting Karma divided by 3, round up."""
    assert max_disadvantage_ranks(10) == 4
    assert max_disadvantage_ranks(9) == 3
    assert max_disadvantage_ranks(7) == 3
    assert max_disadvantage_ranks(0) == 0


# --- Karmic Debt ----------------------------------------------------------------------------


def test_within_the_limits_every_disadvantage_earns_and_nothing_is_owed():
    report = karmic_debt(
        [Disadvantage("Poor at Mathematics", 2, 2), Disadvantage("Vain", 1, 1)],
        current_karma=5, starting_karma=9,
    )
    assert not report.in_debt
    assert report.points_earned == 3 + 1
    assert all(s.earning for s in report.standings)
    assert report.actions == []


def test_when_karma_drops_below_the_count_the_least_valuable_earn_nothing():
    """Article, "Karma Limits": disadvantages that earn points ≤ current Karma."""
    report = karmic_debt(
        [{"name": "Vain", "value": 1, "ranks": 1},
         {"name": "Phobia", "value": 4, "ranks": 2},
         {"name": "Poor at Mathematics", "value": 2, "ranks": 1}],
        current_karma=2, starting_karma=10,
    )
    earning = {s.name: s.earning for s in report.standings}
    assert earning == {"Vain": False, "Phobia": True, "Poor at Mathematics": True}
    assert report.points_earned == 7 + 2
    assert report.in_debt and report.debt_ranks == 1
    assert any("Vain earns nothing" in action for action in report.actions)


def test_ties_keep_sheet_order():
    report = karmic_debt([Disadvantage("A", 2, 1), Disadvantage("B", 2, 1)],
                         current_karma=1, starting_karma=10)
    assert [s.earning for s in report.standings] == [True, False]


def test_ranks_over_the_limit_earn_nothing_and_are_owed():
    report = karmic_debt([Disadvantage("Poor at Mathematics", 2, 4)],
                         current_karma=3, starting_karma=6)
    (standing,) = report.standings
    assert report.rank_limit == 2
    assert standing.excess_ranks == 2
    assert standing.points == 5 and standing.points_earned == 3
    assert report.debt_ranks == 2


def test_a_complication_worsens_other_disadvantages_until_the_cap_then_takes_stat_points():
    """Article, "Karmic Debt": a Complication worsens other disadvantages one rank per rank
    nullified; what the rank limit will not hold comes off a stat, 1 point per rank."""
    report = karmic_debt(
        [Disadvantage("Phobia", 4, 3), Disadvantage("Vain", 1, 2), Disadvantage("Greedy", 2, 3)],
        current_karma=2, starting_karma=9,
    )
    # Limit 3 ranks; Phobia (9) and Greedy (4) earn, Vain (2 ranks) is owed; both earners are
    # already at the limit.
    assert report.debt_ranks == 2
    assert report.worsen_capacity == 0
    assert report.stat_points_lost == 2
    roomy = karmic_debt(
        [Disadvantage("Phobia", 4, 1), Disadvantage("Vain", 1, 2)],
        current_karma=1, starting_karma=9,
    )
    assert roomy.worsen_capacity == 2 and roomy.stat_points_lost == 0


def test_a_disadvantage_needs_a_name_value_and_ranks():
    with pytest.raises(RulesError, match="ranks"):
        karmic_debt([{"name": "Vain", "value": 1}], current_karma=1, starting_karma=9)


# --- Karmic Starvation ----------------------------------------------------------------------


def test_spending_more_skill_points_than_available_is_starvation():
    """Article, "Karmic Starvation": the Complication frees two spent skill points per rank."""
    report = karmic_starvation(spent=30, available=27)
    assert report.starving and report.shortfall == 3
    assert report.complication_ranks == 2
    assert not karmic_starvation(27, 27).starving


# --- Spends ---------------------------------------------------------------------------------


def test_reroll_and_assist_cost_one():
    """Article, "Other Uses For Karma": a re-roll or +5 to another's roll consume one Karma."""
    assert spend_cost("reroll").cost == 1
    assist = spend_cost("assist")
    assert assist.cost == 1 and assist.roll_bonus == ASSIST_BONUS == 5


def test_karma_buys_two_skill_points_each():
    spend = spend_cost("skill_points", amount=3)
    assert spend.cost == 3 and spend.skill_points_gained == 6


@pytest.mark.parametrize(("current", "cost"), [
    (10, 2), (24, 2), (25, 2), (26, 4), (30, 4), (31, 8), (35, 8), (36, 16), (40, 16), (41, 32),
])
def test_stat_raises_double_past_25_and_every_five_after(current, cost):
    """Article, "Other Uses For Karma": 2 Karma per +1; doubled once over 25, again per +5."""
    assert stat_raise_cost(current) == cost


def test_a_multi_point_raise_prices_each_step():
    spend = spend_cost("stat_raise", current=24, points=3)
    assert spend.cost == 2 + 2 + 4
    assert [v for _, v in spend.breakdown] == [2, 2, 4]


def test_a_raise_past_forty_is_refused():
    with pytest.raises(RulesError, match="40"):
        spend_cost("stat_raise", current=39, points=2)


def test_removing_a_rank_costs_one_and_loses_the_top_ranks_points():
    """Article, "Removing/Reducing Disadvantages": 1 Karma per rank removed."""
    spend = spend_cost("disadvantage_removal", current_ranks=3, value=4)
    assert spend.cost == 1
    assert spend.disadvantage_points_lost == 2  # ranks are worth 4, 3, 2: the top one goes


def test_only_one_rank_per_adventure_unless_the_gm_allows_more():
    with pytest.raises(RulesError, match="one rank"):
        spend_cost("disadvantage_removal", removed_this_adventure=1)
    with pytest.raises(RulesError, match="one rank"):
        spend_cost("disadvantage_removal", ranks=2)
    spend = spend_cost("disadvantage_removal", ranks=2, gm_override=True, current_ranks=2, value=1)
    assert spend.cost == 2 and spend.disadvantage_points_lost == 2


def test_good_fortune_costs_what_the_gm_counts():
    assert spend_cost("good_fortune", cost=3).cost == 3
    with pytest.raises(RulesError, match="at least 1"):
        spend_cost("good_fortune", cost=0)


def test_delaying_a_transition_costs_its_time_index_once_the_upgrades_are_in():
    """Article, "Other Uses For Karma": the cost is the time shift on the chart, possible only
    after the three named upgrades."""
    assert spend_cost("delay_transition", upgrades=ALL_UPGRADES, time_index=4).cost == 4
    assert spend_cost("delay_transition", upgrades=ALL_UPGRADES, ratio=10).cost == 4
    with pytest.raises(RulesError, match="threshold detection"):
        spend_cost("delay_transition", upgrades=ALL_UPGRADES[:2], time_index=4)


def test_macguffin_contributions_cost_their_amount():
    assert spend_cost("macguffin", amount=5).cost == 5


def test_a_spend_beyond_the_balance_is_refused():
    with pytest.raises(RulesError, match="only 3"):
        spend_cost("skill_points", amount=4, available=3)
    assert spend_cost("skill_points", amount=3, available=3).cost == 3


def test_unknown_kinds_and_parameters_are_refused_with_what_is_expected():
    with pytest.raises(RulesError, match="reroll"):
        spend_cost("bribe")
    with pytest.raises(RulesError, match="amount"):
        spend_cost("skill_points", points=3)
    with pytest.raises(RulesError, match="current"):
        spend_cost("stat_raise")


@given(st.integers(1, 35), st.integers(1, 5))
def test_every_spend_breakdown_adds_up_to_its_cost(current, points):
    spend = spend_cost("stat_raise", current=current, points=points)
    assert total_of(spend.breakdown) == spend.cost
    assert spend.cost >= 2 * points


def test_every_kind_is_listed():
    assert set(SPEND_KINDS) == {
        "reroll", "assist", "skill_points", "stat_raise", "disadvantage_removal",
        "good_fortune", "delay_transition", "setback_payoff", "macguffin",
    }


def test_a_setback_is_paid_off_a_point_at_a_time():
    """"Karma": setbacks are disadvantages worth negative Karma, paid off with earned Karma."""
    assert spend_cost("setback_payoff", setback=2).cost == 1
    assert spend_cost("setback_payoff", setback=2, points=2).cost == 2
    with pytest.raises(RulesError, match="Only 1 point"):
        spend_cost("setback_payoff", setback=1, points=2)
