"""Zener Transitions: the GM triggers one for chosen characters; each makes the CON save.

Article: "Radiation Damage"; RULINGS sections 1 and 7. A character who bought a delay with
Karma (``delay_transition``) is postponed instead, and that spend is consumed. Answered once
per idempotency key; undone by the GM while nothing else changed the characters since.
"""

from __future__ import annotations

import random

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.changes import change_set
from campaign.errors import CampaignConflict, CampaignError
from campaign.models import Campaign
from characters.events import WoundsChanged
from characters.models import Character
from characters.wounds import WOUND_COLUMNS, healing_state, lock_in_play, wound_columns
from economy.models import KarmaEntry
from rulebook import RulesError
from rulebook.dice import DiceSlots, EnteredDice, check_odds, target_terms
from rulebook.radiation import (
    TRANSITION_SAVE_LABEL,
    TRANSITION_SAVE_MODIFIER,
    next_transition_number,
    normalise_category,
    repeat_extra,
    transition,
)
from rulebook.recovery import suffer_transition
from rulebook.stats import STAT_CHECK_DICE
from rulebook.tables import time_multiplier
from rulebook.words import said

from .models import TransitionBatch, TransitionRecord
from .services import restore_wounds


def con_now(character: Character) -> int:
    """Return CON as it stands: the sheet's CON less stat damage and long-term radiation loss."""
    return character.con - (character.stat_damage or {}).get("CON", 0) - character.long_term_con_damage


def _odds(target: int) -> dict:
    odds = check_odds(target, STAT_CHECK_DICE)
    p = odds.probability
    percent = float(p) * 100
    shown = "<0.01%" if 0 < percent < 0.01 else ">99.99%" if 99.99 < percent < 100 else f"{percent:.2f}%"
    return {"probability": f"{p.numerator}/{p.denominator}", "percent": round(percent, 4), "shown": shown,
            "dice": odds.dice, "effective_target": odds.effective_target}


def _pending_delay(character: Character) -> KarmaEntry | None:
    return (KarmaEntry.objects.filter(character=character, kind=KarmaEntry.Kind.DELAY_TRANSITION,
                                      consumed_by__isnull=True).order_by("created_at", "id").first())


def _delay_text(entry: KarmaEntry) -> str:
    index = int((entry.data or {}).get("time_index") or 0)
    return (f"postponed: a delay of time-chart index {index} (the stay stretched ×{time_multiplier(index)}) "
            f"bought with {-entry.amount} Karma")


def _characters(campaign: Campaign, ids: list[int]) -> list[Character]:
    if not ids:
        raise CampaignError(_("Choose at least one character."), field="characters")
    if len(set(ids)) != len(ids):
        raise CampaignError(_("A character is named twice."), field="characters")
    found = {c.pk: c for c in Character.objects.filter(campaign=campaign, pk__in=ids)}
    missing = [i for i in ids if i not in found]
    if missing:
        raise CampaignError(_("Character %(id)s is not in this campaign.") % {"id": missing[0]}, field="characters")
    return [found[i] for i in sorted(ids)]


def transition_preview(*, campaign: Campaign, category: str, character_ids: list[int]) -> list[dict]:
    """Return each character's CON save and odds before anyone rolls, changing nothing."""
    category = _category(category)
    out = []
    for character in _characters(campaign, character_ids):
        number = next_transition_number(healing_state(character).radiation)
        extra, extra_terms = repeat_extra(number, healing_state(character).radiation.extra_reduction)
        con = con_now(character)
        target = con + TRANSITION_SAVE_MODIFIER
        delay = _pending_delay(character)
        out.append({
            "character": character.pk, "name": character.name, "category": category, "number": number,
            "target": target, "breakdown": [[_("CON now"), con], [TRANSITION_SAVE_LABEL, TRANSITION_SAVE_MODIFIER],
                                            *[[k, v] for k, v in target_terms(target, STAT_CHECK_DICE)]],
            "odds": _odds(target), "repeat_extra": extra, "extra_breakdown": [[k, v] for k, v in extra_terms],
            "postponed": _delay_text(delay) if delay else None,
        })
    return out


