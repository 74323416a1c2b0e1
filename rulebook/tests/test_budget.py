"""Tests for rulebook.budget: what a sheet earns in skill points and what it spends."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.budget import PricedItem, SkillLike, character_budget, trade_points
from rulebook.karma import Disadvantage
from rulebook.stats import PRIMARY_STATS, stat_trade_points


def test_trades_cost_three_per_raise_and_give_two_per_lowering():
    """Article, "Improving Stats": +1 costs 3 skill points, −1 gives 2."""
    assert trade_points({"STR": 1, "ENC": -2}) == -3 + 4
    assert trade_points({}) == 0
    with pytest.raises(RulesError, match="LUCK"):
        trade_points({"LUCK": 1})
    with pytest.raises(RulesError, match="whole number"):
        trade_points({"STR": 1.5})


@given(st.dictionaries(st.sampled_from(PRIMARY_STATS), st.integers(-5, 5)))
def test_trades_by_stat_agree_with_the_stats_rule(trades):
    raised = sum(delta for delta in trades.values() if delta > 0)
    lowered = -sum(delta for delta in trades.values() if delta < 0)
    assert trade_points(trades) == stat_trade_points(raised, lowered)


def test_a_sheet_budget_line_by_line():
    """RULINGS 2 and 3: 2 × INT + earning disadvantages + trades + 2 per Karma, less costs."""
    budget = character_budget(
        intelligence=12, trades={"STR": 1}, karma_converted=1,
        disadvantages=[Disadvantage("Poor at Mathematics", 2, 2)], current_karma=5,
        starting_karma=10,
        skills=[SkillLike("Medicine", "narrow", 3), SkillLike("Lore", "broad", 1, classified=False)],
        equipment=[SkillLike("Field kit", "specific", 2)],
        priced_items=[PricedItem("Rifle", 3)],
    )
    assert budget.available == 24 + (2 + 1) - 3 + 2  # Poor at Mathematics: 2 + 1 for two ranks
    assert budget.spent == (2 + 1 + 1) + 4 + (1 + 1) + 3
    assert budget.remaining == budget.available - budget.spent and not budget.overspent
    assert budget.pending == 1
    assert sum(line.points for line in budget.lines) == budget.remaining


def test_a_disadvantage_beyond_the_karma_limit_earns_nothing_and_is_flagged():
    budget = character_budget(
        intelligence=10, trades={}, karma_converted=0,
        disadvantages=[Disadvantage("Phobia", 4, 1), Disadvantage("Greedy", 1, 1)],
        current_karma=1, starting_karma=10, skills=[],
    )
    assert budget.available == 20 + 4
    assert any("earns nothing" in line.label for line in budget.lines)
    assert budget.debt_actions
