"""One downtime for one character: who rests how, who tends them, and what the time heals.

The GM's request is turned into a plan per character once (``build_plans``); the preview and
the job both run ``advance_one`` on it, so the preview shows exactly what the job will do:
the dice nobody entered are rolled from a seed made of the request's idempotency key.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from campaign.errors import CampaignError
from characters.models import Character
from characters.wounds import base_con, healing_state, wound_columns
from rulebook import RulesError
from rulebook.dice import EnteredDice
from rulebook.drugs import DrugEffect, advance_effects, take_stimutabs
from rulebook.recovery import HealingState, advance, best_healing_ranks, undergo_therapy
from rulebook.therapies import Therapy as RulesTherapy
from rulebook.therapies import apply_therapy, roll_therapy

#: Skills whose ranks count as a medic's healing ranks ("Damage & Recovery", Trauma).
MEDICAL_SKILL = re.compile(r"medic|first aid|surg|doctor|nurs|heal|trauma care", re.IGNORECASE)


def seeded_rng(*parts: object) -> random.Random:
    """Return a roller seeded from the request, so the same request rolls the same dice."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def medical_ranks(medic: Character) -> tuple[int, str]:
    """Return a medic's best medical skill ranks and the skill's name (0 and "" for none)."""
    best = max((s for s in medic.skills.all() if MEDICAL_SKILL.search(s.name)), key=lambda s: s.ranks, default=None)
    return (best.ranks, best.name) if best else (0, "")


@dataclass
class Plan:
    """What one character does during the downtime."""

    rest: str
    healing_ranks: int = 0
    ranks_terms: list = field(default_factory=list)
    treatments: list[dict] = field(default_factory=list)  # {"kind", "therapy" (id), "as_end"}
    faces: list[int] = field(default_factory=list)

    def as_json(self) -> dict:
        return {"rest": self.rest, "healing_ranks": self.healing_ranks, "ranks_terms": self.ranks_terms,
                "treatments": self.treatments, "faces": self.faces}


def rules_therapy(therapy) -> RulesTherapy:
    return RulesTherapy(name=therapy.name, con_healed=therapy.con_healed, extra_reduction=therapy.extra_reduction,
                        track_steps_back=therapy.track_steps_back, shock=therapy.shock, trauma=therapy.trauma,
                        efficacy_loss=therapy.efficacy_loss)


def _summary(columns: dict) -> dict:
    return {"trauma": columns["trauma"], "shock": columns["shock"], "end_spent": columns["endurance_spent"],
            "stat_damage": dict(columns["stat_damage"]), "long_term_con": columns["long_term_con_damage"]}


def effects_of(character: Character) -> tuple[DrugEffect, ...]:
    return tuple(DrugEffect.from_dict(e) for e in (character.wounds_detail or {}).get("effects", []))


def _when(minutes: int) -> str:
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [f"{days} d"] * bool(days) + [f"{hours} h"] * bool(hours) + [f"{mins} min"] * bool(mins)
    return "at once" if not parts else "after " + " ".join(parts)


@dataclass
class Outcome:
    """A character after the downtime: the state to store and the report to show."""

    state: HealingState
    effects: tuple[DrugEffect, ...]
    report: dict
    treatments: list[dict]
    dice: list[dict]

    def columns(self, character: Character) -> dict:
        detail = {**(character.wounds_detail or {}), "effects": [e.to_dict() for e in self.effects]}
        return wound_columns(self.state, detail=detail)


def treat(state: HealingState, effects: tuple, character: Character, treatment: dict, therapies: dict,
           earlier_uses: dict, rng) -> tuple[HealingState, tuple, dict]:
    """Apply one treatment before time passes; return the new state, effects and what it did."""
    kind = treatment["kind"]
    if kind == "therapy":
        therapy = therapies[treatment["therapy"]]
        uses = earlier_uses.get((character.pk, therapy.pk), 0)
        rolled = roll_therapy(rules_therapy(therapy), rng=rng)
        outcome = apply_therapy(state.radiation, rolled, as_end=treatment.get("as_end", 0), earlier_uses=uses)
        earlier_uses[(character.pk, therapy.pk)] = uses + 1
        done = {"kind": kind, "therapy": therapy.pk, "name": therapy.name, "earlier_uses": uses,
                "breakdown": [[k, v] for k, v in outcome.breakdown], "end_delay_hours": outcome.end_delay_hours}
        return undergo_therapy(state, outcome), effects, done
    if kind == "stimutabs":
        dose = take_stimutabs(rng=rng)
        done = {"kind": kind, "name": "Stimutabs", "breakdown": [[k, v] for k, v in dose.breakdown],
                "effect": dose.to_dict()}
        return state, (*effects, dose), done
    return state, effects, {"kind": kind, "name": "Hyperbaric chamber",
                            "breakdown": [["trauma and stat recovery ×", 3]]}


