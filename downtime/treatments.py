"""Therapies the GM defines, and treatments given at once (outside a downtime).

Article: "Radiation Damage" (Anti-Radiation Therapies), "Other Drugs and Medications",
"Other Medical Treatments". A downtime can give the same treatments as part of its job
(``plan.advance_one``); the hyperbaric chamber only works while time passes, so it is given
through a downtime only.
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
from rulebook import RulesError
from rulebook.dice import EnteredDice
from rulebook.therapies import Therapy as RulesTherapy
from rulebook.words import Said, said

from .models import Therapy, Treatment
from .plan import effects_of, treat
from .services import earlier_uses, restore_wounds

THERAPY_FIELDS = ("name", "con_healed", "extra_reduction", "track_steps_back", "shock", "trauma", "efficacy_loss")


#: The treatments the app names (a therapy is named by the GM who defined it).
TREATMENT_SAID = {Treatment.Kind.STIMUTABS: said("Stimutabs"), Treatment.Kind.HYPERBARIC: said("Hyperbaric chamber")}


def _treatment_named(kind: str, outcome: dict) -> Said | str:
    """A treatment as a log line names it: a therapy by its name, the others in each reader's language."""
    if kind in TREATMENT_SAID and outcome.get("name", kind) == TREATMENT_SAID[kind].english():
        return TREATMENT_SAID[kind]
    return str(outcome.get("name", kind))


def _field_of(message: str) -> str:
    """Name the field a therapy's refusal is about (the rules start dice messages with it)."""
    head = message.split(":", 1)[0]
    if head in THERAPY_FIELDS:
        return head
    if "long-term CON" in message:
        return "con_healed"
    return "efficacy_loss" if "efficacy" in message else "detail"


@transaction.atomic
def therapy_define(*, campaign: Campaign, by, **fields) -> Therapy:
    """Define an anti-radiation therapy for the campaign (GM); its dice are checked by the rules."""
    write = change_set(campaign=campaign.pk, by=by)
    unknown = set(fields) - set(THERAPY_FIELDS)
    if unknown:
        raise CampaignError(_("Unknown field %(field)s.") % {"field": repr(sorted(unknown)[0])},
                            field=sorted(unknown)[0])
    name = (fields.get("name") or "").strip()
    if not name:
        raise CampaignError(_("Give the therapy a name."), field="name")
    values = {**{f: getattr(Therapy, f).field.default for f in THERAPY_FIELDS[1:]}, **fields, "name": name}
    try:
        RulesTherapy(**values)
    except RulesError as exc:
        raise CampaignError(str(exc), field=_field_of(str(exc))) from None
    therapy = Therapy.objects.create(campaign=campaign, created_by=by, **values)
    write.audit("therapy.define", said("%(by)s defined the therapy %(name)s", by=str(by), name=name),
                data={"therapy": therapy.pk})
    return therapy


