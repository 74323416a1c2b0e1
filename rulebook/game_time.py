"""Game time: how long things last, on the fight's clock and the campaign's.

A fight's clock counts seconds from its first round, one combat turn (``round_seconds``, ten by
default, "Combat time") per round. Something that lasts a while in a fight (a knock-out) is
kept as the second on that clock at which it ends, never as a count of turns: a count can
overflow a column, a time cannot mean anything but what the rules rolled.

A knock-out is dated to its victim's next chance to act: the start of this round when the
victim's turn is still to come in it, the end of this round when it has acted. The victim then
misses every action of a round that starts before it comes round. So a knock-out of 20 seconds
in 10-second rounds misses two actions, one of 10 seconds misses one, whenever it lands.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil

from rulebook import RulesError
from rulebook.words import gettext as _
from rulebook.words import Said, gettext_noop, listed, said, said_plural

MINUTE, HOUR, DAY, YEAR = 60, 3600, 86400, 31_557_600  # a Julian year: 365.25 days

#: The time chart's last row, "×10,000+" (RULINGS §8): a knock-out this long or longer lasts
#: the rest of the fight, and after it the GM says when the character wakes.
OPEN_ENDED_SECONDS = 10_000
#: Where the fight's clock puts the end of an open-ended knock-out: later than any fight runs.
LONGEST_SECONDS = 100 * YEAR


#: What an open-ended knock-out is called (RULINGS §8); marked for the catalogue, translated
#: where shown. The number is OPEN_ENDED_SECONDS.
REST_OF_FIGHT = gettext_noop("for the rest of the fight (10,000+ s)")


def round_start(round_number: int, round_seconds: int) -> int:
    """The fight clock at the start of a round (round 1 starts at 0)."""
    return max(round_number - 1, 0) * round_seconds


def ends_at(*, round_number: int, round_seconds: int, seconds: Fraction | int, acts_later: bool = False) -> int:
    """The second on the fight clock at which a knock-out of ``seconds`` in ``round_number``
    ends, dated to the victim's next chance to act (``acts_later``: its turn in this round is
    still to come), the time rounded up to a whole second. An open-ended knock-out (the time
    chart's last row) ends later than any fight runs: LONGEST_SECONDS on."""
    if seconds < 0:
        raise RulesError(_("A duration cannot be negative, not %(seconds)s.") % {"seconds": seconds})
    start = round_start(round_number, round_seconds) if acts_later else round_number * round_seconds
    return start + (LONGEST_SECONDS if open_ended(seconds) else ceil(seconds))


def open_ended(seconds: Fraction | int) -> bool:
    """Whether a knock-out (or what is left of one in a fight) is the time chart's "10,000+":
    the rest of the fight."""
    return seconds >= OPEN_ENDED_SECONDS


def misses_action(*, until: int | None, round_number: int, round_seconds: int) -> bool:
    """Whether a combatant out cold until ``until`` misses its action in this round."""
    return until is not None and round_start(round_number, round_seconds) < until


def actions_missed(seconds: Fraction | int, round_seconds: int) -> int:
    """How many actions a knock-out of ``seconds`` costs in rounds of ``round_seconds``."""
    return ceil(min(ceil(seconds), LONGEST_SECONDS) / round_seconds)


def back_in_round(until: int, round_seconds: int) -> int:
    """The first round whose start is not before ``until``: the one a knocked-out combatant
    acts in again."""
    return -(-until // round_seconds) + 1


def seconds_left(*, until: int | None, round_number: int, round_seconds: int) -> int:
    """What is left, at the start of this round, of something that ends at ``until``."""
    if until is None:
        return 0
    return max(until - round_start(round_number, round_seconds), 0)


def duration(seconds: Fraction | int | float) -> str:
    """A duration as a player reads it, in its largest sensible unit: "20 s", "30 min",
    "2 h 5 min", "3 days", "12 years". Below a second: "a moment"."""
    return duration_said(seconds).told()


def duration_said(seconds: Fraction | int | float) -> Said:
    """``duration`` kept to be told later, in each reader's language (a log line's)."""
    if seconds <= 0:
        return said("no time")
    if seconds < 1:
        return said("a moment")
    whole = ceil(seconds)
    if whole >= LONGEST_SECONDS:
        return said("100 years or more")
    if whole < MINUTE:
        return listed([f"{whole} s"])
    if whole < HOUR:
        minutes, rest = divmod(whole, MINUTE)
        return listed([f"{minutes} min" + (f" {rest} s" if rest else "")])
    if whole < DAY:  # to the minute, rounded up: "out cold 2 h 5 min" is never too short
        hours, minutes = divmod(ceil(whole / MINUTE), 60)
        return listed([f"{hours} h" + (f" {minutes} min" if minutes else "")])
    if whole < YEAR:
        days, hours = divmod(ceil(whole / HOUR), 24)
        return said_plural("%(count)s day", "%(count)s days", days, count=days) + (
            f" {hours} h" if hours and days < 10 else "")
    years = round(whole / YEAR, 1 if whole < 10 * YEAR else None)
    years = int(years) if float(years).is_integer() else float(years)
    # A part of a year ("1.5 years") reads as a plural: the count for the plural is then not 1.
    return said_plural("%(count)s year", "%(count)s years", years if isinstance(years, int) else 2, count=years)


def out_cold(seconds: Fraction | int, round_seconds: int) -> str:
    """A knock-out as the log and the card say it: "20 s — misses 2 actions", or "for the rest
    of the fight (10,000+ s)" from the time chart's last row on."""
    return out_cold_said(seconds, round_seconds).told()


def out_cold_said(seconds: Fraction | int, round_seconds: int) -> Said:
    """``out_cold`` kept to be told later, in each reader's language."""
    if open_ended(seconds):
        return Said(REST_OF_FIGHT)
    missed = actions_missed(seconds, round_seconds)
    return said_plural("%(duration)s — misses %(missed)s action", "%(duration)s — misses %(missed)s actions",
                       missed, duration=duration_said(seconds), missed=f"{missed:,}")
