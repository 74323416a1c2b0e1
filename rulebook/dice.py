"""Dice: seeded rolling helpers, exact check distributions, miracle and extra-benefit dice.

Article: "Stat Checks", "Skill Checks", "Additional Rules / Impossible Chances", and the
"Combat" discussion of 1d6 to 4d6. RULINGS.md section 1.

Every check is "roll N d6, succeed on a total at or below the target". Exact chances are
``Fraction`` values counted in closed form (no tables to build), and cached, so asking the
same odds twice costs a dictionary look-up.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from rulebook import RulesError
from rulebook._numbers import require_int
from rulebook.words import gettext as _
from rulebook.words import gettext_noop, ngettext

#: The rng used when a caller passes none. Tests always inject their own.
default_rng = random.Random()

#: No check ever rolls more dice than this, miracle and extra-benefit dice included. It keeps
#: absurd targets (a GM typo of −1000) from asking for thousands of dice.
MAX_DICE = 100

DIE_SIDES = 6


def _rng(rng: random.Random | None) -> random.Random:
    return default_rng if rng is None else rng


def roll_die(sides: int, rng: random.Random | None = None) -> int:
    """Roll one die with ``sides`` faces (1..sides): the d6, d10, d% … of every section."""
    return _rng(rng).randint(1, sides)


def roll_dice(count: int, sides: int = 6, rng: random.Random | None = None) -> list[int]:
    """Roll ``count`` dice with ``sides`` faces and return the faces in roll order.

    The Nd6 of "Stat Checks" and "Skill Checks", and every damage roll.
    """
    r = _rng(rng)
    return [r.randint(1, sides) for _ in range(count)]


# --- Input checks ---------------------------------------------------------------------------
def _dice_count(dice: object) -> int:
    count = require_int(dice, gettext_noop("The number of dice"))
    if not 1 <= count <= MAX_DICE:
        raise RulesError(_("A check rolls between 1 and %(max)s dice, not %(count)s.")
                         % {"max": MAX_DICE, "count": count})
    return count


# --- Exact distributions ------------------------------------------------------------------
@lru_cache(maxsize=None)
def sum_counts(dice: int, sides: int = 6) -> tuple[int, ...]:
    """Return the number of ways to roll each total 0..dice*sides on ``dice`` dice.

    The exact distribution behind "Stat Checks" and "Skill Checks", built by repeated
    convolution and cached per dice count.
    """
    if dice == 0:
        return (1,)
    # Built from the previous count so a 12-dice table reuses the 11-dice one.
    previous = sum_counts(dice - 1, sides)
    counts = [0] * (len(previous) + sides)
    for total, ways in enumerate(previous):
        if ways:
            for face in range(1, sides + 1):
                counts[total + face] += ways
    return tuple(counts)


def at_most_count(target: int, dice: int, sides: int = 6) -> int:
    """Count the ordered rolls of ``dice`` dice whose sum is at most ``target``, in closed form.

    With every face lowered by one, the question is how many ways ``dice`` numbers from 0 to
    sides − 1 sum to at most m = target − dice. Without the upper limit that is C(m + dice,
    dice); inclusion–exclusion takes away the ways where k chosen dice go past it:

        Σₖ (−1)ᵏ · C(dice, k) · C(m − k·sides + dice, dice)

    The sum's symmetry (a total t is as likely as dice·(sides + 1) − t) keeps k at most a
    quarter of the dice, so a check costs a handful of integer operations and no table.
    """
    if target < dice:
        return 0
    if target >= dice * sides:
        return sides**dice
    mirror = dice * (sides + 1) - target - 1  # P(sum ≤ t) = 1 − P(sum ≤ mirror)
    if mirror < target:
        return sides**dice - at_most_count(mirror, dice, sides)
    m = target - dice
    total = 0
    for k in range(m // sides + 1):
        term = comb(dice, k) * comb(m - k * sides + dice, dice)
        total += -term if k & 1 else term
    return total


def probability_at_most(target: int, dice: int, sides: int = 6) -> Fraction:
    """Return P(sum of ``dice`` dice ≤ target), exactly ("Stat Checks", "Skill Checks")."""
    return Fraction(at_most_count(target, dice, sides), sides**dice)


def keep_lowest_at_most_count(target: int, rolled: int, kept: int, sides: int = 6) -> int:
    """Count the ordered rolls of ``rolled`` dice whose lowest ``kept`` faces sum ≤ ``target``.

    Two ways to the same count, the one with fewer terms taken. Extra-benefit checks (the only
    keep-lowest rolls) have targets near the top, where counting what fails is shortest.
    """
    if target < kept:
        return 0
    if target >= kept * sides:
        return sides**rolled
    # What fails: the lowest faces sum past the target, i.e. measured as each face's distance
    # from the top (sides − face), the ``kept`` largest distances sum to at most this.
    short = sides * kept - target - 1
    if short <= target - kept:
        return sides**rolled - _largest_at_most_count(short, rolled, kept, sides - 1)
    return _lowest_at_most_count(target, rolled, kept, sides)


def _lowest_at_most_count(target: int, rolled: int, kept: int, sides: int) -> int:
    """Rolls whose lowest ``kept`` faces (1…sides) sum ≤ ``target``, counted directly.

    Sorted, the counted faces end on some face v (the highest that counts). Split the roll by
    it: ``below`` dice show less than v (fewer than ``kept`` of them), at least the rest of the
    counted ones show exactly v, and every other die shows v or more. So the count is

        Σ_v Σ_below  C(rolled, below) · A(below, v − 1, target − (kept − below)·v) · T

    where A is ``at_most_count`` on dice of v − 1 sides (the low dice's own sum), and T counts
    the ways the other rolled − below dice show v or more with at least kept − below of them on
    v: (sides − v + 1)^r less the ways with fewer on v.
    """
    total = 0
    choose = [comb(rolled, below) for below in range(kept)]
    for v in range(1, sides + 1):
        higher, lower = sides - v, v - 1
        for below in range(kept if lower else 1):
            room = target - (kept - below) * v
            if room < below:  # the low dice show at least 1 each
                continue
            if below == 0:
                low = 1
            elif room >= below * lower:  # any faces under v will do
                low = lower**below
            elif below == 1:
                low = room
            else:
                low = at_most_count(room, below, lower)
            rest = rolled - below
            tail = (higher + 1) ** rest
            if higher:
                # Less the ways with fewer than kept − below dice on v: C(rest, b)·higher^(rest − b),
                # each term from the one before.
                term = higher**rest
                for on_v in range(kept - below):
                    tail -= term
                    term = term * (rest - on_v) // ((on_v + 1) * higher)
            total += choose[below] * low * tail
    return total


def _largest_at_most_count(limit: int, rolled: int, kept: int, top: int) -> int:
    """Ordered rolls of values 0…top whose ``kept`` largest sum to at most ``limit``.

    The mirror of ``_lowest_at_most_count``: u is the smallest value that counts; ``above``
    dice (fewer than ``kept``) show more than u, and their excess over u is an
    ``at_most_count``; the other dice show u or less, at least kept − above of them u. As
    kept · u ≤ limit, a small limit leaves only a few u to try.
    """
    total = 0
    for u in range(min(top, limit // kept) + 1):
        slack = limit - kept * u
        for above in range(kept):
            if slack < above:  # each die above u is at least one more
                break
            if above:
                if u == top:
                    break
                high = at_most_count(slack, above, top - u)
            else:
                high = 1
            rest = rolled - above
            if u:
                tail, term = (u + 1) ** rest, u**rest
                for on_u in range(kept - above):
                    tail -= term
                    term = term * (rest - on_u) // ((on_u + 1) * u)
            else:  # every other die shows 0
                tail = 1
            total += comb(rolled, above) * high * tail
    return total


def _probability_keep_lowest(target: int, rolled: int, kept: int) -> Fraction:
    return Fraction(keep_lowest_at_most_count(target, rolled, kept, DIE_SIDES), DIE_SIDES**rolled)


def clear_caches() -> None:
    """Forget every cached distribution and odds ("Stat Checks"; the benchmark's cold runs)."""
    for cached in (sum_counts, _check_odds):
        cached.cache_clear()


# --- Impossible chances: miracle dice and extra benefits ----------------------------------
def miracle_dice(target: int, dice: int = 3) -> tuple[int, int]:
    """Apply the impossible-chances rule: return (dice, target) actually rolled.

    While no roll can succeed (target < number of dice), one more die is added and the
    target rises by 2 ("Additional Rules / Impossible Chances"; RULINGS.md section 1).
    """
    while target < dice:
        dice += 1
        target += 2
    return dice, target


def target_terms(target: int, dice: int) -> list[tuple[str, int]]:
    """The last terms of a check's breakdown: the target and the dice it is rolled on, once. A
    check the impossible-chances rule escalates says so, and ends on the target it is rolled at
    and the dice it is rolled on, never the raw target beside the dice it was not rolled on."""
    rolled, effective = miracle_dice(target, dice)
    if rolled == dice:
        return [(_("target on %(dice)sd6") % {"dice": dice}, target)]
    added = rolled - dice
    return [(_("impossible on %(dice)sd6: miracle rule, %(added)s more dice") % {"dice": dice, "added": added},
             2 * added),
            (_("target on %(dice)sd6") % {"dice": rolled}, effective)]


def extra_benefit_limit(target: int, dice: int = 3) -> int:
    """Return the most extra-benefit dice a roller may add to a check that cannot fail.

    "Additional Rules / Impossible Chances": only a target of at least 6 × dice (18 on 3d6,
    24 on 4d6) allows them, and at most ⌊(target − 6 × dice) / 2⌋ + 1 (RULINGS.md section 1).
    Any other target allows none.
    """
    target = require_int(target, gettext_noop("The target"))
    dice = _dice_count(dice)
    certain = DIE_SIDES * dice
    if target < certain:
        return 0
    return min((target - certain) // 2 + 1, MAX_DICE - dice)


def _extra_dice(target: int, dice: int, extra: object) -> int:
    extra = require_int(extra, gettext_noop("The number of extra-benefit dice"))
    if extra < 0:
        raise RulesError(_("Extra-benefit dice cannot be negative (%(extra)s).") % {"extra": extra})
    limit = extra_benefit_limit(target, dice)
    if extra > limit:
        if limit == 0:
            raise RulesError(cannot_fail_needed(target, dice))
        raise RulesError(at_most_extra(target, dice, limit, extra))
    return extra


def cannot_fail_needed(target: int, dice: int) -> str:
    """The refusal of extra-benefit dice on a check that can fail."""
    return (_("Extra-benefit dice need a check that cannot fail: target %(target)s on %(dice)sd6 needs to be "
              "at least %(least)s.") % {"target": target, "dice": dice, "least": DIE_SIDES * dice})


def at_most_extra(target: int, dice: int, limit: int, extra: int) -> str:
    """The refusal of more extra-benefit dice than the target allows."""
    return (ngettext("Target %(target)s on %(dice)sd6 allows at most %(limit)s extra-benefit die, not %(extra)s.",
                     "Target %(target)s on %(dice)sd6 allows at most %(limit)s extra-benefit dice, not %(extra)s.",
                     limit) % {"target": target, "dice": dice, "limit": limit, "extra": extra})


# --- Odds ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class CheckOdds:
    """The exact chance of a check, with the dice the rules make the roller use."""

    target: int
    base_dice: int
    dice: int
    effective_target: int
    probability: Fraction
    extra: int = 0

    @property
    def kept(self) -> int:
        """How many dice count toward the total (the lowest ones under extra benefits)."""
        return self.dice - self.extra

    @property
    def miracle(self) -> bool:
        """Whether the impossible-chances rule added dice to make success possible."""
        return self.extra == 0 and self.dice > self.base_dice

    @property
    def breakdown(self) -> list[tuple[str, object]]:
        """Return the odds term by term, as (label, value) pairs."""
        lines: list[tuple[str, object]] = [(_("target"), self.target), (_("dice"), self.base_dice)]
        if self.miracle:
            added = self.dice - self.base_dice
            lines += [(_("miracle dice added"), added), (_("miracle target bonus"), 2 * added)]
        if self.extra:
            lines += [(_("extra-benefit dice"), self.extra), (_("extra-benefit target"), -2 * self.extra)]
        lines += [
            (_("effective target"), self.effective_target),
            (_("dice rolled"), self.dice),
            (_("dice counted"), self.kept),
            (_("chance of success"), self.probability),
        ]
        return lines


@lru_cache(maxsize=None)
def _check_odds(target: int, dice: int, extra: int) -> CheckOdds:
    if extra:
        effective = target - 2 * extra
        probability = _probability_keep_lowest(effective, dice + extra, dice)
        return CheckOdds(target, dice, dice + extra, effective, probability, extra)
    rolled, effective = miracle_dice(target, dice)
    if rolled > MAX_DICE:
        raise RulesError(
            _("Target %(target)s on %(dice)sd6 would need %(rolled)s dice under the miracle rule; "
              "no check rolls more than %(max)s. Check the modifiers.")
            % {"target": target, "dice": dice, "rolled": rolled, "max": MAX_DICE}
        )
    return CheckOdds(target, dice, rolled, effective, probability_at_most(effective, rolled))


def check_odds(target: int, dice: int = 3) -> CheckOdds:
    """Return the exact chance of a check succeeding (sum ≤ target), miracle rule applied.

    "Skill Checks" roll 3d6 and "Stat Checks" 4d6 (RULINGS.md section 1). A target below
    the number of dice is a miracle attempt ("Additional Rules / Impossible Chances"): the
    odds are those of the larger roll. Results are cached.

    Args:
        target: the check's target, modifiers included (target side: positive is easier).
        dice: 3 for skill checks and attacks, 4 for stat checks.

    Returns:
        CheckOdds with ``probability`` (a Fraction), ``dice`` rolled and ``effective_target``.

    Raises:
        RulesError: a non-whole target, a dice count outside 1–100, or a target so low the
            miracle rule would need more than 100 dice.
    """
    return _check_odds(require_int(target, gettext_noop("The target")), _dice_count(dice), 0)


def extra_benefit_odds(target: int, dice: int = 3, extra: int = 1) -> CheckOdds:
    """Return the chance of a can't-fail check taken with ``extra`` extra-benefit dice.

    "Additional Rules / Impossible Chances": the roller adds ``extra`` dice, only the lowest
    ``dice`` of them count, and the target drops by 2 per extra die. Raises RulesError when
    the target does not allow that many (see ``extra_benefit_limit``).

    Args:
        target: the check's target before the extra dice lower it.
        dice: how many dice count (3 for skill checks, 4 for stat checks).
        extra: how many extra dice the roller asks for.

    Returns:
        CheckOdds with ``dice`` = dice + extra, ``kept`` = dice and ``effective_target`` =
        target − 2 × extra.
    """
    target = require_int(target, gettext_noop("The target"))
    dice = _dice_count(dice)
    return _check_odds(target, dice, _extra_dice(target, dice, extra))


def odds_curve(dice: int = 3, low: int | None = None, high: int | None = None) -> list[tuple[int, Fraction]]:
    """Return (target, chance of success) for every target from ``low`` to ``high``.

    Backs the odds charts of "Stat Checks" and "Skill Checks". By default the curve runs from
    target 0 (a miracle roll, as in the article's maximum-armour discussion under "Combat")
    to 6 × dice, the first certain target.
    """
    dice = _dice_count(dice)
    low = 0 if low is None else require_int(low, gettext_noop("The lowest target"))
    high = DIE_SIDES * dice if high is None else require_int(high, gettext_noop("The highest target"))
    if low > high:
        raise RulesError(_("The lowest target (%(low)s) must not exceed the highest (%(high)s).")
                         % {"low": low, "high": high})
    if high - low > 1000:
        raise RulesError(_("An odds curve covers at most 1,001 targets; narrow the range."))
    return [(target, check_odds(target, dice).probability) for target in range(low, high + 1)]


# --- Rolling ------------------------------------------------------------------------------
@dataclass(frozen=True)
class CheckRoll:
    """One rolled check: every face, the ones that counted, and the outcome."""

    target: int
    effective_target: int
    dice: int
    faces: tuple[int, ...]
    total: int
    success: bool
    margin: int
    critical: bool
    kept: tuple[int, ...] = ()
    extra: int = 0

    @property
    def breakdown(self) -> list[tuple[str, object]]:
        """Return the roll term by term, as (label, value) pairs."""
        lines: list[tuple[str, object]] = [(_("target"), self.target)]
        if self.extra:
            lines.append((_("extra-benefit target"), -2 * self.extra))
        elif self.effective_target != self.target:
            lines.append((_("miracle target bonus"), self.effective_target - self.target))
        lines += [(_("effective target"), self.effective_target), (_("faces rolled"), self.faces)]
        if self.extra:
            lines.append((_("faces counted (lowest)"), self.kept))
        lines += [(_("total"), self.total), (_("margin"), self.margin)]
        return lines


def roll_check(target: int, dice: int = 3, rng: random.Random | None = None, extra: int = 0) -> CheckRoll:
    """Roll a check: sum ``dice`` d6 and succeed on a total at or below the target.

    "Stat Checks", "Skill Checks", "Additional Rules / Impossible Chances": a target below
    the number of dice rolls miracle dice (one more die and +2 per step, all summed).
    ``extra`` extra-benefit dice (only on a check that cannot fail) are rolled too, but only
    the lowest ``dice`` faces count and the target drops by 2 per extra die.

    Margin is effective target − total. A critical needs every counted die on 1 and a total
    strictly below the effective target (RULINGS.md section 1).

    Args:
        target: the check's target, modifiers included.
        dice: 3 for skill checks and attacks, 4 for stat checks.
        rng: the random generator (or any object with ``randint``); the module's by default.
        extra: extra-benefit dice, 0 unless the check cannot fail.

    Raises:
        RulesError: as for ``check_odds``, or extra dice the target does not allow.
    """
    target = require_int(target, gettext_noop("The target"))
    dice = _dice_count(dice)
    extra = _extra_dice(target, dice, extra)
    odds = _check_odds(target, dice, extra)
    faces = tuple(roll_dice(odds.dice, DIE_SIDES, rng))
    kept = tuple(sorted(faces)[: odds.kept]) if extra else faces
    total = sum(kept)
    effective = odds.effective_target
    return CheckRoll(
        target=target,
        effective_target=effective,
        dice=odds.dice,
        faces=faces,
        total=total,
        success=total <= effective,
        margin=effective - total,
        critical=all(face == 1 for face in kept) and total < effective,
        kept=kept,
        extra=extra,
    )


# --- Dice entered at the table ----------------------------------------------------------------
@dataclass(frozen=True)
class DieRoll:
    """One die as it came up: its size, its face, and whether a person entered it."""

    sides: int
    face: int
    entered: bool


class EnteredDice:
    """A roller that uses the faces a GM rolled at the table, then rolls the rest itself.

    DESIGN.md, "Dice entered at the table": every action that rolls may take real dice. Faces
    are used in the order the rulebook rolls them (each function's docstring names it); when
    they run out, ``fallback`` rolls. Every die is recorded in ``rolls``, so what was entered
    and what the server rolled can both be stored beside the result.

    Raises:
        RulesError: a face that does not fit the die the rules ask for (a 7 on a d6), or
            more faces entered than the action rolls (see ``check_all_used``).
    """

    def __init__(self, faces: list[int] | tuple[int, ...] = (), fallback: random.Random | None = None,
                 *, label: str = gettext_noop("dice")) -> None:
        if isinstance(faces, (str, bytes)) or not hasattr(faces, "__iter__"):
            raise RulesError(_("%(label)s: give the faces as a list of whole numbers.") % {"label": _(label)})
        what = _("%(label)s: a face") % {"label": _(label)}
        self.faces = [require_int(face, what, minimum=1) for face in faces]
        self.label = label
        self.fallback = fallback
        self.rolls: list[DieRoll] = []
        self._used = 0

    def randint(self, low: int, high: int) -> int:
        """Hand out the next entered face for a 1..``high`` die, or roll it."""
        if low != 1:
            raise RulesError(_("Dice run from 1, not from %(low)s.") % {"low": low})
        if self._used < len(self.faces):
            face = self.faces[self._used]
            if face > high:
                raise RulesError(
                    _("%(label)s: face %(number)s is %(face)s, but that die is a d%(sides)s.")
                    % {"label": _(self.label), "number": self._used + 1, "face": face, "sides": high}
                )
            self._used += 1
            self.rolls.append(DieRoll(high, face, True))
            return face
        face = _rng(self.fallback).randint(1, high)
        self.rolls.append(DieRoll(high, face, False))
        return face

    @property
    def unused(self) -> int:
        """Entered faces the action has not asked for (yet)."""
        return len(self.faces) - self._used

    def check_all_used(self) -> None:
        """Refuse faces the action never rolled: a typo is likelier than intent."""
        if self.unused:
            raise RulesError(
                _("%(label)s: %(entered)s faces entered, but only %(used)s dice were rolled.")
                % {"label": _(self.label), "entered": len(self.faces), "used": self._used}
            )

    def record(self) -> list[dict[str, int | bool]]:
        """Return every die as ``{"sides", "face", "entered"}``, in roll order, for storage."""
        return [{"sides": r.sides, "face": r.face, "entered": r.entered} for r in self.rolls]


class DiceSlots:
    """Named slots of entered dice for one action (``{"attack": [6, 3, 1], "shock": [4]}``).

    DESIGN.md: every slot is optional; whatever a slot lacks is rolled by ``fallback``. A slot
    name the action does not have is refused, so a typo never goes unnoticed.
    """

    def __init__(self, entered: dict | None, names: tuple[str, ...], fallback: random.Random | None = None) -> None:
        entered = dict(entered or {})
        unknown = sorted(set(entered) - set(names))
        if unknown:
            raise RulesError(_("Unknown dice slot %(slot)s: use %(slots)s.")
                             % {"slot": repr(unknown[0]), "slots": ", ".join(names)})
        self.slots = {name: EnteredDice(entered.get(name, ()), fallback, label=_("dice %(slot)s") % {"slot": name})
                      for name in names}

    def __getitem__(self, name: str) -> EnteredDice:
        return self.slots[name]

    def check_all_used(self) -> None:
        for slot in self.slots.values():
            slot.check_all_used()

    def record(self) -> dict[str, list[dict[str, int | bool]]]:
        """Return the dice of every slot that rolled, in roll order, for storage."""
        return {name: slot.record() for name, slot in self.slots.items() if slot.rolls}