def _category(category) -> str:
    try:
        return normalise_category(category)
    except RulesError as exc:
        raise CampaignError(str(exc), field="category") from None


def _lines(outcome) -> dict:
    return {line.label: {"amount": line.amount, "terms": [[k, v] for k, v in line.breakdown]}
            for line in (outcome.con_damage, outcome.shock, outcome.trauma)}


#: The dice slots of one character's transition, as typed at the table.
TRANSITION_SLOTS = ("save", "damage")


class _SaveThenDamage:
    """One roller for ``rulebook.radiation.transition`` fed from two slots: the save's dice
    (4d6, more under the miracle rule) from ``save``, every die after them from ``damage``, so
    a damage die typed at the table is never taken for a save die."""

    def __init__(self, slots: DiceSlots, save_dice: int) -> None:
        self.slots, self.save_dice, self.rolled = slots, save_dice, 0

    def randint(self, low: int, high: int) -> int:
        slot = self.slots["save" if self.rolled < self.save_dice else "damage"]
        self.rolled += 1
        return slot.randint(low, high)


def _transition_one(character: Character, *, category: str, faces, rng) -> tuple[dict, dict, dict]:
    """Roll one character's transition; return (outcome for the response, before, after).

    ``faces``: the dice typed at the table, by slot (``{"save": [...], "damage": [...]}``), or
    one list in roll order (the save's dice, then the damage's).
    """
    before = {name: getattr(character, name) for name in WOUND_COLUMNS}
    state = healing_state(character)
    con = con_now(character)
    if isinstance(faces, dict):
        slots = DiceSlots(faces, TRANSITION_SLOTS, rng)
        dice = _SaveThenDamage(slots, check_odds(con + TRANSITION_SAVE_MODIFIER, STAT_CHECK_DICE).dice)
    else:
        slots = dice = EnteredDice(list(faces), rng, label=_("dice for %(name)s") % {"name": character.name})
    outcome = transition(con=con, category=category, transition_number=next_transition_number(state.radiation),
                         extra_reduction=state.radiation.extra_reduction, rng=dice)
    slots.check_all_used()
    dice = slots
    new = suffer_transition(state, outcome)
    after = wound_columns(new, detail=character.wounds_detail)
    save = outcome.save
    result = {
        "character": character.pk, "name": character.name, "number": outcome.transition_number,
        # The target and dice the save was rolled at (the miracle rule's, when it escalated).
        "save": {"target": save.effective_target, "dice": save.dice,
                 "breakdown": [[k, v] for k, v in outcome.save_breakdown],
                 "odds": _odds(save.target), "faces": list(save.faces), "total": save.total,
                 "success": save.success, "margin": save.margin},
        "repeat_extra": outcome.repeat_extra, "extra_breakdown": [[k, v] for k, v in outcome.extra_breakdown],
        "damage": _lines(outcome), "dice": dice.record(),
        "track": {"restarted": True, "long_term_loss": new.radiation.damage, "step": new.radiation.step,
                  "next": "6 points back 24 h after exposure, with 6 h of restful sleep or 9 h of rest in them"},
        "postponed": None,
    }
    return result, before, after