def treatment_give(*, character: Character, by, kind: str, therapy_id: int | None = None, as_end: int = 0,
                   dice: list[int] | None = None, idempotency_key: str,
                   rng: random.Random | None = None) -> tuple[Treatment, bool]:
    """Give a therapy or Stimutabs to a character now (GM); return (treatment, created).

    Dice, in the rulebook's order: a therapy rolls extra reduction, track steps, shock, trauma
    and the 4d6 END delay; Stimutabs roll d3 STR, d3 hours, d6 wear-off damage, d6 shakes.
    """
    if kind not in (Treatment.Kind.THERAPY, Treatment.Kind.STIMUTABS):
        raise CampaignError(_("Give a therapy or Stimutabs at once; the hyperbaric chamber works during a downtime."),
                            field="kind")
    if not idempotency_key:
        raise CampaignError(_("Send an idempotency key, so that a repeated request treats once."),
                            field="idempotency_key")
    campaign = character.campaign
    done = Treatment.objects.filter(campaign=campaign, idempotency_key=idempotency_key).first()
    if done is not None:
        _same_request(done, character=character, kind=kind, therapy_id=therapy_id)
        return done, False
    therapies = {}
    if kind == Treatment.Kind.THERAPY:
        therapy = Therapy.objects.filter(campaign=campaign, pk=therapy_id).first()
        if therapy is None:
            raise CampaignError(_("Name one of this campaign's therapies by its id."), field="therapy")
        therapies[therapy.pk] = therapy
    try:
        with transaction.atomic():
            write = change_set(campaign=campaign.pk, by=by)
            character = lock_in_play(character.pk)
            before = {name: getattr(character, name) for name in WOUND_COLUMNS}
            roller = EnteredDice(dice or [], rng, label=_("dice"))
            try:
                state, effects, record = treat(healing_state(character), effects_of(character), character,
                                                {"kind": kind, "therapy": therapy_id, "as_end": as_end}, therapies,
                                                earlier_uses([character.pk]), roller)
                roller.check_all_used()
            except RulesError as exc:
                raise CampaignError(str(exc), field="as_end" if "END" in str(exc) else "dice") from None
            record["dice"] = roller.record()
            detail = {**(character.wounds_detail or {}), "effects": [e.to_dict() for e in effects]}
            after = wound_columns(state, detail=detail)
            Character.objects.filter(pk=character.pk).update(**after, updated_at=timezone.now())
            write.changed(character)
            treatment = Treatment.objects.create(campaign=campaign, character=character, kind=kind,
                                                 therapy_id=therapy_id if kind == Treatment.Kind.THERAPY else None,
                                                 idempotency_key=idempotency_key, before=before, after=after,
                                                 outcome=record, by=by)
            write.audit("treatment.give", said("%(by)s gave %(treatment)s to %(name)s", by=str(by),
                                               treatment=_treatment_named(kind, record), name=character.name),
                        data={"treatment": treatment.pk, "character": character.pk})
            write.publish(WoundsChanged(characters=[character.pk]))
    except IntegrityError:  # the same key sent twice at once: the other request treated
        done = Treatment.objects.get(campaign=campaign, idempotency_key=idempotency_key)
        _same_request(done, character=character, kind=kind, therapy_id=therapy_id)
        return done, False
    return treatment, True


def _same_request(done: Treatment, *, character: Character, kind: str, therapy_id: int | None) -> None:
    """Refuse a key that already served another treatment: replaying it would treat nobody."""
    if (done.character_id, done.kind, done.therapy_id) != (character.pk, kind, therapy_id if kind == "therapy"
                                                           else None):
        raise CampaignConflict(_("This idempotency key was already used for another treatment; send a new key."),
                               field="idempotency_key")


@transaction.atomic
def treatment_undo(*, treatment: Treatment, by) -> Treatment:
    """Take back a treatment given at once (GM), while nothing else changed the character."""
    write = change_set(campaign=treatment.campaign_id, by=by)
    treatment = Treatment.objects.select_for_update(no_key=True).get(pk=treatment.pk)
    if treatment.job_id is not None:
        raise CampaignConflict(_("This treatment was part of a downtime: undo the downtime."), field="detail")
    if treatment.undone_at is not None:
        raise CampaignConflict(_("This treatment was already undone."), field="detail")
    restore_wounds([treatment], what=_("this treatment"))
    treatment.undone_at = timezone.now()
    treatment.save(update_fields=["undone_at"])
    write.audit("treatment.undo", said("%(by)s undid %(treatment)s on a character", by=str(by),
                                       treatment=_treatment_named(treatment.kind, treatment.outcome)),
                data={"treatment": treatment.pk, "character": treatment.character_id})
    write.publish(WoundsChanged(characters=[treatment.character_id]))
    return treatment


def let_go_of_campaign(sender, campaign, **_) -> None:
    """Before a campaign is deleted (campaign.signals.campaign_unlinking): its treatments go first,
    as each protects its therapy, and its transitions let go of the Karma spends they consumed."""
    from .models import Treatment, TransitionRecord

    Treatment.objects.filter(campaign=campaign).delete()
    TransitionRecord.objects.filter(batch__campaign=campaign).update(delay_entry=None)
