"""A combatant as the rules see it: stats in play, Defense, weapons and wounds, PC or NPC alike.

Reads only. A player character's numbers come from its sheet (stats in play with armour,
stat damage, radiation and drugs) and its stored wounds; an NPC's from its stat block.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.utils.translation import gettext_noop

from characters.models import Character
from characters.selectors import COMBAT_PREFETCH
from characters.sheet import current_stats, worn_armour_rating
from characters.weapons import aiming_class_for
from characters.wounds import wounded_stats
from rulebook.combat import defense
from rulebook.damage import WoundState, dying_causes
from rulebook.equipment import armour_effects, damage_description
from rulebook.stats import PRIMARY_STATS

from .models import Combatant

#: A quick NPC with no stats given: an average person (the middle of 4d6).
DEFAULT_NPC_STAT = 14


@dataclass
class Fighter:
    """What the rules need of one combatant now."""

    combatant: Combatant
    stats: dict[str, int]
    hit_points: int
    shock_threshold: int
    endurance_max: int
    trauma: int
    shock: int
    end_spent: int
    stat_damage: dict[str, int]
    armour_rating: int
    weapons: list[dict] = field(default_factory=list)
    #: The stats as wounded, without armour or drugs: what dying is read from (see ``dying``).
    wounded: dict[str, int] = field(default_factory=dict)

    @property
    def endurance(self) -> int:
        return max(self.endurance_max - self.end_spent, 0)

    def defense(self):
        return defense(self.stats["RES"], self.armour_rating)

    def wound_state(self) -> WoundState:
        return WoundState(hit_points=self.hit_points, shock_threshold=self.shock_threshold,
                          stats={**self.stats, "END": self.endurance}, trauma=self.trauma, shock=self.shock,
                          shock_this_round=self.combatant.shock_this_round, stat_damage=self.stat_damage)

    @property
    def dying_causes(self) -> tuple[str, ...]:
        """What has it dying, by the one rule the sheet reads too (rulebook.damage.dying_causes),
        from its stored wounds: a hit, the GM's wounds form, a downtime or a transition alike."""
        if self.combatant.dead:
            return ()
        return dying_causes(self.hit_points - self.trauma,
                            {**self.wounded, "END": self.endurance_max - self.end_spent})

    @property
    def dying(self) -> bool:
        return bool(self.dying_causes)

    def band(self) -> str:
        """How hurt the combatant looks to players who may not see an NPC's numbers (in English,
        marked for the catalogue: the pages translate it where they show it)."""
        if self.combatant.dead or self.dying or self.trauma >= self.hit_points:
            return gettext_noop("down")
        share = self.trauma / self.hit_points if self.hit_points else 0
        if not self.trauma and not self.shock:
            return gettext_noop("unhurt")
        return gettext_noop("badly hurt") if share >= 0.5 else gettext_noop("hurt")


def combatants_loaded(encounter_id: int) -> list[Combatant]:
    """Return an encounter's combatants with every character's sheet, in a fixed number of queries."""
    # The characters joined in, their lines prefetched through them: one query fewer than
    # prefetching the characters themselves.
    lines = [Prefetch(f"character__{p.prefetch_through}", queryset=p.queryset) for p in COMBAT_PREFETCH]
    return list(Combatant.objects.filter(encounter_id=encounter_id).select_related("character")
                .prefetch_related(*lines).order_by("position", "id"))


def _pc_weapons(character: Character) -> list[dict]:
    """The character's weapons, each with the ranks of the weapon skill that covers it (none:
    unproficient, 0 ranks) and its aiming class."""
    skills = {s.pk: s for s in character.skills.all()}  # its weapon skills (COMBAT_PREFETCH)
    weapons = []
    for w in character.weapons.all():
        if w.fate == "consumed":  # used up in the adventure: not in hand any more
            continue
        skill = skills.get(w.skill_id)
        weapons.append({"id": w.pk, "name": w.name, "damage_points": w.damage_points, "rate_of_fire": w.rate_of_fire,
                        "extra_damage": w.extra_damage, "melee": w.melee, "aiming": w.aiming,
                        "ranks": skill.ranks if skill else 0, "skill": skill.name if skill else None,
                        "damage": damage_description(w.damage_points, w.rate_of_fire, w.extra_damage)})
    return weapons


def fighter(combatant: Combatant) -> Fighter:
    """Return the combatant's numbers in play (its character's sheet must be loaded)."""
    character = combatant.character
    if character is not None:
        armour, _, _ = worn_armour_rating(character)
        wounded = {code: value for code, value in wounded_stats(character).items() if code != "END"}
        return Fighter(combatant, current_stats(character), character.hit_points or 1,
                       character.shock_threshold or 1, character.endurance_max or character.con,
                       character.trauma, character.shock, character.endurance_spent,
                       dict(character.stat_damage or {}), armour, _pc_weapons(character), wounded)
    sheet = {code: int(combatant.stats.get(code, DEFAULT_NPC_STAT)) for code in PRIMARY_STATS}
    wounded = dict(sheet)
    for code, damage in (combatant.stat_damage or {}).items():
        if code in wounded:
            wounded[code] -= damage
    stats = dict(wounded)
    for code, penalty in armour_effects(combatant.armour_type).items():
        stats[code] = stats.get(code, 0) + penalty
    # Each NPC weapon carries its own ranks ("given per weapon"); a stat block from before
    # weapons had an aiming class reads one from the weapon's name.
    weapons = [{**w, "id": index, "ranks": int(w.get("ranks", 0)),
                "aiming": w.get("aiming") or aiming_class_for(w.get("name", "")), "skill": None,
                "damage": damage_description(w["damage_points"], w.get("rate_of_fire", 1), w.get("extra_damage", 0))}
               for index, w in enumerate(combatant.weapons or [])]
    return Fighter(combatant, stats, combatant.hit_points, combatant.shock_threshold or 1,
                   combatant.endurance_max or sheet["CON"], combatant.trauma, combatant.shock, combatant.end_spent,
                   dict(combatant.stat_damage or {}), combatant.armour_rating, weapons, wounded)
