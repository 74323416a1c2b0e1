"""Experience and Campaign MacGuffins: what an adventure pays in Karma, and pooled Karma.

Article: "Experience", "XP Balance", "Campaign MacGuffins". RULINGS.md section 4. Spending
Karma, including a contribution to a MacGuffin pool, is priced in rulebook.karma.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulebook import RulesError
from rulebook._numbers import ceil_div, require_int
from rulebook.stats import BreakdownLine, Computed
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

# --- Experience ------------------------------------------------------------------------------
#: Multipliers for how the adventure's problem was dealt with ("Experience").
OUTCOME_MULTIPLIERS: dict[str, Fraction] = {
    "none": Fraction(1),
    "advice": Fraction(3, 2),
    "solution": Fraction(2),
}
#: Marked for the catalogue: translated where shown.
OUTCOME_LABELS: dict[str, str] = {
    "none": gettext_noop("no solution"),
    "advice": gettext_noop("locals put the PCs' advice in place"),
    "solution": gettext_noop("the PCs put the solution in place"),
}
PERMANENT_MULTIPLIER = 2
SELFISH_PENALTY = 1
#: Paid at once, on top of the payout: a GM complication to each directly affected
#: character, and an NPC's +10 boost to the chosen PCs.
COMPLICATION_AWARD = 2
NPC_BOOST_AWARD = 1
NPC_BOOST_BONUS = 10


def adventure_payout(base_xp: int, tokens: int, outcome: str, permanent: bool,
                     selfish: bool = False) -> Computed:
    """Compute one character's end-of-adventure Karma with its breakdown ("Experience").

    ((base XP + bad-news tokens) × outcome multiplier × 2 if permanent), rounded up, then −1
    if the GM marks the character selfish; never below 0.

    Args:
        base_xp: the adventure's base XP.
        tokens: bad-news tokens still counting (not voided by a stroke of good fortune).
        outcome: "none", "advice" (locals implement the PCs' advice, ×1.5) or "solution"
            (the PCs implement it, ×2).
        permanent: the solution is permanent (doubles the advice or solution multiplier).
        selfish: the GM marks the character selfish or amoral (waive it by passing False).
    """
    require_int(base_xp, gettext_noop("Base XP"), minimum=0)
    require_int(tokens, gettext_noop("Bad-news tokens"), minimum=0)
    if outcome not in OUTCOME_MULTIPLIERS:
        raise RulesError(
            _("Unknown outcome %(outcome)s: use one of %(outcomes)s.")
            % {"outcome": repr(outcome), "outcomes": ", ".join(OUTCOME_MULTIPLIERS)}
        )
    if permanent and outcome == "none":
        raise RulesError(_("A permanent solution needs an outcome: 'advice' or 'solution'."))
    breakdown: list[BreakdownLine] = [(_("base XP"), base_xp)]
    if tokens:
        breakdown.append((_("bad-news tokens"), tokens))
    running = Fraction(base_xp + tokens)
    multiplier = OUTCOME_MULTIPLIERS[outcome]
    if multiplier != 1:
        extra = running * (multiplier - 1)
        breakdown.append((f"{_(OUTCOME_LABELS[outcome])} (×{_show(multiplier)})", _plain(extra)))
        running += extra
    if permanent:
        breakdown.append((_("permanent solution (×%(factor)s)") % {"factor": PERMANENT_MULTIPLIER},
                          _plain(running * (PERMANENT_MULTIPLIER - 1))))
        running *= PERMANENT_MULTIPLIER
    total = ceil_div(running.numerator, running.denominator)
    if total != running:
        breakdown.append((_("rounded up"), _plain(total - running)))
    if selfish and total:
        breakdown.append((_("selfish or amoral behaviour"), -SELFISH_PENALTY))
        total -= SELFISH_PENALTY
    return Computed(total, breakdown)


def _plain(value: Fraction) -> int | Fraction:
    return int(value) if value.denominator == 1 else value


def _show(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


# --- Campaign MacGuffins ---------------------------------------------------------------------
#: Default Karma targets by the size of the change ("Campaign MacGuffins").
MACGUFFIN_TARGETS: dict[str, int] = {"minor": 4, "capability": 10, "removal": 20}


def macguffin_target(scale: str = "minor", gm_target: int | None = None) -> int:
    """Return a MacGuffin's Karma target: the GM's or the default ("Campaign MacGuffins").

    Defaults: minor improvement 4, new capability 10, limitation removed 20.
    """
    if gm_target is not None:
        return require_int(gm_target, gettext_noop("The MacGuffin target"), minimum=1)
    try:
        return MACGUFFIN_TARGETS[scale]
    except (KeyError, TypeError):
        raise RulesError(
            _("Unknown MacGuffin scale %(scale)s: use one of %(scales)s.")
            % {"scale": repr(scale), "scales": ", ".join(MACGUFFIN_TARGETS)}
        ) from None


@dataclass(frozen=True)
class MacGuffinProgress:
    """A MacGuffin pool's progress; a funded one takes effect from the next adventure."""

    invested: int
    target: int
    remaining: int
    funded: bool


def macguffin_progress(invested: int, target: int) -> MacGuffinProgress:
    """Return how far a Campaign MacGuffin pool is from its target ("Campaign MacGuffins")."""
    require_int(invested, gettext_noop("Karma invested"), minimum=0)
    require_int(target, gettext_noop("The MacGuffin target"), minimum=1)
    return MacGuffinProgress(invested, target, max(target - invested, 0), invested >= target)
