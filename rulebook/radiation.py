"""Radiation: Zener Transition damage and the long-term recovery track.

Article: "Radiation Damage". RULINGS.md sections 1 and 7. Anti-radiation therapies, which
work on the track kept here, are in rulebook.therapies.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from fractions import Fraction
from numbers import Real

from rulebook import RulesError
from rulebook._numbers import ceil_div, require_int
from rulebook.dice import CheckRoll, roll_check, roll_dice, roll_die, target_terms
from rulebook.stats import PRIMARY_STATS, STAT_CHECK_DICE
from rulebook.tables import as_fraction
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

#: The GM's transition categories: 1 tranquil, 2 normal, 3A long-term heavy, 3B short-term heavy.
CATEGORIES: tuple[str, ...] = ("1", "2", "3A", "3B")
#: The article's "CON roll at +15", stored target-side (RULINGS section 1).
TRANSITION_SAVE_MODIFIER = -15
#: How the save's breakdown names it: the article's words, and what they do to the target
#: (marked for the catalogue: translated where shown).
TRANSITION_SAVE_LABEL = gettext_noop("Zener Transition: +15 on the roll, −15 on the target")
#: The damage lines of a transition, by ``DamageLine.label`` (kept in English: the label is a key;
#: marked for the catalogue, translated where shown).
CON_DAMAGE_LABEL, SHOCK_LABEL, TRAUMA_LABEL = (gettext_noop("long-term CON damage"), gettext_noop("shock"),
                                              gettext_noop("trauma"))
#: Points healed by the first four steps of the recovery track; every later step heals 1.
TRACK_FIRST_STEPS: tuple[int, ...] = (6, 4, 2, 1)
#: Rest a step's period must include: this much restful sleep, or this much rest of any kind.
RESTFUL_SLEEP_HOURS = 6
ROUGH_REST_HOURS = 9


def _hours(value: Real | str, name: str) -> Fraction:
    try:
        hours = as_fraction(value)
    except (TypeError, ValueError, ZeroDivisionError):
        raise RulesError(_("%(name)s must be a number of hours, not %(value)s.")
                         % {"name": name, "value": repr(value)}) from None
    if hours < 0:
        raise RulesError(_("%(name)s cannot be negative (%(value)s).") % {"name": name, "value": repr(value)})
    return hours


@dataclass(frozen=True)
class DamageLine:
    """One rolled amount (a damage line or a therapy effect) with its terms.

    ``label`` names the line in English (a key of the answers that carry it; marked for the
    catalogue and translated where shown); the terms are in the reader's language.
    """

    label: str
    amount: int
    breakdown: list[tuple[str, int]]


@dataclass(frozen=True)
class TransitionOutcome:
    """One transition: the CON save, the repeat-transition extra and the three damage lines."""

    category: str
    transition_number: int
    save: CheckRoll
    save_breakdown: list[tuple[str, int]]
    saved: bool
    repeat_extra: int
    extra_breakdown: list[tuple[str, int]]
    con_damage: DamageLine
    shock: DamageLine
    trauma: DamageLine


def normalise_category(category: str | int) -> str:
    """Return the canonical category "1", "2", "3A" or "3B" ("Radiation Damage", categories)."""
    name = str(category).strip().upper()
    if name not in CATEGORIES:
        raise RulesError(_("Unknown transition category %(category)s: use 1, 2, 3A or 3B.")
                         % {"category": repr(category)})
    return name


def repeat_extra(
    transition_number: int, extra_reduction: int = 0
) -> tuple[int, list[tuple[str, int]]]:
    """Return the repeat-transition extra and its terms ("Radiation Damage", repeat transitions).

    Each transition after the first adds 1 per earlier transition to every damage line; what
    therapies have removed comes off, never below zero.
    """
    require_int(transition_number, "transition_number", minimum=1)
    require_int(extra_reduction, "extra_reduction", minimum=0)
    extra = max(transition_number - 1 - extra_reduction, 0)
    return extra, [
        (_("earlier transitions"), transition_number - 1),
        (_("removed by therapies"), -extra_reduction),
        (_("extra on every damage line (min 0)"), extra),
    ]


def _line(label: str, base_terms: list[tuple[str, int]], base: int, extra: int) -> DamageLine:
    terms = [*base_terms, (_("repeat-transition extra"), extra), (_(label), base + extra)]
    return DamageLine(label, base + extra, terms)


def transition(
    *,
    con: int,
    category: str | int,
    transition_number: int,
    extra_reduction: int = 0,
    rng: random.Random | None = None,
) -> TransitionOutcome:
    """Resolve one Zener Transition for one character ("Radiation Damage").

    The character makes a CON stat check on 4d6 at target modifier −15. A success costs 1
    long-term CON and d3 shock and trauma; a failure costs what the GM's category says. The
    repeat-transition extra is added to every line, on a success as well as on a failure.
    Shock and trauma always take the same amount: one roll serves both.

    Args:
        con: The character's current CON.
        category: "1", "2", "3A" or "3B", as the GM rules for this transition.
        transition_number: 1 for the character's first transition, 4 for the fourth, …
        extra_reduction: Repeat-transition extra removed so far by therapies.
        rng: The roller; dice are rolled save first, then damage.
    """
    category = normalise_category(category)
    require_int(con, "CON")
    extra, extra_terms = repeat_extra(transition_number, extra_reduction)
    target = con + TRANSITION_SAVE_MODIFIER
    save = roll_check(target, dice=STAT_CHECK_DICE, rng=rng)
    save_terms = [
        ("CON", con),
        (_(TRANSITION_SAVE_LABEL), TRANSITION_SAVE_MODIFIER),
        *target_terms(target, STAT_CHECK_DICE),
    ]
    if save.success:
        d3 = roll_die(3, rng)
        con_base, con_terms = 1, [(_("saved: long-term CON"), 1)]
        body, body_terms = d3, [(_("saved: d3"), d3)]
    elif category == "1":
        d6 = roll_die(6, rng)
        con_base, con_terms = ceil_div(d6, 2), [("d6", d6), (_("half, rounded up"), ceil_div(d6, 2))]
        body, body_terms = d6, [("d6", d6)]
    elif category == "2":
        d6 = roll_die(6, rng)
        con_base, con_terms = d6, [("d6", d6)]
        body, body_terms = d6 + 6, [("d6", d6), (_("category %(category)s") % {"category": "2"}, 6)]
    elif category == "3A":
        faces = roll_dice(2, 6, rng)
        total = sum(faces)
        con_base, con_terms = total, [("2d6", total)]
        body, body_terms = ceil_div(total, 2), [
            ("2d6", total),
            (_("half, rounded up"), ceil_div(total, 2)),
        ]
    else:
        d6 = roll_die(6, rng)
        total = sum(roll_dice(2, 6, rng))
        con_base, con_terms = d6, [("d6", d6)]
        body, body_terms = total + 3, [("2d6", total), (_("category %(category)s") % {"category": "3B"}, 3)]
    return TransitionOutcome(
        category=category,
        transition_number=transition_number,
        save=save,
        save_breakdown=save_terms,
        saved=save.success,
        repeat_extra=extra,
        extra_breakdown=extra_terms,
        con_damage=_line(CON_DAMAGE_LABEL, con_terms, con_base, extra),
        shock=_line(SHOCK_LABEL, body_terms, body, extra),
        trauma=_line(TRAUMA_LABEL, body_terms, body, extra),
    )


# --- The recovery track ---------------------------------------------------------------------


@dataclass(frozen=True)
class TrackStep:
    """One step of the recovery track: its period and the points it heals."""

    step: int
    period_hours: int
    points: int


def track_step(step: int) -> TrackStep:
    """Return one step of the long-term recovery track ("Radiation Damage", recovery).

    Steps 0–3 each take a day and heal 6, 4, 2, 1. From step 4 on each heals 1 point and
    takes one day more than the step before: 2 days, 3 days, 4 days, …
    """
    require_int(step, gettext_noop("step"), minimum=0)
    if step < len(TRACK_FIRST_STEPS):
        return TrackStep(step, 24, TRACK_FIRST_STEPS[step])
    return TrackStep(step, 24 * (step - 2), 1)


@dataclass(frozen=True)
class RadiationTrack:
    """Long-term radiation losses and where the character stands on the recovery track.

    ``damage`` holds long-term loss by stat: CON, unless the GM moved some to another stat.
    The ``step_*`` fields count what has passed since the current step's period began.
    """

    damage: dict[str, int] = field(default_factory=dict)
    step: int = 0
    step_hours: Fraction = Fraction(0)
    step_restful_sleep_hours: Fraction = Fraction(0)
    step_rough_rest_hours: Fraction = Fraction(0)
    transitions: int = 0
    extra_reduction: int = 0

    def __post_init__(self) -> None:
        clean = {}
        for stat, points in dict(self.damage).items():
            if stat not in PRIMARY_STATS:
                raise RulesError(_("Unknown stat %(stat)s in radiation damage.") % {"stat": repr(stat)})
            if require_int(points, _("radiation damage to %(stat)s") % {"stat": stat}, minimum=0):
                clean[stat] = points
        object.__setattr__(self, "damage", clean)
        require_int(self.step, gettext_noop("step"), minimum=0)
        require_int(self.transitions, "transitions", minimum=0)
        require_int(self.extra_reduction, "extra_reduction", minimum=0)

    @property
    def total(self) -> int:
        return sum(self.damage.values())


def heal_long_term_loss(
    damage: dict[str, int], points: int
) -> tuple[dict[str, int], dict[str, int]]:
    """Heal long-term loss a point at a time; return (healed by stat, loss left by stat).

    "Radiation Damage": the largest loss heals first and CON wins a tie, so loss the GM moved
    to another stat heals as CON loss would. Shared by the recovery track and the therapies.
    """
    left, healed = dict(damage), {}
    for _ in range(points):
        if not left:
            break
        stat = max(left, key=lambda s: (left[s], s == "CON", -PRIMARY_STATS.index(s)))
        healed[stat] = healed.get(stat, 0) + 1
        left[stat] -= 1
        if not left[stat]:
            del left[stat]
    return healed, left


def _rested_enough(restful: Fraction, rough: Fraction) -> bool:
    # Restful sleep is rest too, so it counts toward the longer rough-rest requirement.
    return restful >= RESTFUL_SLEEP_HOURS or restful + rough >= ROUGH_REST_HOURS


@dataclass(frozen=True)
class TrackHealing:
    """A step of the track completing, ``at_hours`` into the span."""

    at_hours: Fraction
    step: int
    points: int
    healed: dict[str, int]
    breakdown: list[tuple[str, int | Fraction]]


@dataclass(frozen=True)
class TrackAdvance:
    """The track after some time, what it healed by stat, and each step that completed."""

    track: RadiationTrack
    healed: dict[str, int]
    steps: list[TrackHealing]


def advance_track(
    track: RadiationTrack,
    *,
    hours: Real | str,
    restful_sleep_hours: Real | str = 0,
    rough_rest_hours: Real | str = 0,
) -> TrackAdvance:
    """Let time pass on the long-term recovery track ("Radiation Damage", recovery).

    A step heals when its period is over and the period has included 6 h of restful sleep or
    9 h of rest of any kind; until then it waits. Sleep and rest are taken as spread evenly
    over ``hours``: call once per stretch of one kind of activity for an exact timeline.

    Args:
        track: Where the character stands.
        hours: Time passing.
        restful_sleep_hours: Of that time, hours of comfortable sleep.
        rough_rest_hours: Of that time, hours of other rest (rough sleep, resting awake).
    """
    total = _hours(hours, "hours")
    restful = _hours(restful_sleep_hours, "restful_sleep_hours")
    rough = _hours(rough_rest_hours, "rough_rest_hours")
    if restful + rough > total:
        raise RulesError(_("Sleep and rest cannot add up to more than the hours that pass."))
    restful_rate = restful / total if total else Fraction(0)
    rough_rate = rough / total if total else Fraction(0)
    state, now, events, healed_total = track, Fraction(0), [], {}
    while state.total:
        step = track_step(state.step)
        wait = max(Fraction(step.period_hours) - state.step_hours, Fraction(0))
        slept, rested = state.step_restful_sleep_hours, state.step_rough_rest_hours
        if _rested_enough(slept, rested):
            rest_wait: Fraction | None = Fraction(0)
        else:
            options = []
            if restful_rate:
                options.append((RESTFUL_SLEEP_HOURS - slept) / restful_rate)
            if restful_rate + rough_rate:
                options.append((ROUGH_REST_HOURS - slept - rested) / (restful_rate + rough_rate))
            rest_wait = min(options) if options else None
        if rest_wait is None or now + max(wait, rest_wait) > total:
            break
        now += max(wait, rest_wait)
        healed, remaining = heal_long_term_loss(state.damage, step.points)
        for stat, points in healed.items():
            healed_total[stat] = healed_total.get(stat, 0) + points
        events.append(
            TrackHealing(
                now,
                step.step,
                sum(healed.values()),
                healed,
                [
                    (_("recovery step (1 = the 6-point day)"), step.step + 1),
                    (_("period (hours)"), step.period_hours),
                    (_("points this step heals"), step.points),
                    (_("long-term loss before"), state.total),
                    (_("healed"), sum(healed.values())),
                ],
            )
        )
        state = replace(
            state,
            damage=remaining,
            step=step.step + 1,
            step_hours=Fraction(0),
            step_restful_sleep_hours=Fraction(0),
            step_rough_rest_hours=Fraction(0),
        )
    if state.total:
        left = total - now
        state = replace(
            state,
            step_hours=state.step_hours + left,
            step_restful_sleep_hours=state.step_restful_sleep_hours + restful_rate * left,
            step_rough_rest_hours=state.step_rough_rest_hours + rough_rate * left,
        )
    else:
        state = replace(
            state,
            step_hours=Fraction(0),
            step_restful_sleep_hours=Fraction(0),
            step_rough_rest_hours=Fraction(0),
        )
    return TrackAdvance(state, healed_total, events)


def next_transition_number(track: RadiationTrack) -> int:
    """Return the number of the character's next Zener Transition ("Radiation Damage")."""
    return track.transitions + 1


