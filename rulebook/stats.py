"""Stats: the 13 rolled stats, the calculated ones, and generation trades.

Article: "Stats", "Stat Checks", "Improving Stats", "Skill Base Values", "Skill Points",
"Other Uses For Karma" (the generation swap). RULINGS.md section 2.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from rulebook import RulesError
from rulebook._numbers import ceil_div, require_int
from rulebook.dice import CheckOdds, check_odds, roll_dice
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

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

#: The range a primary stat may take on the sheet.
STAT_MIN = 1
STAT_MAX = 40

#: Starting Karma before the stats move it ("Stats", KARMA).
BASE_STARTING_KARMA = 10
#: A primary stat at or above this costs a point of starting Karma ...
HIGH_STAT = 17
#: ... and one at or below this gives one.
LOW_STAT = 8

#: Generation trades ("Improving Stats"): skill points paid per +1, gained per −1.
SKILL_POINTS_PER_STAT_RAISE = 3
SKILL_POINTS_PER_STAT_LOWER = 2
#: A generation Karma swap: 1 Karma lowers one stat by 1 and raises another by 2.
KARMA_SWAP_LOWER = 1
KARMA_SWAP_RAISE = 2
#: Karma converted to skill points ("Other Uses For Karma").
SKILL_POINTS_PER_KARMA = 2

#: One line of a breakdown: a label a player can read and the term it adds to the total.
BreakdownLine = tuple[str, int | Fraction]


@dataclass(frozen=True)
class Computed:
    """A computed number and its breakdown; the breakdown's values add up to ``total``."""

    total: int
    breakdown: list[BreakdownLine]


@dataclass(frozen=True)
class CheckTarget:
    """The target of a check (succeed on a sum ≤ total) with its breakdown and dice count."""

    total: int
    breakdown: list[BreakdownLine]
    dice: int

    @property
    def odds(self) -> CheckOdds:
        """Return the exact chance of success, miracle rule applied ("Impossible Chances")."""
        return check_odds(self.total, self.dice)


@dataclass(frozen=True)
class DerivedStats:
    """The calculated stats of a character at generation, each with its breakdown."""

    dex: Computed
    intelligence: Computed
    hit_points: Computed
    shock_threshold: Computed
    endurance: Computed

    def __getitem__(self, abbreviation: str) -> Computed:
        """Look a value up by its sheet abbreviation: DEX, INT, HP, SHK or END."""
        names = {
            "DEX": self.dex, "INT": self.intelligence, "HP": self.hit_points,
            "SHK": self.shock_threshold, "END": self.endurance,
        }
        try:
            return names[abbreviation]
        except KeyError:
            raise RulesError(
                _("Unknown calculated stat %(code)s: use one of %(codes)s.")
                % {"code": repr(abbreviation), "codes": ", ".join(names)}
            ) from None


def skill_foundation(stat: int) -> int:
    """Return the skill foundation of a stat: ⌈stat / 2⌉ + 2 ("Skill Base Values")."""
    return ceil_div(stat, 2) + 2


def hit_points(con: int, res: int, nim: int) -> int:
    """Return HP = 2 × CON + RES + NIM ("Stats", HP)."""
    for name, value in (("CON", con), ("RES", res), ("NIM", nim)):
        require_int(value, name, minimum=STAT_MIN, maximum=STAT_MAX)
    return 2 * con + res + nim


def shock_threshold(hp: int) -> int:
    """Return the shock threshold SHK = ⌈HP / 5⌉ ("Stats", SHK)."""
    require_int(hp, "HP", minimum=0)
    return ceil_div(hp, 5)


def effective_dex(rolled_dex: int, nim: int) -> int:
    """Return the DEX used in play: the rolled DEX averaged with NIM, rounded up ("Stats", DEX)."""
    require_int(rolled_dex, gettext_noop("The rolled DEX"), minimum=STAT_MIN, maximum=STAT_MAX)
    require_int(nim, "NIM", minimum=STAT_MIN, maximum=STAT_MAX)
    return ceil_div(rolled_dex + nim, 2)


def intelligence(prac: int, theo: int, enc: int, lan: int, plus_d6: int, minus_d6: int) -> int:
    """Return INT = ⌊(PRAC + THEO + ENC + LAN) / 4⌋ + 1d6 − 1d6 ("Stats", INT).

    The two d6 are rolled once at generation (see ``roll_int_dice``) and kept, so INT can be
    recomputed when the four stats change.
    """
    for name, value in (("PRAC", prac), ("THEO", theo), ("ENC", enc), ("LAN", lan)):
        require_int(value, name, minimum=STAT_MIN, maximum=STAT_MAX)
    require_int(plus_d6, gettext_noop("The INT +1d6 die"), minimum=1, maximum=6)
    require_int(minus_d6, gettext_noop("The INT −1d6 die"), minimum=1, maximum=6)
    return (prac + theo + enc + lan) // 4 + plus_d6 - minus_d6


def roll_int_dice(rng: random.Random | None = None) -> tuple[int, int]:
    """Roll the INT dice once at generation: return (the +1d6, the −1d6) ("Stats", INT)."""
    plus_d6, minus_d6 = roll_dice(2, 6, rng)
    return plus_d6, minus_d6


