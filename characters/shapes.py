"""The shapes of a sheet's JSON columns (zenergate_site.shapes): one definition for the services,
the API and the importer, read through the rulebook's own types where the rules say what fits."""

from rulebook.damage import WOUNDABLE_STATS
from rulebook.drugs import DrugEffect
from rulebook.recovery import HealingState
from rulebook.stats import PRIMARY_STATS, STAT_MAX, STAT_MIN
from zenergate_site.shapes import Choice, Custom, ListOf, MapOf, Record, Whole, define

#: The most drug effects a character carries at once, and Karma swaps a sheet records.
EFFECTS_MAX = 20
KARMA_SWAPS_MAX = 40
#: The longest knock-out or campaign clock a sheet remembers, in seconds or hours (a century).
CLOCK_MAX = 100 * 366 * 24 * 3600


def _clock(value) -> None:
    """A recovery clock: the fields of rulebook.recovery.HealingState kept beside the columns."""
    if not isinstance(value, dict):
        raise TypeError("expected an object")
    clock = dict(value)
    if "end_held" in clock:
        clock["end_held"] = tuple(tuple(pair) for pair in clock["end_held"])
    columns = {"trauma", "shock", "end_spent", "stat_damage", "radiation"}
    if columns & set(clock):
        raise KeyError(f"{sorted(columns & set(clock))[0]} is a column of its own")
    HealingState(**clock)


def _radiation(value) -> None:
    from .wounds import track_from_json  # the column's reader; wounds imports the models

    if not isinstance(value, dict):
        raise TypeError("expected an object")
    track_from_json(value)


STAT = Choice(PRIMARY_STATS)
ROLLED_STATS = define("rolled_stats", MapOf(PRIMARY_STATS, Whole(STAT_MIN, STAT_MAX)))
STAT_TRADES = define("stat_trades", MapOf(PRIMARY_STATS, Whole(-STAT_MAX, STAT_MAX)))
KARMA_SWAPS = define("karma_swaps", ListOf(Record({"lowered": STAT, "raised": STAT}, required=("lowered", "raised")),
                                           KARMA_SWAPS_MAX))
STAT_CHANGES = define("stat_changes", MapOf(PRIMARY_STATS, Whole(0, STAT_MAX)))
STAT_DAMAGE = define("stat_damage", MapOf(WOUNDABLE_STATS, Whole(0, STAT_MAX)))
RADIATION_TRACK = define("radiation_track", Custom(_radiation, "a radiation track"))
WOUNDS_DETAIL = define("wounds_detail", Record({
    "clock": Custom(_clock, "a recovery clock"),
    "effects": ListOf(Custom(DrugEffect.from_dict, "a drug's effect"), EFFECTS_MAX),
    "out_cold": Record({"seconds": Whole(0, CLOCK_MAX), "at_hour": Whole(0, CLOCK_MAX)},
                       required=("seconds", "at_hour")),
}))