def expose(track: RadiationTrack, outcome: TransitionOutcome) -> RadiationTrack:
    """Record a transition's CON loss; a new exposure restarts the track ("Radiation Damage")."""
    if outcome.transition_number != next_transition_number(track):
        raise RulesError(
            _("This character's next transition is number %(next)s, but the outcome was rolled as number %(rolled)s.")
            % {"next": next_transition_number(track), "rolled": outcome.transition_number}
        )
    damage = dict(track.damage)
    if outcome.con_damage.amount:
        damage["CON"] = damage.get("CON", 0) + outcome.con_damage.amount
    return RadiationTrack(
        damage=damage, transitions=outcome.transition_number, extra_reduction=track.extra_reduction
    )


def transfer_long_term_loss(track: RadiationTrack, *, points: int, to_stat: str) -> RadiationTrack:
    """Move long-term CON loss to another stat at the GM's word ("Radiation Damage").

    The moved loss stays on the recovery track and heals as if it were still CON loss.
    """
    require_int(points, gettext_noop("points"), minimum=1)
    if to_stat not in PRIMARY_STATS or to_stat == "CON":
        raise RulesError(
            _("Long-term loss can move from CON to another primary stat, not %(stat)s.") % {"stat": repr(to_stat)}
        )
    if points > track.damage.get("CON", 0):
        raise RulesError(
            _("Only %(points)s points of long-term CON loss can move.") % {"points": track.damage.get("CON", 0)}
        )
    damage = dict(track.damage)
    damage["CON"] -= points
    damage[to_stat] = damage.get(to_stat, 0) + points
    return replace(track, damage=damage)
