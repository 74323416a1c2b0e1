"""The recovery time engine: the day model and the clocks that heal wounds as time passes.

Article: "Damage & Recovery" (Trauma, Shock, END, Stat damage). RULINGS.md section 7. The
healing state, the one-off recoveries and ``advance``, which drives this engine, are in
rulebook.recovery; the day model and its readings are in docs/rules.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from fractions import Fraction
from types import SimpleNamespace
from typing import TYPE_CHECKING

from rulebook._numbers import ceil_div
from rulebook.damage import WOUNDABLE_STATS
from rulebook.dice import roll_die
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

if TYPE_CHECKING:
    from rulebook.recovery import HealingState

DAY_MINUTES = 24 * 60
NIGHT_MINUTES = 8 * 60
SHOCK_SLEEP_MINUTES = 4 * 60
END_QUICK_MINUTES = 30
#: One END point per 60 units of recovery: resting awake earns 1 unit a minute, sleep 2.
END_POINT_UNITS = 60
#: "Other Medical Treatments": a hyperbaric chamber heals trauma and stat damage up to 3-fold.
HYPERBARIC_FACTOR_MAX = 3
#: The chamber's term in a breakdown (marked for the catalogue: translated where shown).
HYPERBARIC_LABEL = gettext_noop("hyperbaric chamber ×")


@dataclass(frozen=True)
class Healing:
    """One amount healed: when (minutes into the span), what, why, and the rule term by term."""

    at_minutes: int
    kind: str
    stat: str | None
    amount: int
    reason: str
    breakdown: list[tuple[str, int | Fraction]]


def day_segments(
    state: HealingState, rest: str, minutes: int
) -> tuple[list[tuple[str, int]], int]:
    """Split a span into stretches of "sleep", "awake" rest and "active" time ("Damage & Recovery").

    The day model: under "comfortable" or "rough" each day is 8 h of sleep, then 16 h resting
    awake; a span that keeps the same ``rest`` as the state's last one continues that day.
    "awake" is all awake rest and "none" all activity.

    Returns:
        The stretches in order, as (activity, minutes), and the minute of the day it ends on.
    """
    clock = state.stretch_minutes if state.stretch_rest == rest else 0
    out, left = [], minutes
    while left:
        if rest in ("awake", "none"):
            activity, length = ("awake" if rest == "awake" else "active"), left
        elif clock % DAY_MINUTES < NIGHT_MINUTES:
            activity, length = "sleep", min(NIGHT_MINUTES - clock % DAY_MINUTES, left)
        else:
            activity, length = "awake", min(DAY_MINUTES - clock % DAY_MINUTES, left)
        out.append((activity, length))
        clock, left = clock + length, left - length
    return out, clock % DAY_MINUTES


def stats_to_heal(damage: dict[str, int], count: int, choice: tuple[str, ...]) -> list[str]:
    """Return the ``count`` stats to heal: the player's choice, then the largest damage first.

    "Damage & Recovery", Stat damage: the player picks; by default the largest damages go
    first, ties in sheet order.
    """
    chosen = [s for s in dict.fromkeys(choice) if s in damage]
    rest = sorted(
        (s for s in damage if s not in chosen),
        key=lambda s: (-damage[s], WOUNDABLE_STATS.index(s)),
    )
    return (chosen + rest)[:count]


class RecoveryClock:
    """The time engine behind ``rulebook.recovery.advance``: one span of time in progress.

    "Damage & Recovery": it holds a mutable copy of the healing state, moves every recovery
    clock forward stretch by stretch, and fires each healing event when it falls due, in a fixed
    order, writing what healed (``healed``) and what waits (``notes``) as it goes.
    ``factor`` ("Other Medical Treatments", the hyperbaric chamber) multiplies every trauma and
    stat-damage heal that falls due, capped at what is left; shock, END and the radiation track
    keep their pace.
    """

    def __init__(
        self,
        state: HealingState,
        ranks: int,
        choice: tuple[str, ...],
        bonus_points: int | None,
        rng: random.Random | None,
        factor: int = 1,
    ) -> None:
        self.w = SimpleNamespace(**{f.name: getattr(state, f.name) for f in fields(state)})
        self.w.stat_damage = dict(state.stat_damage)
        self.w.end_held = [list(h) for h in state.end_held]
        self.ranks, self.choice, self.bonus_points, self.rng = ranks, choice, bonus_points, rng
        self.factor = factor
        self.now, self.healed, self.notes = 0, [], []

    def _factor_terms(self) -> list[tuple[str, int]]:
        # An ordinary span shows no chamber term, so its breakdown reads as it always has.
        return [(_(HYPERBARIC_LABEL), self.factor)] if self.factor != 1 else []

    def heal(self, kind: str, stat: str | None, amount: int, reason: str, terms: list) -> None:
        """Record an amount healed now (nothing for 0)."""
        if amount:
            self.healed.append(Healing(self.now, kind, stat, amount, reason, terms))

    def waits(self, activity: str) -> list[int]:
        """Minutes until each pending event that this activity moves forward."""
        w, sleep, resting = self.w, activity == "sleep", activity != "active"
        out = [m for _, m in w.end_held]
        if resting:
            if w.shock_phase == "resting":
                out.append(w.shock_rest_needed - w.shock_rest_minutes)
            if w.end_spent and w.end_quick_ready:
                out.append(END_QUICK_MINUTES - w.end_progress)
            elif w.end_spent:
                out.append(ceil_div(END_POINT_UNITS - w.end_progress, 2 if sleep else 1))
            if w.trauma or w.stat_damage:
                out.append(DAY_MINUTES - w.day_rest_minutes)
        if sleep:
            if w.shock_phase in ("resting", "sleeping"):
                out.append(SHOCK_SLEEP_MINUTES - w.shock_sleep_minutes)
            if w.stat_phase == "night":
                out.append(NIGHT_MINUTES - w.stat_sleep_minutes)
        return out

    def tick(self, minutes: int, activity: str, rest: str) -> None:
        """Let ``minutes`` of one activity pass on every clock it moves."""
        w, sleep, resting = self.w, activity == "sleep", activity != "active"
        self.now += minutes
        for held in w.end_held:
            held[1] -= minutes
        if resting:
            w.shock_rest_minutes += minutes if w.shock_phase == "resting" else 0
            if w.end_spent:
                w.end_progress += minutes * (2 if sleep and not w.end_quick_ready else 1)
            w.day_rest_minutes += minutes if (w.trauma or w.stat_damage) else 0
        if sleep:
            w.shock_sleep_minutes += minutes if w.shock_phase in ("resting", "sleeping") else 0
            if w.stat_phase == "night":
                w.stat_sleep_minutes += minutes
                w.stat_night_rough = w.stat_night_rough or rest == "rough"

    def fire(self) -> None:
        """Apply every event that is due now, in a fixed order, until none is."""
        while any((self._held_end(), self._shock_events(), self._end_events(), self._day_events())):
            self._settle()
        self._settle()

    def _held_end(self) -> bool:
        w, fired = self.w, False
        for held in [h for h in w.end_held if h[1] <= 0]:
            w.end_held.remove(held)
            w.end_spent += held[0]
            w.end_quick_ready, w.end_progress, fired = True, 0, True
            self.notes.append(
                (self.now, _("%(points)s END held back by a therapy starts to recover.") % {"points": held[0]})
            )
        return fired

    def _shock_events(self) -> bool:
        # The second third after (40 − CON) minutes of rest, the rest after 4 hours of sleep.
        w = self.w
        if w.shock_phase == "resting" and w.shock_rest_minutes >= w.shock_rest_needed:
            third = ceil_div(w.shock_at_combat_end, 3)
            amount = min(third, w.shock)
            terms = [
                (_("shock at the end of combat"), w.shock_at_combat_end),
                (_("one third, rounded up"), third),
                (_("minutes of rest needed (40 − CON, min 0)"), w.shock_rest_needed),
                (_("healed (at most the shock left)"), amount),
            ]
            self.heal("shock", None, amount, _("(40 − CON) minutes of rest: another third"), terms)
            w.shock -= amount
            w.shock_phase = "sleeping" if w.shock else "none"
            return True
        if w.shock_phase == "sleeping" and w.shock_sleep_minutes >= SHOCK_SLEEP_MINUTES:
            terms = [(_("shock left"), w.shock), (_("hours of sleep"), SHOCK_SLEEP_MINUTES // 60)]
            self.heal("shock", None, w.shock, _("4 hours of sleep: the rest of the shock"), terms)
            w.shock, w.shock_phase = 0, "none"
            return True
        return False

    def _end_events(self) -> bool:
        # The quick d6 after 30 minutes of rest, then 1 per hour awake or half hour asleep.
        w = self.w
        if w.end_spent and w.end_quick_ready and w.end_progress >= END_QUICK_MINUTES:
            roll = roll_die(6, self.rng)
            amount = min(roll, w.end_spent)
            terms = [("d6", roll), (_("END spent before"), w.end_spent), (_("healed"), amount)]
            self.heal("END", None, amount, _("30 minutes of rest: d6 END"), terms)
            w.end_spent -= amount
            w.end_quick_ready, w.end_progress = False, 0
            return True
        if w.end_spent and not w.end_quick_ready and w.end_progress >= END_POINT_UNITS:
            reason = _("an hour of rest or 30 minutes of sleep: 1 END")
            self.heal("END", None, 1, reason, [("END", 1)])
            w.end_spent -= 1
            w.end_progress -= END_POINT_UNITS
            return True
        return False

    def _day_events(self) -> bool:
        w = self.w
        if w.stat_phase == "night" and w.stat_sleep_minutes >= NIGHT_MINUTES:
            self._night_heal()
            return True
        if (w.trauma or w.stat_damage) and w.day_rest_minutes >= DAY_MINUTES:
            trauma_at_start = w.trauma
            self._trauma_day()
            self._stat_day(trauma_at_start)
            w.day_rest_minutes = 0
            return True
        return False

    def _settle(self) -> None:
        """Reset the clocks of whatever has fully healed."""
        w = self.w
        if not w.trauma:
            w.trauma_inflicted = w.days_rested = 0
        if not w.shock:
            w.shock_phase, w.shock_rest_minutes, w.shock_sleep_minutes = "none", 0, 0
        if not w.end_spent:
            w.end_quick_ready, w.end_progress = True, 0
        if not w.stat_damage:
            w.stat_phase, w.stat_sleep_minutes, w.stat_night_rough = "none", 0, False
            w.stat_budget = 0
        if not (w.trauma or w.stat_damage):
            w.day_rest_minutes = 0

    def _trauma_day(self) -> None:
        # A third of the trauma + ranks after the first day of rest, then 1 + (ranks − 1) a day.
        w = self.w
        if not w.trauma:
            return
        if w.days_rested == 0:
            third = ceil_div(w.trauma_inflicted, 3)
            amount = min((third + self.ranks) * self.factor, w.trauma)
            terms = [
                (_("trauma taken since the wound"), w.trauma_inflicted),
                (_("one third, rounded up"), third),
                (_("healing ranks"), self.ranks),
                *self._factor_terms(),
                (_("healed (at most the trauma left)"), amount),
            ]
            reason, w.trauma_inflicted = _("first day of rest: a third of the trauma"), 0
        else:
            extra = max(self.ranks - 1, 0)
            amount = min((1 + extra) * self.factor, w.trauma)
            terms = [
                (_("a further day of rest"), 1),
                (_("healing ranks − 1 (min 0)"), extra),
                *self._factor_terms(),
                (_("healed (at most the trauma left)"), amount),
            ]
            reason = _("a further day of rest")
        self.heal("trauma", None, amount, reason, terms)
        w.trauma, w.days_rested = w.trauma - amount, w.days_rested + 1

    def _night_heal(self) -> None:
        # The first 8 hours of sleep: half (comfortable) or a quarter (rough) of the stats.
        w = self.w
        rough = w.stat_night_rough
        n, divisor = len(w.stat_damage), 4 if rough else 2
        count = max(n // divisor, 1)
        for stat in stats_to_heal(w.stat_damage, count, self.choice):
            share = ceil_div(w.stat_damage[stat], divisor)
            amount = min(share * self.factor, w.stat_damage[stat])
            terms = [
                (_("damaged stats"), n),
                (_("stats healed: 1/%(divisor)s, rounded down (min 1)") % {"divisor": divisor}, count),
                (_("%(stat)s damage") % {"stat": stat}, w.stat_damage[stat]),
                (_("1/%(divisor)s, rounded up") % {"divisor": divisor}, share),
            ]
            if self.factor != 1:
                terms += [*self._factor_terms(), (_("%(stat)s healed (at most the damage)") % {"stat": stat}, amount)]
            self.heal(
                "stat",
                stat,
                amount,
                _("8 hours of rough sleep") if rough else _("8 hours of comfortable sleep"),
                terms,
            )
            w.stat_damage[stat] -= amount
        w.stat_damage = {s: p for s, p in w.stat_damage.items() if p}
        remainder = sum(w.stat_damage.values())
        w.stat_phase, w.stat_budget = "daily", ceil_div(remainder, 2)
        if remainder:
            self.notes.append(
                (
                    self.now,
                    _("Half of the remaining %(remainder)s stat damage, rounded up (%(budget)s), can heal while "
                      "trauma heals; the rest once trauma is gone.")
                    % {"remainder": remainder, "budget": w.stat_budget},
                )
            )

    def _stat_day(self, trauma_at_start: int) -> None:
        # 1 point a day to half the stats: half the remainder while trauma heals, then the rest.
        w = self.w
        if w.stat_phase != "daily" or not w.stat_damage:
            return
        n = len(w.stat_damage)
        base = max(n // 2, 1)
        bonus_points = self.bonus_points
        if bonus_points is None:
            bonus_points = self.ranks - min(self.ranks, n - base)
        count = min(base + self.ranks - bonus_points, n)
        per_stat = (1 + bonus_points) * self.factor
        limited, budget_before = trauma_at_start > 0, w.stat_budget
        for stat in stats_to_heal(w.stat_damage, count, self.choice):
            cap = w.stat_budget if limited else w.stat_damage[stat]
            amount = min(per_stat, w.stat_damage[stat], cap)
            if not amount:
                break
            terms = [
                (_("damaged stats"), n),
                (_("stats healed per day: half, rounded down (min 1)"), base),
                (_("healing ranks on more stats"), self.ranks - bonus_points),
                (_("points per stat"), 1),
                (_("healing ranks on more points"), bonus_points),
                *self._factor_terms(),
            ]
            if limited:
                terms.append((_("still allowed while trauma heals"), w.stat_budget))
                w.stat_budget -= amount
            terms.append((_("%(stat)s healed") % {"stat": stat}, amount))
            self.heal(
                "stat",
                stat,
                amount,
                _("a day of rest while trauma heals") if limited else _("a day of rest"),
                terms,
            )
            w.stat_damage[stat] -= amount
        w.stat_damage = {s: p for s, p in w.stat_damage.items() if p}
        if limited and w.stat_damage and budget_before and not w.stat_budget:
            self.notes.append(
                (self.now, _("The rest of the stat damage heals only once trauma is gone."))
            )

    def finish(self, rest: str, stretch: int) -> dict[str, object]:
        """Return the fields of the healing state at the end of the span, ready to freeze."""
        w = self.w
        w.end_held = tuple(tuple(h) for h in w.end_held)
        w.stretch_rest, w.stretch_minutes = rest, stretch
        return vars(w)