def validate_stats(stats: Mapping[str, int]) -> None:
    """Check a sheet's primary stats: all 13, each a whole number from 1 to 40 ("Stats").

    Raises:
        RulesError: naming every missing, unknown or out-of-range stat at once.
    """
    problems = []
    missing = [name for name in PRIMARY_STATS if name not in stats]
    if missing:
        problems.append(_("missing %(stats)s") % {"stats": ", ".join(missing)})
    unknown = sorted(str(name) for name in stats if name not in PRIMARY_STATS)
    if unknown:
        problems.append(_("unknown stat %(unknown)s (the stats are %(stats)s)")
                        % {"unknown": ", ".join(unknown), "stats": " ".join(PRIMARY_STATS)})
    for name in PRIMARY_STATS:
        if name not in stats:
            continue
        value = stats[name]
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append(_("%(stat)s must be a whole number, not %(value)s") % {"stat": name, "value": repr(value)})
        elif not STAT_MIN <= value <= STAT_MAX:
            problems.append(_("%(stat)s is %(value)s, outside %(min)s–%(max)s")
                            % {"stat": name, "value": value, "min": STAT_MIN, "max": STAT_MAX})
    if problems:
        raise RulesError(_("Stats: %(problems)s.") % {"problems": "; ".join(problems)})


def final_primary_stats(stats: Mapping[str, int]) -> dict[str, int]:
    """Return the primary stats as used in play, effective DEX for rolled DEX ("Stats", DEX)."""
    validate_stats(stats)
    final = dict(stats)
    final["DEX"] = effective_dex(stats["DEX"], stats["NIM"])
    return final


def starting_karma_breakdown(stats: Mapping[str, int], karma_swaps: int = 0) -> Computed:
    """Compute starting Karma with its breakdown ("Stats", KARMA; "Other Uses For Karma").

    10, −1 per primary stat of 17 or more, +1 per primary stat of 8 or less, counted on the
    final stats (effective DEX), then −1 per generation Karma swap.

    Raises:
        RulesError: on bad stats, or more swaps than the Karma they would be paid from.
    """
    require_int(karma_swaps, gettext_noop("The number of Karma swaps"), minimum=0)
    final = final_primary_stats(stats)
    high = [name for name in PRIMARY_STATS if final[name] >= HIGH_STAT]
    low = [name for name in PRIMARY_STATS if final[name] <= LOW_STAT]
    breakdown: list[BreakdownLine] = [(_("base Karma"), BASE_STARTING_KARMA)]
    if high:
        breakdown.append((_("stats of %(value)s or more: %(stats)s") % {"value": HIGH_STAT, "stats": ", ".join(high)},
                          -len(high)))
    if low:
        breakdown.append((_("stats of %(value)s or less: %(stats)s") % {"value": LOW_STAT, "stats": ", ".join(low)},
                          len(low)))
    before_swaps = BASE_STARTING_KARMA - len(high) + len(low)
    if karma_swaps > max(before_swaps, 0):
        raise RulesError(
            _("%(swaps)s Karma swaps need %(swaps)s Karma, but these stats give only %(karma)s starting Karma.")
            % {"swaps": karma_swaps, "karma": max(before_swaps, 0)}
        )
    if karma_swaps:
        breakdown.append((_("%(swaps)s generation Karma swap(s)") % {"swaps": karma_swaps}, -karma_swaps))
    total = before_swaps - karma_swaps
    if total < 0:
        # Karma never goes below zero; only a sheet with ten or more high stats gets here.
        breakdown.append((_("Karma cannot go below 0"), -total))
        total = 0
    return Computed(total, breakdown)


def starting_karma(stats: Mapping[str, int], karma_swaps: int = 0) -> int:
    """Return starting Karma ("Stats", KARMA); see ``starting_karma_breakdown`` for the terms."""
    return starting_karma_breakdown(stats, karma_swaps).total


