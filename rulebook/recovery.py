"""Recovery: trauma, shock, END and stat damage healing over time, and the radiation track.

Article: "Damage & Recovery" (Trauma, Shock, END, Stat damage), "Radiation Damage".
RULINGS.md section 7. END costs of activity and attacks are in rulebook.damage. The day model
and the readings are in docs/rules/recovery-radiation-languages.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from numbers import Real
from types import SimpleNamespace

from rulebook import RulesError
from rulebook.dice import roll_die
from rulebook.radiation import (
    RadiationTrack,
    TherapyOutcome,
    TransitionOutcome,
    advance_track,
    expose,
)
from rulebook.stats import PRIMARY_STATS
from rulebook.tables import as_fraction

#: "comfortable"/"rough": days of 8 h sleep (of that kind) then 16 h resting awake;
#: "awake": resting without sleep; "none": no rest at all (travel, work, adventure).
REST_KINDS: tuple[str, ...] = ("comfortable", "rough", "awake", "none")
DAY_MINUTES = 24 * 60
NIGHT_MINUTES = 8 * 60
SHOCK_SLEEP_MINUTES = 4 * 60
SHOCK_REST_BASE = 40  # the second third of shock needs (40 − CON) minutes of rest
END_QUICK_MINUTES = 30
#: One END point per 60 units of recovery: resting awake earns 1 unit a minute, sleep 2.
END_POINT_UNITS = 60
_SHOCK_PHASES = ("none", "combat", "resting", "sleeping")
#: Stats a wound can lower: the rolled stats and END (chest and abdomen hits), in sheet order.
_WOUNDABLE_STATS = PRIMARY_STATS + ("END",)
_STAT_PHASES = ("none", "night", "daily")


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _whole(value: int, name: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise RulesError(f"{name} must be a whole number of at least {minimum}, not {value!r}.")
    return value


def _clean_stats(damage: dict[str, int] | None, what: str) -> dict[str, int]:
    clean = {}
    for stat, points in dict(damage or {}).items():
        if stat not in _WOUNDABLE_STATS:
            raise RulesError(
                f"Unknown stat {stat!r} in {what}; use one of {', '.join(_WOUNDABLE_STATS)}."
            )
        if _whole(points, f"{what} to {stat}"):
            clean[stat] = points
    return clean


@dataclass(frozen=True)
class WoundState:
    """Everything the recovery rules remember about one character's damage between calls.

    Counters named ``*_minutes`` are progress toward the next recovery event. ``trauma_inflicted``
    is the trauma taken since the last first-day heal; ``end_held`` lists END lost to a therapy
    as (points, minutes before they start to recover).
    """

    trauma: int = 0
    trauma_inflicted: int | None = None
    days_rested: int = 0
    day_rest_minutes: int = 0
    shock: int = 0
    shock_phase: str | None = None
    shock_at_combat_end: int = 0
    shock_rest_needed: int | None = None
    shock_rest_minutes: int = 0
    shock_sleep_minutes: int = 0
    end_spent: int = 0
    end_quick_ready: bool = True
    end_progress: int = 0
    end_held: tuple[tuple[int, int], ...] = ()
    stat_damage: dict[str, int] = field(default_factory=dict)
    stat_phase: str | None = None
    stat_sleep_minutes: int = 0
    stat_night_rough: bool = False
    stat_budget: int = 0
    stretch_rest: str | None = None
    stretch_minutes: int = 0
    radiation: RadiationTrack = field(default_factory=RadiationTrack)

    def __post_init__(self) -> None:
        for spec in fields(self):
            if spec.type == "int":
                _whole(getattr(self, spec.name), spec.name)
        set_ = object.__setattr__
        set_(self, "stat_damage", _clean_stats(self.stat_damage, "stat damage"))
        set_(
            self,
            "end_held",
            tuple(
                (_whole(p, "held END"), _whole(m, "held END minutes"))
                for p, m in self.end_held
                if p
            ),
        )
        if self.trauma_inflicted is None:
            set_(self, "trauma_inflicted", self.trauma if self.days_rested == 0 else 0)
        _whole(self.trauma_inflicted, "trauma_inflicted")
        if self.shock_phase in (None, "none") or not self.shock:
            set_(self, "shock_phase", "combat" if self.shock else "none")
        if self.stat_phase in (None, "none") or not self.stat_damage:
            set_(self, "stat_phase", "night" if self.stat_damage else "none")
        if self.shock_phase not in _SHOCK_PHASES or self.stat_phase not in _STAT_PHASES:
            raise RulesError(f"Unknown recovery phase {self.shock_phase!r}/{self.stat_phase!r}.")

    @property
    def end_lost(self) -> int:
        """END below the maximum, counting END still held back by a therapy."""
        return self.end_spent + sum(points for points, _ in self.end_held)


@dataclass(frozen=True)
class Healing:
    """One amount healed: when (minutes into the span), what, why, and the rule term by term."""

    at_minutes: int
    kind: str
    stat: str | None
    amount: int
    reason: str
    breakdown: list[tuple[str, int | Fraction]]


@dataclass(frozen=True)
class RecoveryReport:
    """What a span of time healed, in time order, with notes on what is still waiting."""

    what: str
    minutes: int
    timeline: list[tuple[str, int]]
    healed: list[Healing]
    notes: list[tuple[int, str]]

    def total(self, kind: str, stat: str | None = None) -> int:
        """Return the points of ``kind`` ("trauma", "shock", "END", "stat", "radiation") healed."""
        return sum(
            h.amount for h in self.healed if h.kind == kind and (stat is None or h.stat == stat)
        )


def best_healing_ranks(*, medic_skill_ranks: int = 0, equipment_ranks: int = 0) -> int:
    """Return the healing ranks: the better of medic and equipment ("Damage & Recovery", Trauma)."""
    return max(
        _whole(medic_skill_ranks, "medic_skill_ranks"), _whole(equipment_ranks, "equipment_ranks")
    )


def take_damage(
    state: WoundState, *, trauma: int = 0, shock: int = 0, stat_damage: dict[str, int] | None = None
) -> WoundState:
    """Record new damage ("Damage & Recovery"): fresh wounds restart their recovery clocks.

    New trauma gets its own first-day heal; new shock waits for a new end-of-combat third; new
    stat damage makes the next 8 h of sleep heal all stat damage again.
    """
    _whole(trauma, "trauma")
    _whole(shock, "shock")
    new, changes = _clean_stats(stat_damage, "stat damage"), {}
    if trauma:
        changes.update(
            trauma=state.trauma + trauma,
            trauma_inflicted=state.trauma_inflicted + trauma,
            days_rested=0,
            day_rest_minutes=0,
        )
    if shock:
        changes.update(
            shock=state.shock + shock,
            shock_phase="combat",
            shock_at_combat_end=0,
            shock_rest_needed=None,
            shock_rest_minutes=0,
            shock_sleep_minutes=0,
        )
    if new:
        merged = dict(state.stat_damage)
        for stat, points in new.items():
            merged[stat] = merged.get(stat, 0) + points
        changes.update(
            stat_damage=merged,
            stat_phase="night",
            stat_sleep_minutes=0,
            stat_night_rough=False,
            stat_budget=0,
        )
    return replace(state, **changes)


def spend_end(state: WoundState, amount: int) -> WoundState:
    """Record END spent ("Endurance"); the next 30 minutes of rest earn the quick d6 again."""
    _whole(amount, "END spent")
    if not amount:
        return state
    return replace(state, end_spent=state.end_spent + amount, end_quick_ready=True, end_progress=0)


def _report(
    what: str, healed: list[Healing], notes: list[tuple[int, str]] | None = None
) -> RecoveryReport:
    return RecoveryReport(what, 0, [], healed, notes or [])


def shock_after_combat(state: WoundState) -> tuple[WoundState, RecoveryReport]:
    """Heal the end-of-combat third of shock, rounded up ("Damage & Recovery", Shock)."""
    if state.shock_phase != "combat":
        return state, _report(
            "end of combat", [], [(0, "No shock is waiting for the end of combat.")]
        )
    amount = _ceil_div(state.shock, 3)
    entry = Healing(
        0,
        "shock",
        None,
        amount,
        "end of combat: a third of the shock",
        [("shock at the end of combat", state.shock), ("one third, rounded up", amount)],
    )
    new = replace(
        state,
        shock=state.shock - amount,
        shock_phase="resting",
        shock_at_combat_end=state.shock,
        shock_rest_needed=None,
        shock_rest_minutes=0,
        shock_sleep_minutes=0,
    )
    return new, _report("end of combat", [entry])


def shock_after_skipped_action(state: WoundState) -> tuple[WoundState, RecoveryReport]:
    """Heal ⌈current shock / 3⌉ for one skipped combat action ("Damage & Recovery", Shock)."""
    amount = _ceil_div(state.shock, 3)
    entry = Healing(
        0,
        "shock",
        None,
        amount,
        "skipped action: a third of the shock",
        [("shock before the skipped action", state.shock), ("one third, rounded up", amount)],
    )
    return replace(state, shock=state.shock - amount), _report(
        "skipped action", [entry] if amount else []
    )


def end_after_skipped_rounds(
    state: WoundState, *, rng: random.Random | None = None
) -> tuple[WoundState, RecoveryReport]:
    """Recover the quick d6 END for two skipped combat rounds ("Damage & Recovery", END)."""
    if not (state.end_spent and state.end_quick_ready):
        return state, _report(
            "two skipped rounds", [], [(0, "The quick d6 END has already been taken.")]
        )
    roll = roll_die(6, rng)
    amount = min(roll, state.end_spent)
    entry = Healing(
        0,
        "END",
        None,
        amount,
        "two skipped rounds: d6 END",
        [("d6", roll), ("END spent before", state.end_spent), ("healed", amount)],
    )
    return replace(
        state, end_spent=state.end_spent - amount, end_quick_ready=False, end_progress=0
    ), _report("two skipped rounds", [entry])


def suffer_transition(state: WoundState, outcome: TransitionOutcome) -> WoundState:
    """Apply a Zener Transition ("Radiation Damage"): shock, trauma, CON loss on the track."""
    hurt = take_damage(state, trauma=outcome.trauma.amount, shock=outcome.shock.amount)
    return replace(hurt, radiation=expose(state.radiation, outcome))


def undergo_therapy(state: WoundState, outcome: TherapyOutcome) -> WoundState:
    """Apply a therapy ("Anti-Radiation Therapies"): its track, shock, trauma and held END."""
    hurt = take_damage(state, trauma=outcome.trauma, shock=outcome.shock)
    held = state.end_held + (
        ((outcome.end_loss, outcome.end_delay_hours * 60),) if outcome.end_loss else ()
    )
    return replace(hurt, radiation=outcome.track, end_held=held)


# --- Time passing -----------------------------------------------------------------------------


def _segments(state: WoundState, rest: str, minutes: int) -> tuple[list[tuple[str, int]], int]:
    """Split the span into stretches of sleep, awake rest or activity, following the day model."""
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


def _pick(damage: dict[str, int], count: int, choice: tuple[str, ...]) -> list[str]:
    """Return the stats to heal: the player's choice first, then the largest damage first."""
    chosen = [s for s in dict.fromkeys(choice) if s in damage]
    rest = sorted(
        (s for s in damage if s not in chosen),
        key=lambda s: (-damage[s], _WOUNDABLE_STATS.index(s)),
    )
    return (chosen + rest)[:count]


