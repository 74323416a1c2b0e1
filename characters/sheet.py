"""Everything a sheet shows that the rules compute: derived stats, budget, targets and odds.

Reads only: takes a character whose sheet lines are already loaded (see
``selectors.character_with_sheet``) and asks the rulebook. Nothing here queries the database,
so a sheet costs the same number of queries whatever it holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulebook import RulesError
from rulebook.budget import Budget, PricedItem, SkillLike, character_budget
from rulebook.dice import check_odds
from rulebook.equipment import armour_cost, armour_effects, armour_rating, weapon_cost
from rulebook.karma import Disadvantage as RulesDisadvantage
from rulebook.karma import max_disadvantage_ranks
from rulebook.skills import skill_check_target
from rulebook.stats import (
    PRIMARY_STATS,
    DerivedStats,
    derived_stats,
    effective_dex,
    starting_karma_breakdown,
    stat_check_target,
)

from .models import Character


def generation_stats(character: Character) -> dict[str, int]:
    """Return the stats as they stand at generation: the sheet values less any Karma raises."""
    stats = character.stat_values()
    for stat, raised in (character.stat_raises or {}).items():
        stats[stat] -= raised
    for stat, lost in (character.stat_setbacks or {}).items():
        stats[stat] += lost
    return stats


def derived(character: Character) -> DerivedStats:
    return derived_stats(generation_stats(character), (character.int_plus_d6, character.int_minus_d6))


def derived_values(character: Character) -> dict[str, tuple[int, list, bool]]:
    """Return DEX, INT, HP, SHK and END as (value, breakdown, frozen), with no query.

    Before approval the values follow the stats; from approval INT, HP, SHK and END are the
    frozen ones (DEX always follows the current NIM and rolled DEX).
    """
    d = derived(character)
    frozen = {"INT": character.intelligence, "HP": character.hit_points,
              "SHK": character.shock_threshold, "END": character.endurance_max}
    values = {}
    for code in ("DEX", "INT", "HP", "SHK", "END"):
        computed = d[code]
        is_frozen = frozen.get(code) is not None
        values[code] = (frozen[code] if is_frozen else computed.total,
                        [(k, int(v)) for k, v in computed.breakdown], is_frozen)
    return values


def starting_karma(character: Character):
    """Return the starting Karma with its breakdown (frozen at approval, computed before)."""
    return starting_karma_breakdown(generation_stats(character), len(character.karma_swaps or []))


def current_stats(character: Character) -> dict[str, int]:
    """Return each stat as it is in play: effective DEX, less stat damage and radiation CON loss."""
    stats = character.stat_values()
    stats["DEX"] = effective_dex(stats["DEX"], stats["NIM"])
    for stat, damage in (character.stat_damage or {}).items():
        if stat in stats:
            stats[stat] -= damage
    stats["CON"] -= character.long_term_con_damage
    return stats


def intelligence_value(character: Character) -> int:
    return character.intelligence if character.intelligence is not None else derived(character).intelligence.total


def karma_for_limits(character: Character) -> tuple[int, int]:
    """Return (current, starting) Karma for the Karma limits; before approval both are starting Karma."""
    start = character.starting_karma if character.starting_karma is not None else starting_karma(character).total
    current = character.karma if character.state not in (Character.State.DRAFT, Character.State.SUBMITTED) else start
    return current, start


def weapon_price(weapon) -> int:
    return weapon_cost(weapon.damage_points, weapon.rate_of_fire, weapon.extra_damage,
                       weapon.range_reduction_steps, weapon.skilled,
                       melee=weapon.melee, reach_steps=weapon.reach_steps).total


def armour_price(armour) -> int:
    return armour_cost(armour.hardness, armour.coverage, armour.nim_penalty, armour.skilled).total


def budget(character: Character) -> Budget:
    """Return the skill-point budget of a character whose sheet lines are loaded."""
    current, start = karma_for_limits(character)
    priced = [PricedItem(f"Weapon: {w.name}", weapon_price(w), w.classified) for w in character.weapons.all()]
    priced += [PricedItem(f"Armour: {a.name}", armour_price(a), a.classified) for a in character.armour.all()]
    return character_budget(
        intelligence=intelligence_value(character),
        trades=character.stat_trades or {},
        karma_converted=character.karma_converted,
        disadvantages=[RulesDisadvantage(d.name, d.value, d.ranks) for d in character.disadvantages.all()],
        current_karma=current,
        starting_karma=start,
        skills=[SkillLike(s.name, s.breadth, s.ranks, s.classified) for s in character.skills.all()],
        equipment=[SkillLike(e.name, e.breadth, e.ranks, e.classified) for e in character.equipment.all()],
        priced_items=priced,
        max_ranks=character.campaign.max_skill_ranks,
        starvation_relief=character.starvation_relief,
    )


@dataclass(frozen=True)
class CheckLine:
    """A skill or stat with its check target, breakdown and exact chance of success."""

    label: str
    target: int
    breakdown: list
    dice: int
    probability: float
    rolled_dice: int  # dice actually rolled after the miracle rule

    @property
    def percent(self) -> str:
        p = self.probability * 100
        return f"{p:.1f}%" if 0.1 <= p < 99.95 else (f"{p:.3g}%" if p else "0%")


def _check_line(label: str, target) -> CheckLine:
    odds = check_odds(target.total, target.dice)
    return CheckLine(label, target.total, [(k, int(v)) for k, v in target.breakdown], target.dice,
                     float(odds.probability), odds.dice)


def stat_checks(character: Character) -> dict[str, CheckLine]:
    stats = current_stats(character)
    return {code: _check_line(code, stat_check_target(stats[code])) for code in PRIMARY_STATS}


def skill_checks(character: Character) -> dict[int, CheckLine]:
    stats = current_stats(character)
    return {
        skill.pk: _check_line(skill.name, skill_check_target(ranks=skill.ranks, stat=stats[skill.stat]))
        for skill in character.skills.all()
    }


@dataclass(frozen=True)
class ArmourView:
    rating: int
    effects: dict
    cost: int


def armour_views(character: Character) -> dict[int, ArmourView]:
    views = {}
    for armour in character.armour.all():
        rating = armour_rating(armour.hardness, armour.coverage)
        views[armour.pk] = ArmourView(rating, armour_effects(rating, armour.tech_shift), armour_price(armour))
    return views


@dataclass
class Sheet:
    """The computed half of a sheet, ready for a template or a serializer."""

    derived: dict = field(default_factory=dict)  # {"HP": (value, breakdown, frozen)}
    starting_karma: tuple = (0, [])
    budget: Budget | None = None
    stat_checks: dict = field(default_factory=dict)
    skill_checks: dict = field(default_factory=dict)
    armour: dict = field(default_factory=dict)
    weapon_costs: dict = field(default_factory=dict)
    disadvantage_rank_limit: int = 0
    problems: list = field(default_factory=list)


def compute_sheet(character: Character) -> Sheet:
    """Compute everything the sheet shows; a rule that cannot apply becomes a listed problem."""
    sheet = Sheet()
    try:
        sheet.derived = derived_values(character)
        sk = starting_karma(character)
        start = character.starting_karma if character.starting_karma is not None else sk.total
        sheet.starting_karma = (start, [(k, int(v)) for k, v in sk.breakdown])
        sheet.disadvantage_rank_limit = max_disadvantage_ranks(start)
        sheet.budget = budget(character)
        sheet.stat_checks = stat_checks(character)
        sheet.skill_checks = skill_checks(character)
        sheet.armour = armour_views(character)
        sheet.weapon_costs = {w.pk: weapon_price(w) for w in character.weapons.all()}
    except RulesError as exc:
        sheet.problems.append(str(exc))
    if sheet.budget is not None:
        sheet.problems.extend(sheet.budget.debt_actions)
    return sheet
