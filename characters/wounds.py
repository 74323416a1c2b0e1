"""A character's wounds: the recovery state kept on the sheet, changed only by these services.

The rulebook's ``HealingState`` is the whole truth about a character's damage between two
calls (what hurts, and what each recovery clock remembers). It is stored on the character
row: the numbers a page shows in columns of their own (trauma, shock, END spent, stat damage,
long-term CON loss, transitions), the radiation track in ``radiation_track`` and the clocks in
``wounds_detail``, so that ``rulebook.recovery`` resumes exactly where it stopped. Wounds
belong to play, not to the sheet's build: they are logged in the campaign's audit trail and
are not part of the sheet's revertible history.
"""

from __future__ import annotations

import json
import random
from dataclasses import fields, replace
from fractions import Fraction

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaign.changes import change_set
from rulebook import RulesError
from rulebook.damage import ACTIVITY_ENDURANCE, WOUNDABLE_STATS, activity_endurance_cost
from rulebook.damage import dying_causes as rulebook_dying_causes
from rulebook.drugs import DrugEffect, extra_end_per_use
from rulebook.radiation import track_step, transfer_long_term_loss
from rulebook.recovery import HealingState, advance, spend_end, take_damage
from rulebook.stats import PRIMARY_STATS
from rulebook.words import Said, said

from .errors import CharacterConflict, CharacterError
from .events import WoundsChanged
from .models import Character
from .shapes import track_from_json, track_to_json

#: HealingState fields kept in columns of their own; every other field lives in wounds_detail.
_COLUMNS = {"trauma": "trauma", "shock": "shock", "end_spent": "endurance_spent", "stat_damage": "stat_damage"}
_CLOCK_FIELDS = tuple(f.name for f in fields(HealingState) if f.name not in _COLUMNS and f.name != "radiation")
#: Character columns a wound change writes (besides updated_at).
WOUND_COLUMNS = ("trauma", "shock", "endurance_spent", "stat_damage", "long_term_con_damage",
                 "radiation_track", "transitions_taken", "wounds_detail")
#: How far ahead the sheet looks for "what heals next".
_LOOKAHEAD_HOURS = 24 * 14
#: The kinds of activity that cost END, as a sentence names them.
ACTIVITY_WORDS = {"ordinary": gettext_lazy("ordinary"), "strenuous": gettext_lazy("strenuous")}
#: The kinds of activity that cost END, as a log line names them (in English as the API's words).
ACTIVITY_SAID = {"ordinary": said("ordinary"), "strenuous": said("strenuous")}
#: What heals, as "what heals next" names it (END and the rest keep their codes).
_HEALED_WORDS = {"trauma": gettext_lazy("trauma"), "shock": gettext_lazy("shock")}


# --- Storage ---------------------------------------------------------------------------------
# The radiation track's JSON form lives with the column's shape (characters/shapes.py).


def healing_state(character: Character) -> HealingState:
    """Return the character's stored wounds as the rulebook's healing state."""
    clock = dict((character.wounds_detail or {}).get("clock", {}))
    if "end_held" in clock:
        clock["end_held"] = tuple(tuple(pair) for pair in clock["end_held"])
    return HealingState(
        trauma=character.trauma,
        shock=character.shock,
        end_spent=character.endurance_spent,
        stat_damage=dict(character.stat_damage or {}),
        radiation=track_from_json(character.radiation_track),
        **{k: v for k, v in clock.items() if k in _CLOCK_FIELDS},
    )


def wound_columns(state: HealingState, *, detail: dict | None = None) -> dict:
    """Return the character columns that store ``state`` (``detail``: wounds_detail to keep)."""
    clock = {name: getattr(state, name) for name in _CLOCK_FIELDS}
    clock["end_held"] = [list(pair) for pair in state.end_held]
    return {
        "trauma": state.trauma,
        "shock": state.shock,
        "endurance_spent": state.end_spent,
        "stat_damage": dict(state.stat_damage),
        "long_term_con_damage": state.radiation.damage.get("CON", 0),
        "radiation_track": track_to_json(state.radiation),
        "transitions_taken": state.radiation.transitions,
        "wounds_detail": {**(detail or {}), "clock": clock},
    }


def store(character: Character, state: HealingState) -> list[str]:
    """Put ``state`` on the character object (no save); return the columns to save."""
    for name, value in wound_columns(state, detail=character.wounds_detail).items():
        setattr(character, name, value)
    character.updated_at = timezone.now()
    return [*WOUND_COLUMNS, "updated_at"]


