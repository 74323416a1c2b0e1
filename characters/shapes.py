"""The shapes of a sheet's JSON columns (zenergate_site.shapes): one definition for the services,
the API and the importer, read through the rulebook's own types where the rules say what fits;
and the radiation track's JSON form, which the column's shape and characters.wounds both use."""

from dataclasses import asdict
from fractions import Fraction

from rulebook.damage import WOUNDABLE_STATS
from rulebook.drugs import DrugEffect
from rulebook.radiation import RadiationTrack
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


# --- The radiation track's JSON form: fractions of an hour written "a/b" --------------------------
def _fraction_out(value: Fraction) -> int | str:
    return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def track_to_json(track: RadiationTrack) -> dict:
    """Return the radiation track as JSON values (fractions of an hour as "a/b")."""
    out = asdict(track)
    for name in ("step_hours", "step_restful_sleep_hours", "step_rough_rest_hours"):
        out[name] = _fraction_out(getattr(track, name))
    return out


def track_from_json(data: dict | None) -> RadiationTrack:
    data = dict(data or {})
    for name in ("step_hours", "step_restful_sleep_hours", "step_rough_rest_hours"):
        if name in data:
            data[name] = Fraction(str(data[name]))
    return RadiationTrack(**data)


def _radiation(value) -> None:
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
