"""What every rule set shares: its inputs, its odds and roll records, and the dice arithmetic.

A rule set (``RuleSet``) names its inputs (``Param``), checks and coerces them (``clean``),
and answers two questions: what are the exact odds of a check (``SystemOdds``), and what came
up when it was rolled (``SystemRoll``). The odds of each system are computed once per set of
inputs and cached; the rolls take an injected ``random.Random`` and dice entered at the table.
"""

from __future__ import annotations

import operator
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial
from types import MappingProxyType

from rulebook import RulesError
from rulebook.dice import EnteredDice
from rulebook.words import gettext as _

Breakdown = tuple[tuple[str, object], ...]
Distribution = tuple[tuple[int, Fraction], ...]

#: How many sets of inputs each rule set keeps the odds of. Warm look-ups are dictionary hits;
#: the bound keeps a caller sweeping every input from growing the cache without end.
ODDS_CACHE_SIZE = 4096

_WHOLE_NUMBER = re.compile(r"[+-]?\d{1,9}")


class ParamError(RulesError):
    """An input of a check that is missing, unknown, of the wrong kind or out of range.

    ``field`` names the input, so a form can show the message beside it.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Param:
    """One whole-number input of a check (or one ruling of a campaign), with its bounds.

    ``default`` None makes the input required. ``choices``, when given, lists every value
    allowed (advantage −1/0/1, a ruling's readings); ``help`` says what each one means.
    ``label`` and ``help`` are in English, marked for the catalogue: translated where shown.
    """

    name: str
    label: str
    minimum: int | None
    maximum: int | None
    default: int | None = None
    choices: tuple[int, ...] = ()
    help: str = ""

    @property
    def required(self) -> bool:
        """Whether a check cannot be made without this input."""
        return self.default is None

    def coerce(self, value: object) -> int:
        """Return ``value`` as an int within this input's bounds, or raise ParamError.

        Integers and strings of decimal digits (as a form posts them) are accepted; True and
        False are refused, as are fractions, floats and anything else.
        """
        if isinstance(value, bool):
            raise ParamError(self.name, self._not_whole(value))
        if isinstance(value, str):
            text = value.strip()
            if not _WHOLE_NUMBER.fullmatch(text):
                raise ParamError(self.name, self._not_whole(value))
            value = int(text)
        try:
            number = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            raise ParamError(self.name, self._not_whole(value)) from None
        if self.choices and number not in self.choices:
            allowed = ", ".join(str(choice) for choice in self.choices)
            raise ParamError(self.name, _("%(label)s must be one of %(allowed)s (got %(number)s).")
                             % {"label": _(self.label), "allowed": allowed, "number": number})
        if self.minimum is not None and number < self.minimum:
            raise ParamError(self.name, _("%(label)s must be at least %(minimum)s (got %(number)s).")
                             % {"label": _(self.label), "minimum": self.minimum, "number": number})
        if self.maximum is not None and number > self.maximum:
            raise ParamError(self.name, _("%(label)s must be at most %(maximum)s (got %(number)s).")
                             % {"label": _(self.label), "maximum": self.maximum, "number": number})
        return number

    def _not_whole(self, value: object) -> str:
        return _("%(label)s must be a whole number, not %(value)s.") % {"label": _(self.label), "value": repr(value)}


@dataclass(frozen=True)
class SystemOdds:
    """The exact odds of one check.

    ``distribution`` is the outcome a chart shows (``outcome`` says what it is: a total, a
    d100 roll, a margin), ascending and summing to 1; ``success`` holds the outcomes that
    succeed, and ``probability`` is their total chance. ``breakdown`` lists the target and
    its terms as (label, value) pairs.
    """

    probability: Fraction
    distribution: Distribution
    success: frozenset[int]
    outcome: str
    breakdown: Breakdown


@dataclass(frozen=True)
class SystemRoll:
    """One rolled check: every die, the ones that counted, the total and every term.

    ``faces`` are all dice in the order they were rolled; ``kept`` those that counted;
    ``details`` holds what the system adds (margin, band, effect…), always with ``outcome``
    (where the roll falls on the odds chart) and ``rolls`` (each die as sides, face and
    whether it was entered at the table). ``probability`` is the chance the check had.
    """

    faces: tuple[int, ...]
    kept: tuple[int, ...]
    total: int
    success: bool
    breakdown: Breakdown
    details: Mapping[str, object]
    probability: Fraction


@dataclass(frozen=True)
class RuleSet:
    """A rule set as the app sees it: its inputs, its rulings, its odds and its rolls.

    ``params`` are the inputs of one check; ``rulings`` are readings of the text a campaign
    may change, each with the default the app uses. Both are cleaned together, so a check is
    asked for with the campaign's rulings merged into its inputs. ``name`` and ``summary`` are
    in English, marked for the catalogue: translated where shown.
    """

    key: str
    name: str
    params: tuple[Param, ...]
    rulings: tuple[Param, ...]
    summary: str = ""
    odds_function: Callable[[dict], SystemOdds] | None = field(default=None, repr=False, compare=False)
    roll_function: Callable[[dict, object, object], SystemRoll] | None = field(
        default=None, repr=False, compare=False)
    validate: Callable[[dict], None] | None = field(default=None, repr=False, compare=False)

    @property
    def fields(self) -> tuple[Param, ...]:
        """The check's inputs followed by the rulings, as ``clean`` accepts them."""
        return self.params + self.rulings

    def param_named(self, name: str) -> Param:
        """Return the input or ruling called ``name``."""
        for param in self.fields:
            if param.name == name:
                return param
        raise KeyError(name)

    def ruling_defaults(self) -> dict[str, int]:
        """Return every ruling at the value the app uses unless a campaign changes it."""
        return {ruling.name: ruling.default for ruling in self.rulings}  # type: ignore[misc]

    def clean(self, raw: Mapping[str, object]) -> dict[str, int]:
        """Check and coerce a check's inputs and rulings, filling in the defaults.

        Raises:
            ParamError: naming the first field that is unknown, missing, not a whole number,
                out of range, or inconsistent with another field.
        """
        if not isinstance(raw, Mapping):
            raise ParamError("__all__", _("Give the inputs of the check as a set of named fields."))
        names = [param.name for param in self.fields]
        unknown = sorted(str(name) for name in raw if name not in names)
        if unknown:
            raise ParamError(unknown[0], _("Unknown field %(field)s for %(system)s: use %(fields)s.")
                             % {"field": repr(unknown[0]), "system": _(self.name), "fields": ", ".join(names)})
        cleaned: dict[str, int] = {}
        for param in self.fields:
            value = raw.get(param.name)
            if value is None or value == "":
                if param.required:
                    raise ParamError(param.name, _("%(label)s is required.") % {"label": _(param.label)})
                cleaned[param.name] = param.default  # type: ignore[assignment]
            else:
                cleaned[param.name] = param.coerce(value)
        if self.validate is not None:
            self.validate(cleaned)
        return cleaned

    def odds(self, **params: object) -> SystemOdds:
        """Return the exact odds of a check with these inputs (and rulings)."""
        return self.odds_function(self.clean(params))  # type: ignore[misc]

    def roll(self, rng: random.Random | None = None, dice: Sequence[int] | None = None, /,
             **params: object) -> SystemRoll:
        """Roll a check with these inputs (and rulings).

        ``rng`` and ``dice`` (faces rolled at the table, used in the order the system rolls)
        are positional: the Zener rule set has an input called ``dice``, the number of dice.
        """
        if "rng" in params or ("dice" in params and "dice" not in {param.name for param in self.params}):
            raise TypeError("Pass rng and the entered dice positionally: roll(rng, dice, **inputs).")
        return self.roll_function(self.clean(params), rng, dice)  # type: ignore[misc]


# --- Words ----------------------------------------------------------------------------------
def language_key() -> str:
    """A key that differs between the readers' languages, for the caches of odds: the odds carry
    words (their breakdown, what the chart shows), made in the language of the request that first
    asked, so each language keeps its own. The rulebook does not know the language; the
    translation of a word every odds breakdown carries tells the languages apart."""
    return _("chance of success")


# --- Entered dice ---------------------------------------------------------------------------
def table_dice(dice: Sequence[int] | None, rng: random.Random | None, label: str = "dice") -> EnteredDice:
    """Return a roller that hands out the entered faces first, then rolls with ``rng``."""
    return EnteredDice(() if dice is None else dice, rng, label=label)


def dice_record(roller: EnteredDice) -> tuple[dict[str, int | bool], ...]:
    """Return every die the roller handed out as ``{"sides", "face", "entered"}``, in roll order."""
    return tuple(roller.record())


def frozen(details: Mapping[str, object]) -> Mapping[str, object]:
    """Return a read-only view of a roll's details."""
    return MappingProxyType(dict(details))


# --- Exact dice arithmetic ------------------------------------------------------------------
def as_distribution(counts: Mapping[int, int | Fraction]) -> Distribution:
    """Turn ways (or weights) per outcome into an ascending distribution summing to 1."""
    total = sum(counts.values())
    return tuple((outcome, Fraction(weight) / total) for outcome, weight in sorted(counts.items()) if weight)


@lru_cache(maxsize=None)
def pool_counts(rolled: int, kept: int, sides: int, highest: bool) -> Mapping[int, int]:
    """Count the ordered rolls of ``rolled`` dice d``sides`` by the sum of the dice kept.

    The ``kept`` highest (or lowest) faces count; ``kept == rolled`` is a plain sum. Every
    sorted hand is weighed by the number of orders it can come up in, so the counts add up
    to sides ** rolled.
    """
    counts: dict[int, int] = {}
    whole = factorial(rolled)
    for hand in combinations_with_replacement(range(1, sides + 1), rolled):
        ways = whole
        for face in set(hand):
            ways //= factorial(hand.count(face))
        counted = hand[rolled - kept:] if highest else hand[:kept]
        total = sum(counted)
        counts[total] = counts.get(total, 0) + ways
    return MappingProxyType(counts)


def shifted(distribution: Iterable[tuple[int, Fraction]], by: int) -> dict[int, Fraction]:
    """Return the distribution with every outcome moved by ``by``."""
    return {outcome + by: chance for outcome, chance in distribution}


def difference(first: Mapping[int, Fraction], second: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """Return the distribution of first − second for two independent outcomes."""
    out: dict[int, Fraction] = {}
    for a, pa in first.items():
        for b, pb in second.items():
            out[a - b] = out.get(a - b, Fraction(0)) + pa * pb
    return out


def chance(distribution: Distribution, success: frozenset[int]) -> Fraction:
    """Return the total chance of the outcomes in ``success``."""
    return sum((p for outcome, p in distribution if outcome in success), Fraction(0))