def wound_snapshot(character: Character) -> dict:
    """Return the stored wound columns exactly, to put back on undo."""
    return {name: getattr(character, name) for name in WOUND_COLUMNS}


# --- Reading ---------------------------------------------------------------------------------
def base_con(character: Character) -> int:
    """Return CON before wounds: the sheet's CON, which the recovery rules measure rest by."""
    return character.con


def wounded_stats(character: Character) -> dict[str, int]:
    """The 13 stats as wounded (the sheet's value less stat damage and long-term radiation loss)
    and END as much as is left: what dying is read from, on the sheet and in a fight alike.
    Armour and drugs change a stat in play, not what the wounds left of it."""
    losses = dict(character.stat_damage or {})
    radiation = track_from_json(character.radiation_track).damage
    stats = {code: value - losses.get(code, 0) - radiation.get(code, 0)
             for code, value in character.stat_values().items()}
    stats["END"] = (character.endurance_max or character.con) - character.endurance_spent
    return stats


def dying_causes(character: Character) -> list[str]:
    """Return what has the character dying ("Death"): HP at 0 or below, or a stat at 0 or below
    (rulebook.damage.dying_causes, read from the stored wounds, whoever wrote them)."""
    hit_points_left = None if character.hit_points is None else character.hit_points - character.trauma
    return list(rulebook_dying_causes(hit_points_left, wounded_stats(character)))


def _when(minutes: int) -> str:
    if minutes < 60:
        return f"{minutes} min"
    hours = Fraction(minutes, 60)
    return f"{float(hours):g} h" if hours.denominator != 1 else f"{hours.numerator} h"


def next_healing(character: Character) -> list[str]:
    """Say what heals next and when, for each kind of wound, under comfortable rest.

    Looks ahead with the rulebook itself (two weeks of comfortable rest, no medic), so the
    answer follows every clock the character's state remembers. END's first recovery is a d6,
    so it is named as the die, not as a number.
    """
    state = healing_state(character)
    if not (state.trauma or state.shock or state.end_lost or state.stat_damage or state.radiation.total):
        return []
    _rested, report = advance(state, hours=_LOOKAHEAD_HOURS, rest="comfortable", con=base_con(character),
                        rng=random.Random(0))
    first: dict[str, object] = {}
    for healed in report.healed:
        key = healed.kind if healed.kind != "stat" else f"stat {healed.stat}"
        first.setdefault(key, healed)
    out = []
    for key, healed in first.items():
        amount = "d6" if healed.kind == "END" and "d6" in healed.reason else healed.amount
        if healed.kind == "radiation":
            what = _("long-term %(stat)s loss") % {"stat": healed.stat}
        elif healed.kind == "stat":
            what = _("stat %(stat)s") % {"stat": healed.stat}
        else:
            what = str(_HEALED_WORDS.get(key, key))
        wait = (_("as soon as rest begins") if healed.at_minutes == 0
                else _("after %(time)s of comfortable rest") % {"time": _when(healed.at_minutes)})
        out.append(_("%(what)s: %(amount)s %(wait)s (%(reason)s)")
                   % {"what": what, "amount": amount, "wait": wait, "reason": healed.reason})
    if state.radiation.total and "radiation" not in first:
        step = track_step(state.radiation.step)
        out.append(_("long-term loss: %(points)s when its %(hours)s h period with enough rest is over")
                   % {"points": step.points, "hours": step.period_hours})
    return out


def wounds_summary(character: Character) -> dict:
    """Return the wounds as the API and the sheet's wound panel show them."""
    state = healing_state(character)
    causes = dying_causes(character)
    return {
        "trauma": state.trauma,
        "shock": state.shock,
        "end_spent": state.end_spent,
        "end_held": sum(points for points, _ in state.end_held),
        "stat_damage": dict(state.stat_damage),
        "long_term_con": state.radiation.damage.get("CON", 0),
        "transitions": state.radiation.transitions,
        "radiation": track_to_json(state.radiation),
        "dying": bool(causes),
        "dying_causes": causes,
        "next": next_healing(character),
    }


