"""Skills: breadth costs, ranks, check targets and eventual success.

Article: "Skills" ("Skill Base Values", "Skill Definitions", "Skill Checks", "Weapon Skills",
"Unproficient", "Improving Skills", "Skill Standards", "Eventual Success").
RULINGS.md sections 1 and 3.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from numbers import Real

from rulebook import RulesError
from rulebook._numbers import require_int
from rulebook.stats import (
    SKILL_CHECK_DICE,
    BreakdownLine,
    CheckTarget,
    skill_foundation,
)
from rulebook.table_data import TIME_CHART_MIN_INDEX
from rulebook.tables import as_fraction, extra_time_modifier, time_multiplier
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

#: Cost of a skill's first rank by breadth ("Skill Definitions").
GENERAL_BREADTHS: dict[str, int] = {"specific": 1, "narrow": 2, "broad": 4}
#: Cost of a weapon skill's first rank by breadth ("Weapon Skills").
WEAPON_BREADTHS: dict[str, int] = {"weapon_model": 1, "weapon_type": 2, "weapon_category": 3}
BREADTHS: dict[str, int] = {**GENERAL_BREADTHS, **WEAPON_BREADTHS}
#: Each breadth as people read it (marked for the catalogue: translated where shown).
BREADTH_NAMES: dict[str, str] = {
    "specific": gettext_noop("specific"), "narrow": gettext_noop("narrow"), "broad": gettext_noop("broad"),
    "weapon_model": gettext_noop("weapon model"), "weapon_type": gettext_noop("weapon type"),
    "weapon_category": gettext_noop("weapon category"),
}
#: A skill the GM has not classified yet: its cost is pending, not zero.
UNCLASSIFIED = "unclassified"

#: Each rank after the first costs this ("Improving Skills").
FURTHER_RANK_COST = 1
#: The campaign's default rank cap.
DEFAULT_MAX_RANKS = 3
#: Target bonus per further relevant skill or equipment the GM accepts ("Skill Checks").
RELEVANT_SKILL_BONUS = 2
#: Target bonus per indirectly related skill or equipment when unproficient ("Unproficient").
INDIRECT_SKILL_BONUS = 1

#: What a number of ranks means at the table ("Skill Standards"); marked for the catalogue,
#: translated where shown.
SKILL_STANDARDS: dict[int, str] = {
    0: gettext_noop("Unskilled / support staff"),
    1: gettext_noop("Trainee / junior assistant"),
    2: gettext_noop("Skilled assistant"),
    3: gettext_noop("Expert / professional"),
}


def breadth_cost(breadth: str) -> int:
    """Return the first-rank cost of a breadth ("Skill Definitions", "Weapon Skills").

    Names are matched without regard to case, spaces or hyphens ("Weapon type" works).

    Raises:
        RulesError: for an unclassified or unknown breadth.
    """
    if not isinstance(breadth, str):
        raise RulesError(_("A breadth is a name such as 'narrow', not %(breadth)s.") % {"breadth": repr(breadth)})
    key = breadth.strip().lower().replace(" ", "_").replace("-", "_")
    if key == UNCLASSIFIED:
        raise RulesError(_("This skill is not classified yet: the GM sets its breadth first."))
    try:
        return BREADTHS[key]
    except KeyError:
        raise RulesError(
            _("Unknown breadth %(breadth)s: use one of %(breadths)s.")
            % {"breadth": repr(breadth), "breadths": ", ".join(BREADTHS)}
        ) from None


def skill_cost(breadth: str, ranks: int, max_ranks: int = DEFAULT_MAX_RANKS) -> int:
    """Return the skill points a skill at ``ranks`` costs ("Skill Definitions", "Improving Skills").

    The first rank costs the breadth; every further rank costs 1. No ranks cost nothing.

    Raises:
        RulesError: for an unknown breadth, negative ranks or ranks beyond ``max_ranks``.
    """
    require_int(max_ranks, gettext_noop("The rank cap"), minimum=1)
    require_int(ranks, gettext_noop("Skill ranks"), minimum=0)
    if ranks > max_ranks:
        raise RulesError(_("%(ranks)s ranks is over this campaign's cap of %(cap)s ranks.")
                         % {"ranks": ranks, "cap": max_ranks})
    first = breadth_cost(breadth)
    if ranks == 0:
        return 0
    return first + FURTHER_RANK_COST * (ranks - 1)


def situational_terms(*, kind: str, proficient: bool = True, relevant: int = 0, indirect: int = 0,
                      time_taken: Real | str | None = None, normal_time: Real | str = 1,
                      modifier: int = 0) -> list[BreakdownLine]:
    """Return the terms a situation adds to a check already worked out from a sheet line.

    ``kind`` is "stat", "skill" or "weapon". Further relevant skills or equipment add +2 each to
    a proficient skill or weapon check ("Skill Checks"); indirectly related ones +1 each to an
    unproficient one ("Unproficient"); neither applies to a stat check. Extra time or rushing
    adds the time chart's index of time taken ÷ normal time ("Additional Rules", Extra Time
    Spent/Rushing: double time +2, half time −3). ``modifier`` is everything else the GM rules.

    Raises:
        RulesError: a negative count, a count that does not fit the check, or a bad time.
    """
    if kind not in ("stat", "skill", "weapon"):
        raise RulesError(_("Unknown kind of check %(kind)s: stat, skill or weapon.") % {"kind": repr(kind)})
    require_int(relevant, gettext_noop("Further relevant skills"), minimum=0)
    require_int(indirect, gettext_noop("Indirectly related skills"), minimum=0)
    require_int(modifier, gettext_noop("The modifier"))
    terms: list[BreakdownLine] = []
    if (relevant or indirect) and kind == "stat":
        raise RulesError(_("A stat check takes no skills: further relevant or related skills help skill checks."))
    if relevant:
        if not proficient:
            raise RulesError(_("Without ranks the check is unproficient: count other skills as indirectly "
                               "related (+1 each)."))
        terms.append((_relevant_label(relevant), RELEVANT_SKILL_BONUS * relevant))
    if indirect:
        if proficient:
            raise RulesError(_("Indirectly related skills only help an unproficient check; with ranks, count "
                               "other skills as further relevant (+2 each)."))
        terms.append((_indirect_label(indirect), INDIRECT_SKILL_BONUS * indirect))
    if time_taken not in (None, ""):
        shift = extra_time_modifier(time_taken, normal_time)
        terms.append((_("time taken %(taken)s ÷ normal %(normal)s (time chart)")
                      % {"taken": f"{float(as_fraction(time_taken)):g}",
                         "normal": f"{float(as_fraction(normal_time)):g}"}, shift))
    if modifier:
        terms.append((_("situational modifier"), modifier))
    return terms


def _relevant_label(count: int) -> str:
    return (_("%(count)s further relevant skill(s)/equipment × %(bonus)s")
            % {"count": count, "bonus": RELEVANT_SKILL_BONUS})


def _indirect_label(count: int) -> str:
    return (_("%(count)s indirectly related skill(s)/equipment × %(bonus)s")
            % {"count": count, "bonus": INDIRECT_SKILL_BONUS})


def skill_check_target(*, ranks: int, stat: int, extra_relevant: int = 0, indirect: int = 0,
                       modifier: int = 0) -> CheckTarget:
    """Compute a 3d6 skill check's target with its breakdown ("Skill Checks", "Unproficient").

    Proficient (ranks ≥ 1): ranks + the stat's skill foundation + 2 per further relevant
    skill or equipment + modifier. Unproficient (ranks 0): foundation + 1 per indirectly
    related skill or equipment + modifier. Modifiers are target-side (positive is easier).

    Args:
        ranks: ranks in the single skill the GM picked.
        stat: current value of the stat the GM picked as the basis.
        extra_relevant: further relevant skills or equipment the GM accepts (proficient only).
        indirect: indirectly related skills or equipment the GM accepts (unproficient only).
        modifier: the sum of all circumstance modifiers.

    Raises:
        RulesError: for negative counts, or a count that does not apply to this kind of check.
    """
    require_int(ranks, gettext_noop("Skill ranks"), minimum=0)
    require_int(stat, gettext_noop("The stat"))
    require_int(extra_relevant, gettext_noop("Further relevant skills"), minimum=0)
    require_int(indirect, gettext_noop("Indirectly related skills"), minimum=0)
    require_int(modifier, gettext_noop("The modifier"))
    foundation = skill_foundation(stat)
    breakdown: list[BreakdownLine] = []
    if ranks:
        if indirect:
            raise RulesError(_(
                "Indirectly related skills only help an unproficient check; with ranks in the "
                "skill, count other skills the GM accepts as further relevant (+2 each)."
            ))
        breakdown.append((_("skill ranks"), ranks))
        breakdown.append((_("skill foundation (stat %(stat)s: ⌈%(stat)s/2⌉ + 2)") % {"stat": stat}, foundation))
        if extra_relevant:
            breakdown.append((_relevant_label(extra_relevant), RELEVANT_SKILL_BONUS * extra_relevant))
    else:
        if extra_relevant:
            raise RulesError(_(
                "Without ranks in the skill the check is unproficient: other skills or "
                "equipment count as indirectly related (+1 each), or use a skill you have."
            ))
        breakdown.append((_("skill foundation (stat %(stat)s: ⌈%(stat)s/2⌉ + 2), unproficient") % {"stat": stat},
                          foundation))
        if indirect:
            breakdown.append((_indirect_label(indirect), INDIRECT_SKILL_BONUS * indirect))
    if modifier:
        breakdown.append((_("modifier"), modifier))
    return CheckTarget(sum(value for _, value in breakdown), breakdown, SKILL_CHECK_DICE)


@dataclass(frozen=True)
class EventualSuccess:
    """How long a sure success takes, read from a check's margin on the time chart.

    The breakdown's values add up to ``time_index``.
    """

    margin: int
    desired_margin: int
    adjusted_margin: int
    time_index: int
    multiplier: Fraction
    breakdown: list[BreakdownLine]

    @property
    def under_a_tenth(self) -> bool:
        """Return True when the chart reads "less than ×0.1" (the multiplier is then 0)."""
        return self.time_index <= TIME_CHART_MIN_INDEX

    def time_taken(self, normal_time: int | Fraction) -> Fraction:
        """Return the time the task takes, in the unit of ``normal_time`` ("Eventual Success")."""
        return Fraction(normal_time) * self.multiplier


def eventual_success(margin: int, desired_margin: int = 0) -> EventualSuccess:
    """Read a sure success's time from the check's margin ("Eventual Success").

    Sign convention: margin = target − roll (positive is a success by that much). The
    players' desired margin is subtracted first (the article's camp-site example: wanting a
    success by 5 lowers the margin by 5). The time-chart index is the adjusted margin with
    its sign turned round, because a better result should take less time: adjusted margin +3
    reads index −3 (×0.4 of the normal time); adjusted margin −4 reads index +4 (×10).

    Args:
        margin: the check's margin of success (negative for a failure).
        desired_margin: the success margin the players ask for; negative accepts a rougher
            result for speed.
    """
    require_int(margin, gettext_noop("The margin"))
    require_int(desired_margin, gettext_noop("The desired margin"))
    adjusted = margin - desired_margin
    index = -adjusted
    breakdown: list[BreakdownLine] = [(_("margin %(margin)s, sign reversed") % {"margin": margin}, -margin)]
    if desired_margin:
        breakdown.append((_("desired margin %(margin)s") % {"margin": desired_margin}, desired_margin))
    return EventualSuccess(
        margin=margin,
        desired_margin=desired_margin,
        adjusted_margin=adjusted,
        time_index=index,
        multiplier=time_multiplier(index),
        breakdown=breakdown,
    )
