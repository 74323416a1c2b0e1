"""The rule sets the app can resolve checks with: Zener Gate and four smaller systems.

Each module is pure: ``check_odds(...)`` returns exact odds as a ``SystemOdds`` (cached),
``roll_check(...)`` a ``SystemRoll`` with every die and term, dice entered at the table
being used before the injected ``rng``. ``SYSTEMS`` lists them by key as ``RuleSet``
objects, which clean a check's inputs (and a campaign's rulings) and answer odds and rolls.

| key | module | check |
|---|---|---|
| ``zener`` | ``zener`` | N d6 at or under a target (``rulebook.dice``) |
| ``zerospace`` | ``zerospace`` | 2d6 + AV against 2d6 + DV |
| ``success_check`` | ``success_check`` | 2d10 + bonus at or over a TN |
| ``rocket_house`` | ``rocket_house`` | d100 at or under a Trait, tens digit as Effect |
| ``core_rules`` | ``core_rules`` | KS + US + ES die over a threshold |
"""

from __future__ import annotations

from rulebook.systems import (
    base,
    core_rules,
    rocket_house,
    success_check,
    zener,
    zerospace,
)
from rulebook.systems.base import Param, ParamError, RuleSet, SystemOdds, SystemRoll
from rulebook.words import gettext as _

SYSTEMS: dict[str, RuleSet] = {
    module.RULE_SET.key: module.RULE_SET
    for module in (zener, zerospace, success_check, rocket_house, core_rules)
}

__all__ = ["SYSTEMS", "Param", "ParamError", "RuleSet", "SystemOdds", "SystemRoll", "clear_caches", "get_system"]


def get_system(key: str) -> RuleSet:
    """Return the rule set called ``key``, or raise ParamError naming the field ``system``."""
    try:
        return SYSTEMS[key]
    except (KeyError, TypeError):
        raise ParamError("system", _("Unknown rule set %(key)s: use %(keys)s.")
                         % {"key": repr(key), "keys": ", ".join(SYSTEMS)}) from None


def clear_caches() -> None:
    """Forget every cached distribution and odds of the rule sets (for cold-start measurements)."""
    for module in (base, zener, zerospace, success_check, rocket_house, core_rules):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)) and hasattr(value, "cache_info"):
                value.cache_clear()