# --- Writing ---------------------------------------------------------------------------------
def _heal_directly(state: HealingState, *, trauma: int, shock: int, end: int, stats: dict[str, int]) -> HealingState:
    """Take healed points off at the GM's word; a wound healed to 0 forgets its clocks."""
    problems = []
    if trauma > state.trauma:
        problems.append(("trauma", _("Only %(n)s trauma to heal.") % {"n": state.trauma}))
    if shock > state.shock:
        problems.append(("shock", _("Only %(n)s shock to heal.") % {"n": state.shock}))
    if end > state.end_spent:
        problems.append(("end", _("Only %(n)s END spent to recover.") % {"n": state.end_spent}))
    for stat, points in stats.items():
        if points > state.stat_damage.get(stat, 0):
            problems.append(("stat_damage", _("Only %(n)s %(stat)s damage to heal.")
                             % {"n": state.stat_damage.get(stat, 0), "stat": stat}))
    if problems:
        raise CharacterError(problems[0][1], field=problems[0][0])
    damage = {s: p - stats.get(s, 0) for s, p in state.stat_damage.items() if p - stats.get(s, 0)}
    left = state.trauma - trauma
    return replace(
        state,
        trauma=left,
        trauma_inflicted=min(state.trauma_inflicted, left),
        shock=state.shock - shock,
        shock_at_combat_end=min(state.shock_at_combat_end, state.shock - shock) if state.shock - shock else 0,
        end_spent=state.end_spent - end,
        stat_damage=damage,
        stat_budget=min(state.stat_budget, sum(damage.values())),
    )


def apply_damage(state: HealingState, *, trauma: int = 0, shock: int = 0, end: int = 0,
                 stat_damage: dict[str, int] | None = None) -> HealingState:
    """Return ``state`` with damage taken (positive numbers) and healed (negative numbers)."""
    stat_damage = dict(stat_damage or {})
    hurt = {s: p for s, p in stat_damage.items() if p > 0}
    healed = {s: -p for s, p in stat_damage.items() if p < 0}
    state = _heal_directly(state, trauma=max(-trauma, 0), shock=max(-shock, 0), end=max(-end, 0), stats=healed)
    state = take_damage(state, trauma=max(trauma, 0), shock=max(shock, 0), stat_damage=hurt)
    return spend_end(state, max(end, 0))


def lock_in_play(character_id: int) -> Character:
    """Lock a character row for a wound change; refuse a character not in play."""
    character = Character.objects.select_for_update(no_key=True).select_related("campaign").get(pk=character_id)
    if character.state != Character.State.ACTIVE:
        raise CharacterConflict(_("%(name)s is not in play (%(state)s): only approved, living characters take "
                                  "wounds.") % {"name": character.name, "state": character.state_word()},
                                field="character")
    return character


def save_wounds(character: Character, state: HealingState) -> None:
    """Store a new healing state on a locked character row and save it."""
    columns = store(character, state)
    changes = change_set(campaign=character.campaign_id)  # joins the caller's: an UPDATE is a write too
    Character.objects.filter(pk=character.pk).update(**{c: getattr(character, c) for c in columns})
    changes.changed(character)


# --- A knock-out that outlasts its fight ----------------------------------------------------
#: Seconds in an hour of the campaign clock (``Campaign.game_hours``, moved by downtime).
_HOUR = 3600


def out_cold_left(character: Character, game_hours: int) -> int:
    """Seconds the character is still out cold from a fight that ended, read on the campaign
    clock: what was left then, less the hours the clock has moved since (0: awake)."""
    carried = (character.wounds_detail or {}).get("out_cold")
    if not carried:
        return 0
    return max(int(carried["seconds"]) - (game_hours - int(carried["at_hour"])) * _HOUR, 0)


def out_cold_carry(character: Character, *, seconds: int, game_hours: int) -> None:
    """Carry a knock-out past the end of a fight onto the campaign clock (``seconds`` left at
    hour ``game_hours``), or clear it (``seconds`` 0), on a locked character row."""
    detail = {k: v for k, v in (character.wounds_detail or {}).items() if k != "out_cold"}
    if seconds > 0:
        detail["out_cold"] = {"seconds": int(seconds), "at_hour": int(game_hours)}
    if detail == (character.wounds_detail or {}):
        return
    character.wounds_detail = detail
    character.updated_at = timezone.now()
    changes = change_set(campaign=character.campaign_id)  # joins the caller's
    Character.objects.filter(pk=character.pk).update(wounds_detail=detail, updated_at=character.updated_at)
    changes.changed(character)


#: SQL types of the wound columns, for writing many rows in one statement.
_COLUMN_TYPES = {"trauma": "integer", "shock": "integer", "endurance_spent": "integer", "stat_damage": "jsonb",
                 "long_term_con_damage": "integer", "radiation_track": "jsonb", "transitions_taken": "integer",
                 "wounds_detail": "jsonb"}
assert set(_COLUMN_TYPES) == set(WOUND_COLUMNS)