def transition_make(*, campaign: Campaign, by, category: str, character_ids: list[int], idempotency_key: str,
                    dice: dict | None = None, rng: random.Random | None = None) -> tuple[dict, bool]:
    """Put the chosen characters through a Zener Transition (GM); return (response, created).

    The same key again returns the first answer and changes nothing. ``dice`` maps a character
    id to the faces rolled at the table, by slot (``{"save": [4d6, more under the miracle rule],
    "damage": [the outcome's dice]}``) or as one list in the rulebook's order (the save, then the
    damage). The damage dice: success d3; category 1 or 2 d6; 3A 2d6; 3B d6 then 2d6.
    """
    if not idempotency_key:
        raise CampaignError(_("Send an idempotency key, so that a repeated request transitions once."),
                            field="idempotency_key")
    category = _category(category)
    done = TransitionBatch.objects.filter(campaign=campaign, idempotency_key=idempotency_key).first()
    if done is not None:
        return _replay(done, category=category, character_ids=character_ids), False
    dice = dice or {}
    stray = [k for k in dice if k not in character_ids]
    if stray:
        raise CampaignError(_("Dice were entered for character %(id)s, who is not transitioning.") % {"id": stray[0]},
                            field="dice")
    try:
        with transaction.atomic():
            write = change_set(campaign=campaign.pk, by=by)
            batch = TransitionBatch.objects.create(campaign=campaign, category=category,
                                                   idempotency_key=idempotency_key, by=by)
            results = []
            for character in _characters(campaign, character_ids):
                character = lock_in_play(character.pk)
                delay = _pending_delay(character)
                if delay is not None:
                    snapshot = {name: getattr(character, name) for name in WOUND_COLUMNS}
                    TransitionRecord.objects.create(batch=batch, character=character, delay_entry=delay,
                                                    before=snapshot, after=snapshot)
                    results.append({"character": character.pk, "name": character.name,
                                    "postponed": _delay_text(delay), "karma_entry": delay.pk})
                    continue
                try:
                    result, before, after = _transition_one(character, category=category,
                                                            faces=dice.get(character.pk, []), rng=rng)
                except RulesError as exc:
                    raise CampaignError(f"{character.name}: {exc}", field="dice") from None
                Character.objects.filter(pk=character.pk).update(**after, updated_at=timezone.now())
                write.changed(character)
                TransitionRecord.objects.create(batch=batch, character=character, number=result["number"],
                                                before=before, after=after, outcome=result)
                results.append(result)
            response = {"id": batch.pk, "category": category, "characters": results}
            batch.response = response
            batch.save(update_fields=["response"])
            write.audit("transition.make",
                        said("%(by)s put %(n)s characters through a category %(category)s Zener Transition",
                             by=str(by), n=len(results), category=category),
                        data={"batch": batch.pk, "characters": [r["character"] for r in results]})
            write.publish(WoundsChanged(characters=[r["character"] for r in results]))
    except IntegrityError:  # the same key sent twice at once: the other request answered
        done = TransitionBatch.objects.get(campaign=campaign, idempotency_key=idempotency_key)
        return _replay(done, category=category, character_ids=character_ids), False
    return response, True


def _replay(done: TransitionBatch, *, category: str, character_ids: list[int]) -> dict:
    """Return the first answer to a key, or refuse a key that served another transition."""
    first = sorted(r["character"] for r in done.response.get("characters", []))
    if done.category != category or first != sorted(character_ids):
        raise CampaignConflict(_("This idempotency key was already used for another transition; send a new key."),
                               field="idempotency_key")
    return done.response


@transaction.atomic
def transition_undo(*, batch: TransitionBatch, by) -> TransitionBatch:
    """Put the characters back as the transition found them; a consumed delay is restored too."""
    write = change_set(campaign=batch.campaign_id, by=by)
    batch = TransitionBatch.objects.select_for_update(no_key=True).get(pk=batch.pk)
    if batch.undone_at is not None:
        raise CampaignConflict(_("This transition was already undone."), field="detail")
    records = list(batch.records.all())
    restore_wounds(records, what=_("this transition"))
    # The records stay (what happened, for the log); the delays they consumed are free again.
    batch.records.update(delay_entry=None)
    write.changed(*records)
    batch.undone_at = timezone.now()
    batch.save(update_fields=["undone_at"])
    write.audit("transition.undo", said("%(by)s undid a category %(category)s Zener Transition", by=str(by),
                                        category=batch.category),
                data={"batch": batch.pk, "characters": [r.character_id for r in records]})
    write.publish(WoundsChanged(characters=[r.character_id for r in records]))
    return batch
