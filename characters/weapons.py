"""Which weapon skill covers a weapon, and how long aiming it pays, guessed from names.

A weapon names its skill and aiming class on the sheet; these guesses fill them in where a
client left them out (an API write, a sheet from before the fields existed). The player or the
GM can always change what was guessed.
"""

from __future__ import annotations

from collections.abc import Iterable

#: Narrowest first: "breaking ties in favor of narrowness" (article, "Skills").
WEAPON_BREADTHS = ("weapon_model", "weapon_type", "weapon_category")

_PISTOL_WORDS = ("pistol", "handgun", "revolver", "derringer", "sidearm")


def aiming_class_for(name: str) -> str:
    """The aiming class a weapon's name suggests: pistol, sniper, or else rifle."""
    lowered = name.lower()
    if any(word in lowered for word in _PISTOL_WORDS):
        return "pistol"
    return "sniper" if "sniper" in lowered else "rifle"


def covering_skill(name: str, skills: Iterable):
    """The weapon skill whose name (or weapon category) the weapon's name contains, or whose
    name contains it: the narrowest, then the one with most ranks; None when nothing matches.

    ``skills`` are sheet skills (``name``, ``breadth``, ``ranks``, ``weapon_category``).
    """
    lowered = name.lower().strip()

    def matches(skill) -> bool:
        words = [w.lower().strip() for w in (skill.name, skill.weapon_category or "") if w.strip()]
        return any(w in lowered or lowered in w for w in words) if lowered else False

    found = [s for s in skills if s.breadth in WEAPON_BREADTHS and matches(s)]
    return min(found, key=lambda s: (WEAPON_BREADTHS.index(s.breadth), -s.ranks), default=None)