def save_wounds_many(rows: dict[int, dict]) -> None:
    """Store new wound columns for many locked characters in one UPDATE (``{id: columns}``).

    A downtime writes thousands of rows; Django's ``bulk_update`` builds a CASE expression per
    row and column, which costs more than the rules themselves. One JSON document unpacked by
    ``jsonb_to_recordset`` is a single parameter and a single statement.
    """
    if not rows:
        return
    table = connection.ops.quote_name(Character._meta.db_table)
    record = ", ".join(f"{name} {kind}" for name, kind in _COLUMN_TYPES.items())
    assignments = ", ".join(f"{name} = v.{name}" for name in _COLUMN_TYPES)
    payload = json.dumps([{"id": pk, **columns} for pk, columns in rows.items()])
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS c SET {assignments}, updated_at = now() "
            f"FROM jsonb_to_recordset(%s::jsonb) AS v(id bigint, {record}) WHERE c.id = v.id "
            f"RETURNING c.campaign_id, c.id",
            [payload],
        )
        for campaign_id, pk in cursor.fetchall():
            change_set(campaign=campaign_id).changed(Character(pk=pk, campaign_id=campaign_id))  # joins the caller's


def activity_cost(activity: str, minutes: int) -> int:
    """The END ``minutes`` of ``activity`` cost ("Endurance"), refusing a time too short to cost any."""
    try:
        cost = activity_endurance_cost(activity, minutes)
    except RulesError as exc:
        raise CharacterError(str(exc), field="activity" if activity not in ACTIVITY_ENDURANCE else "minutes") from None
    if not cost:
        points, period = ACTIVITY_ENDURANCE[activity]
        raise CharacterError(_("%(minutes)s min of %(activity)s activity costs no END yet (1 END per %(period)s "
                               "min).") % {"minutes": minutes, "activity": ACTIVITY_WORDS.get(activity, activity),
                                           "period": period // points}, field="minutes")
    return cost


def _activity_said(activity: str) -> Said | str:
    return ACTIVITY_SAID.get(activity, activity)


def _with_note(reason: str | Said, note: Said) -> Said:
    """The reason given, with what the app adds to it in brackets; the note alone without one."""
    return said("%(reason)s (%(note)s)", reason=reason, note=note) if reason else note


@transaction.atomic
def wounds_record(*, character: Character, by, reason: str | Said, trauma: int = 0, shock: int = 0, end: int = 0,
                  stat_damage: dict[str, int] | None = None, activity: str = "", minutes: int = 0,
                  con_loss_points: int = 0, con_loss_to: str = "") -> Character:
    """Record damage taken (positive) or healed (negative) at the GM's word, logged.

    Damage goes through ``rulebook.recovery.take_damage``, so fresh wounds restart their
    recovery clocks; healing takes points off and forgets the clocks of what is gone.
    ``activity`` ("ordinary" or "strenuous") over ``minutes`` adds the END it costs ("Endurance":
    1 per half hour of ordinary activity, 4 per hour of strenuous); the reason may then be left out.
    ``con_loss_points`` of long-term CON loss from radiation move to ``con_loss_to`` at the GM's word
    ("Radiation Damage"); the loss keeps healing on the recovery track as it would have.
    A reason the GM typed is kept as typed; the app's (a Said) reads in each reader's language.
    """
    reason = reason if isinstance(reason, Said) else (reason or "").strip()
    if activity or minutes:
        spent = activity_cost(activity, minutes)
        end += spent
        reason = _with_note(reason, said("%(minutes)s min of %(activity)s activity, %(end)s END", minutes=minutes,
                                         activity=_activity_said(activity), end=spent))
    if con_loss_points or con_loss_to:
        reason = _with_note(reason, said("%(points)s point(s) of long-term CON loss moved to %(stat)s",
                                         points=con_loss_points, stat=con_loss_to))
    if not reason:
        raise CharacterError(_("Say why (the attack, the fall, the treatment): it goes in the log."), field="reason")
    stat_damage = dict(stat_damage or {})
    unknown = [s for s in stat_damage if s not in WOUNDABLE_STATS]
    if unknown:
        raise CharacterError(_("Unknown stat %(stat)s; use one of %(stats)s.")
                             % {"stat": repr(unknown[0]), "stats": ", ".join(WOUNDABLE_STATS)}, field="stat_damage")
    if not (trauma or shock or end or any(stat_damage.values()) or con_loss_points):
        raise CharacterError(_("Nothing to record: give trauma, shock, END or stat damage."), field="trauma")
    write = change_set(campaign=character.campaign_id, by=by)
    character = lock_in_play(character.pk)
    before = wounds_summary(character)
    try:
        state = healing_state(character)
        if trauma or shock or end or any(stat_damage.values()):
            state = apply_damage(state, trauma=trauma, shock=shock, end=end, stat_damage=stat_damage)
    except RulesError as exc:
        raise CharacterError(str(exc)) from None
    if con_loss_points or con_loss_to:
        try:
            state = replace(state, radiation=transfer_long_term_loss(state.radiation, points=con_loss_points,
                                                                     to_stat=con_loss_to))
        except RulesError as exc:
            raise CharacterError(str(exc), field="con_loss_points" if con_loss_to else "con_loss_to") from None
    if character.endurance_max is not None and state.end_lost > character.endurance_max:
        raise CharacterError(_("%(name)s has only %(end)s END left to spend.")
                             % {"name": character.name,
                                "end": character.endurance_max - healing_state(character).end_lost}, field="end")
    save_wounds(character, state)
    changes = {k: v for k, v in {"trauma": trauma, "shock": shock, "end": end}.items() if v}
    if con_loss_points:
        changes["con_loss_moved"] = {con_loss_to: con_loss_points}
    if any(stat_damage.values()):
        changes["stat_damage"] = {s: p for s, p in stat_damage.items() if p}
    write.audit("wounds.record", said("%(by)s recorded wounds on %(name)s: %(reason)s", by=str(by),
                                      name=character.name, reason=reason),
                # The reason as the log's plain text keeps it, in English.
                data={"character": character.pk, "changes": changes,
                      "reason": reason.english() if isinstance(reason, Said) else reason,
                      "before": {k: before[k] for k in ("trauma", "shock", "end_spent", "stat_damage")}})
    write.publish(WoundsChanged(characters=[character.pk]))
    return character


@transaction.atomic
def party_activity(*, campaign_id: int, character_ids: list[int], by, activity: str, minutes: int,
                   reason: str = "") -> list[dict]:
    """Charge each character the END of ``minutes`` of ``activity`` ("Endurance"), at most what
    each has left: a march does not stop because one of them is spent. One write; each
    character's line in the log. Returns ``[{"character", "name", "end", "exhausted"}]``.
    """
    cost = activity_cost(activity, minutes)
    chosen = list(Character.objects.filter(campaign_id=campaign_id, pk__in=character_ids,
                                           state=Character.State.ACTIVE).order_by("name", "pk"))
    if not chosen:
        raise CharacterError(_("Choose at least one character in play."), field="characters")
    out = []
    for character in chosen:
        locked = lock_in_play(character.pk)
        left = (locked.endurance_max or 0) - healing_state(locked).end_lost
        spend = max(min(cost, left), 0)
        if spend:
            note = (said("%(minutes)s min of %(activity)s activity, %(end)s END", minutes=minutes,
                         activity=_activity_said(activity), end=spend) if spend == cost else
                    said("%(minutes)s min of %(activity)s activity, %(end)s END (all that was left)", minutes=minutes,
                         activity=_activity_said(activity), end=spend))
            wounds_record(character=locked, by=by, reason=_with_note((reason or "").strip(), note), end=spend)
        out.append({"character": character.pk, "name": character.name, "end": spend, "exhausted": spend < cost})
    return out


def boosted_stat_end(character: Character, stat: str) -> int:
    """The extra END one use of ``stat`` costs now: Stimutabs' boosted STR costs 1 more ("Other
    Drugs and Medications"); 0 when no drug in force raises it."""
    effects = tuple(DrugEffect.from_dict(e) for e in (character.wounds_detail or {}).get("effects", []))
    return extra_end_per_use(effects, stat) if stat in PRIMARY_STATS else 0


def pay_boosted_stat(*, character: Character, by, stat: str, what: str | Said) -> int:
    """Charge the extra END of using a drug-boosted ``stat`` for ``what`` (a check); return it.

    Raises:
        CharacterError: the character has not that much END left.
    """
    if not boosted_stat_end(character, stat):  # no boost in force: nothing to lock or pay
        return 0
    locked = lock_in_play(character.pk)
    cost = boosted_stat_end(locked, stat)
    left = (locked.endurance_max or 0) - healing_state(locked).end_lost
    if left < cost:
        raise CharacterConflict(_("%(name)s has %(left)s END left: using the boosted %(stat)s costs %(cost)s more. "
                                  "Rest first, or the GM rolls it without the boost.")
                                % {"name": locked.name, "left": max(left, 0), "stat": stat, "cost": cost}, field="end")
    wounds_record(character=locked, by=by, reason=said("using the drug-boosted %(stat)s for %(what)s", stat=stat,
                                                       what=what), end=cost)
    return cost