def derived_stats(stats: Mapping[str, int], int_dice: tuple[int, int]) -> DerivedStats:
    """Compute DEX, INT, HP, SHK and END at generation, each with its breakdown ("Stats").

    Args:
        stats: the 13 primary stats, with the rolled DEX.
        int_dice: the stored INT dice, (the +1d6, the −1d6).
    """
    validate_stats(stats)
    try:
        plus_d6, minus_d6 = int_dice
    except (TypeError, ValueError):
        raise RulesError(_("The INT dice must be a pair: (the +1d6, the −1d6).")) from None
    s = stats
    dex = effective_dex(s["DEX"], s["NIM"])
    four = s["PRAC"] + s["THEO"] + s["ENC"] + s["LAN"]
    int_value = intelligence(s["PRAC"], s["THEO"], s["ENC"], s["LAN"], plus_d6, minus_d6)
    hp = hit_points(s["CON"], s["RES"], s["NIM"])
    shk = shock_threshold(hp)
    return DerivedStats(
        dex=Computed(dex, [
            (_("(rolled DEX %(dex)s + NIM %(nim)s) / 2, rounded up") % {"dex": s["DEX"], "nim": s["NIM"]}, dex),
        ]),
        intelligence=Computed(int_value, [
            (_("(PRAC %(prac)s + THEO %(theo)s + ENC %(enc)s + LAN %(lan)s) / 4, rounded down")
             % {"prac": s["PRAC"], "theo": s["THEO"], "enc": s["ENC"], "lan": s["LAN"]}, four // 4),
            ("+1d6", plus_d6),
            ("−1d6", -minus_d6),
        ]),
        hit_points=Computed(hp, [
            (f"2 × CON {s['CON']}", 2 * s["CON"]),
            ("RES", s["RES"]),
            ("NIM", s["NIM"]),
        ]),
        shock_threshold=Computed(shk, [(_("HP %(hp)s / 5, rounded up") % {"hp": hp}, shk)]),
        endurance=Computed(s["CON"], [(_("CON at generation"), s["CON"])]),
    )


def stat_trade_points(raised: int, lowered: int) -> int:
    """Return the skill points generation trades give; negative means they cost ("Improving Stats").

    Args:
        raised: total points added to stats, 3 skill points each.
        lowered: total points taken from stats, 2 skill points each.
    """
    require_int(raised, gettext_noop("Points raised"), minimum=0)
    require_int(lowered, gettext_noop("Points lowered"), minimum=0)
    return SKILL_POINTS_PER_STAT_LOWER * lowered - SKILL_POINTS_PER_STAT_RAISE * raised


def apply_karma_swap(stats: Mapping[str, int], *, lowered: str, raised: str) -> dict[str, int]:
    """Apply one generation Karma swap: ``lowered`` −1, ``raised`` +2 ("Other Uses For Karma").

    The Karma it costs comes off starting Karma (``starting_karma(..., karma_swaps=n)``).

    Raises:
        RulesError: for an unknown stat, the same stat twice, or a result outside 1–40.
    """
    validate_stats(stats)
    for name in (lowered, raised):
        if name not in PRIMARY_STATS:
            raise RulesError(_("Unknown stat %(stat)s: use one of %(stats)s.")
                             % {"stat": repr(name), "stats": " ".join(PRIMARY_STATS)})
    if lowered == raised:
        raise RulesError(_("A Karma swap lowers one stat and raises a different one."))
    if stats[lowered] - KARMA_SWAP_LOWER < STAT_MIN:
        raise RulesError(_("%(stat)s is already %(value)s and cannot be lowered.")
                         % {"stat": lowered, "value": stats[lowered]})
    if stats[raised] + KARMA_SWAP_RAISE > STAT_MAX:
        raise RulesError(_("%(stat)s is %(value)s; +%(raise)s would pass %(max)s.")
                         % {"stat": raised, "value": stats[raised], "raise": KARMA_SWAP_RAISE, "max": STAT_MAX})
    swapped = dict(stats)
    swapped[lowered] -= KARMA_SWAP_LOWER
    swapped[raised] += KARMA_SWAP_RAISE
    return swapped


def starting_skill_points(int_value: int, disadvantage_points: int = 0, trade_points: int = 0,
                          karma_converted: int = 0) -> Computed:
    """Compute starting skill points with their breakdown ("Skill Points", "Disadvantages").

    2 × INT + disadvantage points + generation trades + 2 per Karma converted.
    """
    require_int(int_value, "INT", minimum=0)
    require_int(disadvantage_points, gettext_noop("Disadvantage points"), minimum=0)
    require_int(trade_points, gettext_noop("Stat trade points"))
    require_int(karma_converted, gettext_noop("Karma converted"), minimum=0)
    breakdown: list[BreakdownLine] = [(f"2 × INT {int_value}", 2 * int_value)]
    if disadvantage_points:
        breakdown.append((_("disadvantage points"), disadvantage_points))
    if trade_points:
        breakdown.append((_("stat trades"), trade_points))
    if karma_converted:
        breakdown.append((_("%(karma)s Karma converted × %(per)s") % {"karma": karma_converted,
                                                                     "per": SKILL_POINTS_PER_KARMA},
                          SKILL_POINTS_PER_KARMA * karma_converted))
    total = sum(value for _term, value in breakdown)
    if total < 0:
        raise RulesError(
            _("These stat trades cost %(cost)s skill points but only %(available)s are available.")
            % {"cost": -trade_points, "available": total - trade_points}
        )
    return Computed(total, breakdown)


def stat_check_target(stat: int, modifier: int = 0) -> CheckTarget:
    """Compute a stat check's target: the stat + the GM's modifier, rolled on 4d6 ("Stat Checks").

    Modifiers are target-side: positive makes the check easier (RULINGS.md section 1).
    """
    require_int(stat, gettext_noop("The stat"))
    require_int(modifier, gettext_noop("The modifier"))
    breakdown: list[BreakdownLine] = [(_("stat"), stat)]
    if modifier:
        breakdown.append((_("modifier"), modifier))
    return CheckTarget(stat + modifier, breakdown, STAT_CHECK_DICE)