class _Clock:
    """One advance() call in progress: a mutable copy of the state plus the report being written."""

    def __init__(
        self,
        state: WoundState,
        ranks: int,
        choice: tuple[str, ...],
        bonus_points: int | None,
        rng: random.Random | None,
    ) -> None:
        self.w = SimpleNamespace(**{f.name: getattr(state, f.name) for f in fields(state)})
        self.w.stat_damage = dict(state.stat_damage)
        self.w.end_held = [list(h) for h in state.end_held]
        self.ranks, self.choice, self.bonus_points, self.rng = ranks, choice, bonus_points, rng
        self.now, self.healed, self.notes = 0, [], []

    def heal(self, kind: str, stat: str | None, amount: int, reason: str, terms: list) -> None:
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
                out.append(_ceil_div(END_POINT_UNITS - w.end_progress, 2 if sleep else 1))
            if w.trauma or w.stat_damage:
                out.append(DAY_MINUTES - w.day_rest_minutes)
        if sleep:
            if w.shock_phase in ("resting", "sleeping"):
                out.append(SHOCK_SLEEP_MINUTES - w.shock_sleep_minutes)
            if w.stat_phase == "night":
                out.append(NIGHT_MINUTES - w.stat_sleep_minutes)
        return out

    def tick(self, minutes: int, activity: str, rest: str) -> None:
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
        while any((self.held_end(), self.shock_events(), self.end_events(), self.day_events())):
            self.settle()
        self.settle()

    def held_end(self) -> bool:
        w, fired = self.w, False
        for held in [h for h in w.end_held if h[1] <= 0]:
            w.end_held.remove(held)
            w.end_spent += held[0]
            w.end_quick_ready, w.end_progress, fired = True, 0, True
            self.notes.append(
                (self.now, f"{held[0]} END held back by a therapy starts to recover.")
            )
        return fired

    def shock_events(self) -> bool:
        w = self.w
        if w.shock_phase == "resting" and w.shock_rest_minutes >= w.shock_rest_needed:
            third = _ceil_div(w.shock_at_combat_end, 3)
            amount = min(third, w.shock)
            terms = [
                ("shock at the end of combat", w.shock_at_combat_end),
                ("one third, rounded up", third),
                ("minutes of rest needed (40 − CON, min 0)", w.shock_rest_needed),
                ("healed (at most the shock left)", amount),
            ]
            self.heal("shock", None, amount, "(40 − CON) minutes of rest: another third", terms)
            w.shock -= amount
            w.shock_phase = "sleeping" if w.shock else "none"
            return True
        if w.shock_phase == "sleeping" and w.shock_sleep_minutes >= SHOCK_SLEEP_MINUTES:
            terms = [("shock left", w.shock), ("hours of sleep", SHOCK_SLEEP_MINUTES // 60)]
            self.heal("shock", None, w.shock, "4 hours of sleep: the rest of the shock", terms)
            w.shock, w.shock_phase = 0, "none"
            return True
        return False

    def end_events(self) -> bool:
        w = self.w
        if w.end_spent and w.end_quick_ready and w.end_progress >= END_QUICK_MINUTES:
            roll = roll_die(6, self.rng)
            amount = min(roll, w.end_spent)
            terms = [("d6", roll), ("END spent before", w.end_spent), ("healed", amount)]
            self.heal("END", None, amount, "30 minutes of rest: d6 END", terms)
            w.end_spent -= amount
            w.end_quick_ready, w.end_progress = False, 0
            return True
        if w.end_spent and not w.end_quick_ready and w.end_progress >= END_POINT_UNITS:
            reason = "an hour of rest or 30 minutes of sleep: 1 END"
            self.heal("END", None, 1, reason, [("END", 1)])
            w.end_spent -= 1
            w.end_progress -= END_POINT_UNITS
            return True
        return False

    def day_events(self) -> bool:
        w = self.w
        if w.stat_phase == "night" and w.stat_sleep_minutes >= NIGHT_MINUTES:
            self.night_heal()
            return True
        if (w.trauma or w.stat_damage) and w.day_rest_minutes >= DAY_MINUTES:
            trauma_at_start = w.trauma
            self.trauma_day()
            self.stat_day(trauma_at_start)
            w.day_rest_minutes = 0
            return True
        return False

    def settle(self) -> None:
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

    def trauma_day(self) -> None:
        w = self.w
        if not w.trauma:
            return
        if w.days_rested == 0:
            third = _ceil_div(w.trauma_inflicted, 3)
            amount = min(third + self.ranks, w.trauma)
            terms = [
                ("trauma taken since the wound", w.trauma_inflicted),
                ("one third, rounded up", third),
                ("healing ranks", self.ranks),
                ("healed (at most the trauma left)", amount),
            ]
            reason, w.trauma_inflicted = "first day of rest: a third of the trauma", 0
        else:
            extra = max(self.ranks - 1, 0)
            amount = min(1 + extra, w.trauma)
            terms = [
                ("a further day of rest", 1),
                ("healing ranks − 1 (min 0)", extra),
                ("healed (at most the trauma left)", amount),
            ]
            reason = "a further day of rest"
        self.heal("trauma", None, amount, reason, terms)
        w.trauma, w.days_rested = w.trauma - amount, w.days_rested + 1

    def night_heal(self) -> None:
        w = self.w
        rough = w.stat_night_rough
        n, divisor = len(w.stat_damage), 4 if rough else 2
        count = max(n // divisor, 1)
        for stat in _pick(w.stat_damage, count, self.choice):
            amount = _ceil_div(w.stat_damage[stat], divisor)
            self.heal(
                "stat",
                stat,
                amount,
                f"8 hours of {'rough' if rough else 'comfortable'} sleep",
                [
                    ("damaged stats", n),
                    (f"stats healed: 1/{divisor}, rounded down (min 1)", count),
                    (f"{stat} damage", w.stat_damage[stat]),
                    (f"1/{divisor}, rounded up", amount),
                ],
            )
            w.stat_damage[stat] -= amount
        w.stat_damage = {s: p for s, p in w.stat_damage.items() if p}
        remainder = sum(w.stat_damage.values())
        w.stat_phase, w.stat_budget = "daily", _ceil_div(remainder, 2)
        if remainder:
            self.notes.append(
                (
                    self.now,
                    f"Half of the remaining {remainder} stat damage, rounded up "
                    f"({w.stat_budget}), can heal while trauma heals; the rest once "
                    f"trauma is gone.",
                )
            )

    def stat_day(self, trauma_at_start: int) -> None:
        w = self.w
        if w.stat_phase != "daily" or not w.stat_damage:
            return
        n = len(w.stat_damage)
        base = max(n // 2, 1)
        bonus_points = self.bonus_points
        if bonus_points is None:
            bonus_points = self.ranks - min(self.ranks, n - base)
        count, per_stat = min(base + self.ranks - bonus_points, n), 1 + bonus_points
        limited, budget_before = trauma_at_start > 0, w.stat_budget
        for stat in _pick(w.stat_damage, count, self.choice):
            cap = w.stat_budget if limited else w.stat_damage[stat]
            amount = min(per_stat, w.stat_damage[stat], cap)
            if not amount:
                break
            terms = [
                ("damaged stats", n),
                ("stats healed per day: half, rounded down (min 1)", base),
                ("healing ranks on more stats", self.ranks - bonus_points),
                ("points per stat", 1),
                ("healing ranks on more points", bonus_points),
            ]
            if limited:
                terms.append(("still allowed while trauma heals", w.stat_budget))
                w.stat_budget -= amount
            terms.append((f"{stat} healed", amount))
            self.heal(
                "stat",
                stat,
                amount,
                "a day of rest" + (" while trauma heals" if limited else ""),
                terms,
            )
            w.stat_damage[stat] -= amount
        w.stat_damage = {s: p for s, p in w.stat_damage.items() if p}
        if limited and w.stat_damage and budget_before and not w.stat_budget:
            self.notes.append(
                (self.now, "The rest of the stat damage heals only once trauma is gone.")
            )

    def state(self, rest: str, stretch: int) -> WoundState:
        w = self.w
        w.end_held = tuple(tuple(h) for h in w.end_held)
        w.stretch_rest, w.stretch_minutes = rest, stretch
        return WoundState(**vars(w))


def advance(
    state: WoundState,
    *,
    hours: Real | str,
    rest: str,
    healing_ranks: int = 0,
    con: int,
    rng: random.Random | None = None,
    stat_choice: tuple[str, ...] | list[str] = (),
    medical_bonus_points: int | None = None,
) -> tuple[WoundState, RecoveryReport]:
    """Let time pass and heal what the rest allows ("Damage & Recovery", "Radiation Damage").

    Day model: under "comfortable" or "rough" each day of the stretch is 8 h of sleep of that
    kind followed by 16 h of resting awake; consecutive calls with the same ``rest`` continue
    the same day, a change of ``rest`` starts a new one. "awake" is resting without sleep and
    "none" is no rest at all. Sleep counts as rest. A day of rest is 24 h of rest of any kind.
    Shock still waiting for its end-of-combat third gets it first.

    Args:
        state: The character's wounds.
        hours: Time passing, in whole minutes (0.5 = 30 minutes).
        rest: "comfortable", "rough", "awake" or "none".
        healing_ranks: From best_healing_ranks(), for the whole span.
        con: The character's CON before the damage recorded in ``state``.
        rng: Roller for the quick d6 END.
        stat_choice: Stats the player wants healed first; the rest go largest damage first.
        medical_bonus_points: Healing ranks put into points per stat on the daily stat heal; the
            others go to more stats. Default: more stats first, until every damaged stat is covered.
    """
    if rest not in REST_KINDS:
        raise RulesError(f"Unknown kind of rest {rest!r}: use one of {', '.join(REST_KINDS)}.")
    try:
        minutes = as_fraction(hours) * 60
    except (TypeError, ValueError, ZeroDivisionError):
        raise RulesError(f"hours must be a number, not {hours!r}.") from None
    if isinstance(hours, float) and abs(minutes - round(minutes)) < Fraction(1, 10**6):
        minutes = Fraction(round(minutes))  # a float such as 1/60 h stands for a whole minute
    if minutes < 0 or minutes.denominator != 1:
        raise RulesError(
            f"Time must be a whole number of minutes, at least 0, not {hours!r} hours."
        )
    _whole(healing_ranks, "healing_ranks")
    if isinstance(con, bool) or not isinstance(con, int):
        raise RulesError(f"CON must be a whole number, not {con!r}.")
    choice = tuple(_clean_stats({s: 1 for s in stat_choice}, "stat_choice"))
    if (
        medical_bonus_points is not None
        and not 0 <= _whole(medical_bonus_points, "medical_bonus_points") <= healing_ranks
    ):
        raise RulesError(
            f"medical_bonus_points must be between 0 and the healing ranks ({healing_ranks})."
        )

    state, opening = shock_after_combat(state) if state.shock_phase == "combat" else (state, None)
    if state.shock_phase == "resting" and state.shock_rest_needed is None:
        effective_con = con - state.stat_damage.get("CON", 0) - state.radiation.damage.get("CON", 0)
        state = replace(state, shock_rest_needed=max(SHOCK_REST_BASE - effective_con, 0))
    segments, stretch = _segments(state, rest, int(minutes))
    clock = _Clock(state, healing_ranks, choice, medical_bonus_points, rng)
    if opening:
        clock.healed.extend(opening.healed)
    timeline = {"sleep": 0, "awake": 0, "active": 0}
    for activity, length in segments:
        timeline[activity] += length
        restful = length if activity == "sleep" and rest == "comfortable" else 0
        rough = length if activity != "active" and not restful else 0
        track = advance_track(
            clock.w.radiation,
            hours=Fraction(length, 60),
            restful_sleep_hours=Fraction(restful, 60),
            rough_rest_hours=Fraction(rough, 60),
        )
        for step in track.steps:
            for stat, points in step.healed.items():
                clock.healed.append(
                    Healing(
                        clock.now + int(step.at_hours * 60),
                        "radiation",
                        stat,
                        points,
                        "radiation recovery track",
                        step.breakdown,
                    )
                )
        clock.w.radiation = track.track
        left = length
        clock.fire()
        while left:
            step = min([left, *(wait for wait in clock.waits(activity) if wait > 0)])
            clock.tick(step, activity, rest)
            left -= step
            clock.fire()
    healed = sorted(clock.healed, key=lambda h: h.at_minutes)
    report = RecoveryReport(
        what=f"{Fraction(int(minutes), 60)} h, rest: {rest}",
        minutes=int(minutes),
        timeline=[
            ("minutes asleep", timeline["sleep"]),
            ("minutes resting awake", timeline["awake"]),
            ("minutes without rest", timeline["active"]),
        ],
        healed=healed,
        notes=clock.notes,
    )
    return clock.state(rest, stretch), report