def advance_one(character: Character, *, hours: int, plan: Plan, therapies: dict, earlier_uses: dict,
                rng: random.Random) -> Outcome:
    """Advance one character's wounds through the downtime (RULINGS section 7).

    Dice are used in this order: each treatment's, in the order given (a therapy: extra
    reduction, track steps, shock, trauma, 4d6 END delay; Stimutabs: d3 STR, d3 hours, d6
    wear-off damage, d6 shakes duration), then the d6 of each quick END recovery as it falls due.
    """
    dice = EnteredDice(plan.faces, rng, label=_("dice for %(name)s") % {"name": character.name})
    before = wound_columns(healing_state(character), detail=character.wounds_detail)
    state, effects, done = healing_state(character), effects_of(character), []
    for treatment in plan.treatments:
        state, effects, record = treat(state, effects, character, treatment, therapies, earlier_uses, dice)
        done.append(record)
    factor = 3 if any(t["kind"] == "hyperbaric" for t in plan.treatments) else 1
    state, report = advance(state, hours=hours, rest=plan.rest, healing_ranks=plan.healing_ranks,
                            con=base_con(character), rng=dice, recovery_factor=factor)
    effects, effect_notes = advance_effects(effects, hours * 60)
    dice.check_all_used()
    outcome = Outcome(state, effects, {}, done, dice.record())
    after = outcome.columns(character)
    outcome.report = {
        "character": character.pk, "name": character.name, "rest": plan.rest,
        "healing_ranks": plan.healing_ranks, "ranks_terms": plan.ranks_terms,
        "before": _summary(before), "after": _summary(after),
        "treatments": done,
        "healed": [{"when": _when(h.at_minutes), "minute": h.at_minutes, "kind": h.kind, "stat": h.stat,
                    "amount": h.amount, "reason": h.reason, "terms": [[k, str(v)] for k, v in h.breakdown]}
                   for h in report.healed],
        "notes": [{"when": _when(m), "text": t} for m, t in sorted(report.notes + effect_notes)],
        "dice": outcome.dice,
    }
    return outcome


def build_plans(*, characters: list[Character], rest: str, rest_by_character: dict, medical: dict,
                therapies: list[dict], dice: dict, campaign_therapies: dict, medics: dict) -> dict[int, Plan]:
    """Turn the GM's request into one plan per character, refusing anything that does not fit.

    Raises:
        CampaignError: a character, medic or therapy not in the campaign, or a bad value; the
            field names what to fix.
    """
    ids = {c.pk for c in characters}
    for key, where in ((rest_by_character, "rest_by_character"), (medical, "medical"), (dice, "dice")):
        stray = [k for k in key if k not in ids]
        if stray:
            raise CampaignError(_("Character %(id)s is not a character in play in this campaign.") % {"id": stray[0]},
                                field=where)
    plans = {}
    for character in characters:
        plans[character.pk] = Plan(rest=rest_by_character.get(character.pk, rest),
                                   faces=list(dice.get(character.pk, [])))
    for character_id, care in medical.items():
        plan = plans[character_id]
        medic_ranks, skill = 0, ""
        if care.get("medic") is not None:
            medic = medics.get(care["medic"])
            if medic is None:
                raise CampaignError(_("Medic %(id)s is not a character in this campaign.") % {"id": care["medic"]},
                                    field="medical")
            medic_ranks, skill = medical_ranks(medic)
            plan.ranks_terms.append([f"medic {medic.name}" + (f" ({skill})" if skill else ": no medical skill"),
                                     medic_ranks])
        equipment = care.get("equipment_ranks", 0)
        if equipment:
            plan.ranks_terms.append(["medical equipment ranks", equipment])
        try:
            plan.healing_ranks = best_healing_ranks(medic_skill_ranks=medic_ranks, equipment_ranks=equipment)
        except RulesError as exc:
            raise CampaignError(str(exc), field="medical") from None
        plan.ranks_terms.append(["healing ranks (the better of the two)", plan.healing_ranks])
    for treatment in therapies:
        character_id = treatment["character"]
        if character_id not in plans:
            raise CampaignError(_("Character %(id)s is not a character in play in this campaign.")
                                % {"id": character_id}, field="therapies")
        if treatment["kind"] == "therapy" and treatment.get("therapy") not in campaign_therapies:
            raise CampaignError(_("Name one of this campaign's therapies by its id."), field="therapies")
        plans[character_id].treatments.append(
            {"kind": treatment["kind"], "therapy": treatment.get("therapy"), "as_end": treatment.get("as_end", 0)})
    return plans
