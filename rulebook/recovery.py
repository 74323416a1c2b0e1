"""Recovery: the healing state, one-off recoveries, and time passing for every kind of wound.

Article: "Damage & Recovery" (Trauma, Shock, END, Stat damage), "Radiation Damage", "Other
Medical Treatments" (the hyperbaric chamber). RULINGS.md section 7. The clocks that heal as time
passes are in rulebook.recovery_clock; END costs of activity and attacks are in
rulebook.damage. The day model and the readings are in docs/rules.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from numbers import Real

from rulebook import RulesError
from rulebook._numbers import ceil_div, require_int
from rulebook.damage import WOUNDABLE_STATS
from rulebook.dice import roll_die
from rulebook.radiation import RadiationTrack, TransitionOutcome, advance_track, expose
from rulebook.recovery_clock import (
    HYPERBARIC_FACTOR_MAX,
    Healing,
    RecoveryClock,
    day_segments,
)
from rulebook.tables import as_fraction
from rulebook.therapies import TherapyOutcome
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

#: "comfortable"/"rough": days of 8 h sleep (of that kind) then 16 h resting awake;
#: "awake": resting without sleep; "none": no rest at all (travel, work, adventure).
REST_KINDS: tuple[str, ...] = ("comfortable", "rough", "awake", "none")
#: Each kind of rest as people read it (marked for the catalogue: translated where shown).
REST_NAMES: dict[str, str] = {"comfortable": gettext_noop("comfortable"), "rough": gettext_noop("rough"),
                              "awake": gettext_noop("awake"), "none": gettext_noop("none")}
SHOCK_REST_BASE = 40  # the second third of shock needs (40 − CON) minutes of rest
_SHOCK_PHASES = ("none", "combat", "resting", "sleeping")
_STAT_PHASES = ("none", "night", "daily")


def _clean_stats(damage: dict[str, int] | None, what: str) -> dict[str, int]:
    """Stat damage by stat, 0s left out; ``what`` (marked for the catalogue) names it in a refusal."""
    clean = {}
    for stat, points in dict(damage or {}).items():
        if stat not in WOUNDABLE_STATS:
            raise RulesError(
                _("Unknown stat %(stat)s in %(what)s; use one of %(stats)s.")
                % {"stat": repr(stat), "what": _(what), "stats": ", ".join(WOUNDABLE_STATS)}
            )
        if require_int(points, _("%(what)s to %(stat)s") % {"what": _(what), "stat": stat}, minimum=0):
            clean[stat] = points
    return clean


@dataclass(frozen=True)
class HealingState:
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
                require_int(getattr(self, spec.name), spec.name, minimum=0)
        set_ = object.__setattr__
        set_(self, "stat_damage", _clean_stats(self.stat_damage, gettext_noop("stat damage")))
        set_(
            self,
            "end_held",
            tuple(
                (
                    require_int(p, gettext_noop("held END"), minimum=0),
                    require_int(m, gettext_noop("held END minutes"), minimum=0),
                )
                for p, m in self.end_held
                if p
            ),
        )
        if self.trauma_inflicted is None:
            set_(self, "trauma_inflicted", self.trauma if self.days_rested == 0 else 0)
        require_int(self.trauma_inflicted, "trauma_inflicted", minimum=0)
        if self.shock_phase in (None, "none") or not self.shock:
            set_(self, "shock_phase", "combat" if self.shock else "none")
        if self.stat_phase in (None, "none") or not self.stat_damage:
            set_(self, "stat_phase", "night" if self.stat_damage else "none")
        if self.shock_phase not in _SHOCK_PHASES or self.stat_phase not in _STAT_PHASES:
            raise RulesError(_("Unknown recovery phase %(shock)s/%(stat)s.")
                             % {"shock": repr(self.shock_phase), "stat": repr(self.stat_phase)})

    @property
    def end_lost(self) -> int:
        """END below the maximum, counting END still held back by a therapy."""
        return self.end_spent + sum(points for points, _ in self.end_held)


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
        require_int(medic_skill_ranks, "medic_skill_ranks", minimum=0),
        require_int(equipment_ranks, "equipment_ranks", minimum=0),
    )


def take_damage(
    state: HealingState,
    *,
    trauma: int = 0,
    shock: int = 0,
    stat_damage: dict[str, int] | None = None,
) -> HealingState:
    """Record new damage ("Damage & Recovery"): fresh wounds restart their recovery clocks.

    New trauma gets its own first-day heal; new shock waits for a new end-of-combat third; new
    stat damage makes the next 8 h of sleep heal all stat damage again.
    """
    require_int(trauma, gettext_noop("trauma"), minimum=0)
    require_int(shock, gettext_noop("shock"), minimum=0)
    new, changes = _clean_stats(stat_damage, gettext_noop("stat damage")), {}
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


def spend_end(state: HealingState, amount: int) -> HealingState:
    """Record END spent ("Endurance"); the next 30 minutes of rest earn the quick d6 again."""
    require_int(amount, gettext_noop("END spent"), minimum=0)
    if not amount:
        return state
    return replace(state, end_spent=state.end_spent + amount, end_quick_ready=True, end_progress=0)


def _report(
    what: str, healed: list[Healing], notes: list[tuple[int, str]] | None = None
) -> RecoveryReport:
    return RecoveryReport(what, 0, [], healed, notes or [])


def _shock_third(shock: int, reason: str, label: str) -> Healing:
    amount = ceil_div(shock, 3)
    terms: list[tuple[str, int | Fraction]] = [(label, shock), (_("one third, rounded up"), amount)]
    return Healing(0, "shock", None, amount, reason, terms)


def shock_after_combat(state: HealingState) -> tuple[HealingState, RecoveryReport]:
    """Heal the end-of-combat third of shock, rounded up ("Damage & Recovery", Shock)."""
    if state.shock_phase != "combat":
        return state, _report(
            _("end of combat"), [], [(0, _("No shock is waiting for the end of combat."))]
        )
    entry = _shock_third(state.shock, _("end of combat: a third of the shock"), _("shock at the end of combat"))
    new = replace(
        state,
        shock=state.shock - entry.amount,
        shock_phase="resting",
        shock_at_combat_end=state.shock,
        shock_rest_needed=None,
        shock_rest_minutes=0,
        shock_sleep_minutes=0,
    )
    return new, _report(_("end of combat"), [entry])


def shock_after_skipped_action(state: HealingState) -> tuple[HealingState, RecoveryReport]:
    """Heal ⌈current shock / 3⌉ for one skipped combat action ("Damage & Recovery", Shock)."""
    entry = _shock_third(state.shock, _("skipped action: a third of the shock"), _("shock before the skipped action"))
    return replace(state, shock=state.shock - entry.amount), _report(
        _("skipped action"), [entry] if entry.amount else []
    )


def end_after_skipped_rounds(
    state: HealingState, *, rng: random.Random | None = None
) -> tuple[HealingState, RecoveryReport]:
    """Recover the quick d6 END for two skipped combat rounds ("Damage & Recovery", END)."""
    if not (state.end_spent and state.end_quick_ready):
        return state, _report(
            _("two skipped rounds"), [], [(0, _("The quick d6 END has already been taken."))]
        )
    roll = roll_die(6, rng)
    amount = min(roll, state.end_spent)
    entry = Healing(
        0,
        "END",
        None,
        amount,
        _("two skipped rounds: d6 END"),
        [("d6", roll), (_("END spent before"), state.end_spent), (_("healed"), amount)],
    )
    return replace(
        state, end_spent=state.end_spent - amount, end_quick_ready=False, end_progress=0
    ), _report(_("two skipped rounds"), [entry])


def suffer_transition(state: HealingState, outcome: TransitionOutcome) -> HealingState:
    """Apply a Zener Transition ("Radiation Damage"): shock, trauma, CON loss on the track."""
    hurt = take_damage(state, trauma=outcome.trauma.amount, shock=outcome.shock.amount)
    return replace(hurt, radiation=expose(state.radiation, outcome))


def undergo_therapy(state: HealingState, outcome: TherapyOutcome) -> HealingState:
    """Apply a therapy ("Anti-Radiation Therapies"): its track, shock, trauma and held END."""
    hurt = take_damage(state, trauma=outcome.trauma, shock=outcome.shock)
    held = state.end_held + (
        ((outcome.end_loss, outcome.end_delay_hours * 60),) if outcome.end_loss else ()
    )
    return replace(hurt, radiation=outcome.track, end_held=held)


# --- Time passing -----------------------------------------------------------------------------
def advance(
    state: HealingState,
    *,
    hours: Real | str,
    rest: str,
    healing_ranks: int = 0,
    con: int,
    rng: random.Random | None = None,
    stat_choice: tuple[str, ...] | list[str] = (),
    medical_bonus_points: int | None = None,
    recovery_factor: int = 1,
) -> tuple[HealingState, RecoveryReport]:
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
        recovery_factor: "Other Medical Treatments": 3 for a span spent in a hyperbaric chamber
            (1 to 3). Every trauma heal and every stat-damage heal (the night's and the daily
            one) that falls due in the span is multiplied by it, never beyond what is left; the
            daily stat heal while trauma heals is still capped by the half-remainder allowance.
            Shock, END and the radiation track are not affected.
    """
    if rest not in REST_KINDS:
        raise RulesError(_("Unknown kind of rest %(rest)s: use one of %(kinds)s.")
                         % {"rest": repr(rest), "kinds": ", ".join(REST_KINDS)})
    try:
        minutes = as_fraction(hours) * 60
    except (TypeError, ValueError, ZeroDivisionError):
        raise RulesError(_("hours must be a number, not %(hours)s.") % {"hours": repr(hours)}) from None
    if isinstance(hours, float) and abs(minutes - round(minutes)) < Fraction(1, 10**6):
        minutes = Fraction(round(minutes))  # a float such as 1/60 h stands for a whole minute
    if minutes < 0 or minutes.denominator != 1:
        raise RulesError(
            _("Time must be a whole number of minutes, at least 0, not %(hours)s hours.") % {"hours": repr(hours)}
        )
    require_int(healing_ranks, "healing_ranks", minimum=0)
    require_int(con, "CON")
    require_int(
        recovery_factor,
        gettext_noop("recovery_factor (3 in a hyperbaric chamber, 1 otherwise)"),
        minimum=1,
        maximum=HYPERBARIC_FACTOR_MAX,
    )
    choice = tuple(_clean_stats({s: 1 for s in stat_choice}, "stat_choice"))
    if (
        medical_bonus_points is not None
        and require_int(medical_bonus_points, "medical_bonus_points", minimum=0) > healing_ranks
    ):
        raise RulesError(
            _("medical_bonus_points must be between 0 and the healing ranks (%(ranks)s).") % {"ranks": healing_ranks}
        )

    state, opening = shock_after_combat(state) if state.shock_phase == "combat" else (state, None)
    if state.shock_phase == "resting" and state.shock_rest_needed is None:
        effective_con = con - state.stat_damage.get("CON", 0) - state.radiation.damage.get("CON", 0)
        state = replace(state, shock_rest_needed=max(SHOCK_REST_BASE - effective_con, 0))
    segments, stretch = day_segments(state, rest, int(minutes))
    clock = RecoveryClock(
        state, healing_ranks, choice, medical_bonus_points, rng, factor=recovery_factor
    )
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
                        _("radiation recovery track"),
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
        what=_("%(hours)s h, rest: %(rest)s") % {"hours": Fraction(int(minutes), 60), "rest": _(REST_NAMES[rest])},
        minutes=int(minutes),
        timeline=[
            (_("minutes asleep"), timeline["sleep"]),
            (_("minutes resting awake"), timeline["awake"]),
            (_("minutes without rest"), timeline["active"]),
        ],
        healed=healed,
        notes=clock.notes,
    )
    return HealingState(**clock.finish(rest, stretch)), report
