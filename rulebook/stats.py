"""Stats: the 13 rolled stats, the calculated ones, and generation trades.

Article: "Stats", "Stat Checks", "Improving Stats", "Skill Base Values". RULINGS.md section 2.
"""

from __future__ import annotations

#: The 13 rolled (primary) stats in sheet order.
PRIMARY_STATS: tuple[str, ...] = (
    "STR", "CON", "RES", "NIM", "DEX", "ACC", "MEL",
    "PRAC", "THEO", "ENC", "LAN", "AWA", "PERS",
)
#: Calculated stats, fixed at generation.
CALCULATED_STATS: tuple[str, ...] = ("INT", "HP", "SHK", "END")

#: Stat checks roll this many d6; skill checks and attacks roll SKILL_CHECK_DICE.
STAT_CHECK_DICE = 4
SKILL_CHECK_DICE = 3


def skill_foundation(stat: int) -> int:
    """Return the skill foundation of a stat: ⌈stat / 2⌉ + 2 ("Skill Base Values")."""
    return -(-stat // 2) + 2
