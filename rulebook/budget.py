"""The skill-point budget of a character sheet: what the sheet earns, what it spends.

Article: "Skill Points", "Improving Stats", "Disadvantages", "Karma Limits", "Other Uses For
Karma", "Equipment", "Weapons", "Armor". RULINGS.md sections 2 and 3.

The budget never raises for an overspent sheet: a draft is allowed to be overspent while the
player builds it, and the budget says so (``remaining`` < 0). Bad values still raise
``RulesError``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from rulebook import RulesError
from rulebook._numbers import require_int
from rulebook.equipment import consumed_refund, found_equipment_cost
from rulebook.karma import Disadvantage, karmic_debt
from rulebook.skills import BREADTH_NAMES, BREADTHS, skill_cost
from rulebook.stats import PRIMARY_STATS, SKILL_POINTS_PER_KARMA, stat_trade_points
from rulebook.words import gettext as _
from rulebook.words import gettext_noop, ngettext


@dataclass(frozen=True)
class BudgetLine:
    """One term of the budget: positive points are earned, negative are spent."""

    label: str
    points: int
    pending: bool = False  # priced on the player's proposed breadth, not yet classified by the GM


@dataclass(frozen=True)
class SkillLike:
    """A skill or general item for the budget: breadth and ranks."""

    name: str
    breadth: str
    ranks: int = 1
    classified: bool = True
    fate: str = ""  # general equipment: "consumed" or "found" (``adventure_cost``)


@dataclass(frozen=True)
class PricedItem:
    """A weapon or armour whose cost the equipment rules already computed."""

    name: str
    cost: int
    classified: bool = True
    fate: str = ""  # "consumed" or "found" (``adventure_cost``)


#: What an adventure did to a piece of equipment, and what the budget line says of it (in English,
#: marked for the catalogue: translated where shown).
FATE_NOTES = {"consumed": gettext_noop("used up: all but 1 point refunded"),
              "found": gettext_noop("found, stays behind: free")}


def adventure_cost(cost: int, fate: str) -> int:
    """An item's cost after the adventure: used up, all but 1 point comes back; found and left
    behind, it costs nothing ("Weapons", "Armor")."""
    if fate == "consumed":
        return cost - consumed_refund(cost)
    if fate == "found":
        return found_equipment_cost(cost, left_behind=True)
    if fate:
        raise RulesError(_("Unknown fate %(fate)s: consumed, found or none.") % {"fate": repr(fate)})
    return cost


@dataclass(frozen=True)
class Budget:
    available: int
    spent: int
    lines: list[BudgetLine] = field(default_factory=list)
    debt_actions: list[str] = field(default_factory=list)

    @property
    def remaining(self) -> int:
        return self.available - self.spent

    @property
    def overspent(self) -> bool:
        return self.remaining < 0

    @property
    def pending(self) -> int:
        """Return how many lines are priced on a breadth the GM has not classified yet."""
        return sum(1 for line in self.lines if line.pending)


def trade_points(trades: Mapping[str, int]) -> int:
    """Return the skill points generation stat trades give (negative: they cost).

    Each +1 to a stat costs 3 skill points; each −1 gives 2 ("Improving Stats").
    """
    raised = lowered = 0
    for stat, delta in trades.items():
        if stat not in PRIMARY_STATS:
            raise RulesError(_("Unknown stat %(stat)s") % {"stat": repr(stat)})
        delta = require_int(delta, _("The trade on %(stat)s") % {"stat": stat})
        raised, lowered = raised + max(delta, 0), lowered + max(-delta, 0)
    return stat_trade_points(raised, lowered)


def character_budget(
    *,
    intelligence: int,
    trades: Mapping[str, int],
    karma_converted: int,
    disadvantages: Iterable[Disadvantage],
    current_karma: int,
    starting_karma: int,
    skills: Iterable[SkillLike],
    equipment: Iterable[SkillLike] = (),
    priced_items: Iterable[PricedItem] = (),
    max_ranks: int = 3,
    starvation_relief: int = 0,
) -> Budget:
    """Compute a sheet's skill-point budget, line by line.

    Available = 2 × INT + points of the disadvantages that earn (Karma limits applied) +
    generation stat trades + 2 per Karma converted. Spent = every skill (first rank at its
    breadth, 1 per further rank) + general equipment (priced like skills) + weapons and armour.
    """
    lines: list[BudgetLine] = [BudgetLine(f"2 × INT {intelligence}", 2 * intelligence)]
    debt = karmic_debt(list(disadvantages), current_karma=current_karma, starting_karma=starting_karma)
    for standing in debt.standings:
        said = {"name": standing.name, "ranks": standing.ranks, "excess": standing.excess_ranks}
        if standing.earning:
            if standing.excess_ranks:
                label = ngettext("Disadvantage: %(name)s (%(ranks)s rank), %(excess)s over the rank limit earn nothing",
                                 "Disadvantage: %(name)s (%(ranks)s ranks), %(excess)s over the rank limit earn "
                                 "nothing", standing.ranks) % said
            else:
                label = ngettext("Disadvantage: %(name)s (%(ranks)s rank)", "Disadvantage: %(name)s (%(ranks)s ranks)",
                                 standing.ranks) % said
            lines.append(BudgetLine(label, standing.points_earned))
        elif standing.ranks:
            lines.append(BudgetLine(_("Disadvantage: %(name)s earns nothing (Karmic Debt)") % said, 0))
    traded = trade_points(trades)
    if traded:
        lines.append(BudgetLine(_("Stat trades (+1 costs 3, −1 gives 2)"), traded))
    if karma_converted:
        lines.append(BudgetLine(_("%(karma)s Karma converted × %(per)s")
                                % {"karma": karma_converted, "per": SKILL_POINTS_PER_KARMA},
                                SKILL_POINTS_PER_KARMA * karma_converted))
    if starvation_relief:
        lines.append(BudgetLine(_("Karmic Starvation Complication (2 per rank)"), starvation_relief))
    available = sum(line.points for line in lines)

    spent = 0
    for kind, items in (("Skill", skills), ("Equipment", equipment)):
        for item in items:
            breadth = item.breadth if item.breadth in BREADTHS else None
            if breadth is None:
                raise RulesError(_("Unknown breadth %(breadth)s for %(name)s")
                                 % {"breadth": repr(item.breadth), "name": item.name})
            fate = getattr(item, "fate", "")
            cost = adventure_cost(skill_cost(breadth, item.ranks, max_ranks=max_ranks), fate)
            spent += cost
            pending = not item.classified
            said = {"name": item.name, "breadth": _(BREADTH_NAMES[breadth]), "ranks": item.ranks}
            if kind == "Skill":
                label = ngettext("Skill: %(name)s (%(breadth)s, %(ranks)s rank)",
                                 "Skill: %(name)s (%(breadth)s, %(ranks)s ranks)", item.ranks) % said
            else:
                label = ngettext("Equipment: %(name)s (%(breadth)s, %(ranks)s rank)",
                                 "Equipment: %(name)s (%(breadth)s, %(ranks)s ranks)", item.ranks) % said
            lines.append(BudgetLine(label + _fate_and_pending(fate, pending), -cost, pending))
    for item in priced_items:
        cost = adventure_cost(item.cost, item.fate)
        spent += cost
        lines.append(BudgetLine(f"{item.name}" + _fate_and_pending(item.fate, not item.classified),
                                -cost, not item.classified))
    return Budget(available=available, spent=spent, lines=lines, debt_actions=list(debt.actions))


def _fate_and_pending(fate: str, pending: bool) -> str:
    """The end of an item's budget line: what the adventure did to it, and whether the GM still
    has to classify it."""
    return ((", " + _(FATE_NOTES[fate]) if fate else "")
            + (" — " + _("awaiting GM classification") if pending else ""))
