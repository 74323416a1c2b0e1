"""The shapes of an NPC's stat block (zenergate_site.shapes): one definition for the GM's form,
the API, the NPC library and the importer, from the rulebook's ranges."""

from rulebook.equipment import DAMAGE_POINTS_MAX, EXTRA_DAMAGE_MAX, RATES_OF_FIRE
from rulebook.stats import PRIMARY_STATS, STAT_MAX, STAT_MIN
from rulebook.tables import AIMING_CAPS_SECONDS
from zenergate_site import limits
from zenergate_site.shapes import Choice, Flag, ListOf, MapOf, Nullable, Record, Text, Whole, define

#: The most weapons an NPC carries, and NPCs a set-up of the library holds.
NPC_WEAPONS_MAX = 20
SETUP_NPCS_MAX = 50
#: Weapon ranks an NPC is given per weapon.
NPC_WEAPON_RANKS_MAX = 10
#: An NPC block's own numbers (the columns beside its stats hold the same bounds as CHECKs).
HIT_POINTS = Whole(1, 500)
SHOCK_THRESHOLD = Whole(1, 100)
ENDURANCE = Whole(1, 100)
ARMOUR = Whole(0, 10)

STATS = MapOf(PRIMARY_STATS, Whole(STAT_MIN, STAT_MAX))
WEAPON = Record({
    "name": Text(limits.NPC_WEAPON_NAME),
    "damage_points": Whole(1, DAMAGE_POINTS_MAX),
    "rate_of_fire": Choice(RATES_OF_FIRE),
    "extra_damage": Whole(0, EXTRA_DAMAGE_MAX),
    "ranks": Whole(0, NPC_WEAPON_RANKS_MAX),
    "melee": Flag(),
    "aiming": Nullable(Choice(AIMING_CAPS_SECONDS)),
}, required=("name", "damage_points"))
WEAPONS = ListOf(WEAPON, NPC_WEAPONS_MAX)
#: Stat damage taken: a point per stat, never past the stat itself.
STAT_DAMAGE = MapOf(PRIMARY_STATS, Whole(0, STAT_MAX))
NPC = Record({
    "name": Text(limits.NPC_NAME), "revealed": Flag(), "stats": STATS,
    "hit_points": Nullable(HIT_POINTS), "shock_threshold": Nullable(SHOCK_THRESHOLD),
    "endurance_max": Nullable(ENDURANCE), "armour_rating": ARMOUR, "armour_type": ARMOUR, "weapons": WEAPONS,
}, required=("name",))

NPC_STATS = define("npc_stats", STATS)
NPC_WEAPONS = define("npc_weapons", WEAPONS)
NPC_STAT_DAMAGE = define("npc_stat_damage", STAT_DAMAGE)
SETUP_NPCS = define("setup_npcs", ListOf(NPC, SETUP_NPCS_MAX))
