"""One definition of valid: every bounded column holds its bound at the bottom.

- every text column of the game is bounded in the database: a ``CharField`` by its length, a
  ``TextField`` by a CHECK constraint (zenergate_site.shapes.capped) and the same cap as its
  validator, which forms, serializers and the importer reach;
- every cap in zenergate_site/limits.py bounds some column;
- every JSON column a person's input reaches names its shape (zenergate_site.shapes), or is
  listed below as written by the app alone, with why.
"""

from django.apps import apps
from django.core.validators import MaxLengthValidator
from django.db import models

from zenergate_site import limits
from zenergate_site.shapes import JsonShape

APPS = ("campaign", "characters", "combat", "downtime", "economy", "rolls")

#: JSON columns no one types into: the app writes them from values it has already checked.
WRITTEN_BY_THE_APP = {
    "campaign.LogEntry.data": "the audit line's own ids and numbers",
    "campaign.Event.data": "an event's ids and numbers, from the write that made it",
    "campaign.Job.params": "a downtime job's request, checked by its serializer and service",
    "campaign.Job.report": "what the job did, written by the worker",
    "campaign.Campaign.rulings": "coerced by the rule set's own parameters (campaign.services, the importer)",
    "characters.Language.immersion": "hours of immersion per language, counted by the downtime service",
    "characters.SystemSheet.lines": "coerced by the rule set's sheet spec (characters.system_sheets)",
    "characters.SystemSheet.numbers": "coerced by the rule set's sheet spec",
    "characters.SystemSheet.pools": "moved only through the pool ledger",
    "characters.SystemSheet.condition": "a condition the rule set's damage wrote",
    "combat.Encounter.order": "combatant ids in acting order, from initiative",
    "combat.Combatant.initiative_breakdown": "the dice of an initiative roll",
    "combat.Combatant.follow_up": "a critical hit's bonus, from the rules",
    "combat.CombatEvent.data": "the combat log: what the rules resolved",
    "combat.CombatEvent.gm_data": "the combat log's GM-only half",
    "combat.CombatEvent.before": "a snapshot for undo",
    "combat.CombatEvent.after": "a snapshot for undo",
    "combat.SystemFight.state": "the rule set's turn order",
    "combat.SystemFight.fighters": "names to sheet ids, from the start form's checked fighters",
    "combat.SystemFight.npcs": "coerced by the rule set's NPC numbers",
    "combat.SystemFight.blows": "resolved blows, for undo",
    **{f"downtime.{model}.{column}": "a snapshot of the sheet for undo, or what the rules did"
       for model, columns in (("DowntimeClaim", ("before", "after", "report")),
                              ("SheetClaim", ("before", "after", "report")),
                              ("Treatment", ("before", "after", "outcome")),
                              ("TransitionRecord", ("before", "after", "outcome")))
       for column in columns},
    "downtime.TransitionBatch.response": "the answer the transition gave, kept for a repeated request",
    "economy.KarmaEntry.data": "a spend's or payout's breakdown, from the rules",
    "economy.Complication.effects": "what a Complication did, from the rules",
    "rolls.Roll.params": "a check's inputs, checked by the roller",
    "rolls.Roll.dice": "the dice rolled",
    "rolls.Roll.detail": "the check's terms and outcome, from the rules",
}


def _columns():
    for app in APPS:
        for model in apps.get_app_config(app).get_models():
            if model.__name__.startswith("Historical"):
                continue
            for field in model._meta.concrete_fields:
                yield model, field


def _caps(field) -> set[int]:
    return {v.limit_value for v in field.validators if isinstance(v, MaxLengthValidator)}


def test_every_text_column_is_capped_in_the_database():
    uncapped = []
    for model, field in _columns():
        if isinstance(field, models.TextField):
            checks = {str(c.condition) for c in model._meta.constraints if isinstance(c, models.CheckConstraint)}
            caps = _caps(field)
            if len(caps) != 1 or not any(f"{field.name}__length__lte', {next(iter(caps))}" in c for c in checks):
                uncapped.append(f"{model._meta.label}.{field.name}")
    assert uncapped == [], "a TextField needs MaxLengthValidator(cap) and shapes.capped(field, cap, name)"


def test_every_cap_bounds_a_column():
    used = set()
    for _, field in _columns():
        if isinstance(field, models.CharField) and not isinstance(field, models.TextField):
            used.add(field.max_length)
        used |= _caps(field)
    for model in apps.get_models():  # Django's own columns (the username) count too
        used |= {f.max_length for f in model._meta.concrete_fields if isinstance(f, models.CharField)}
    caps = {name: value for name, value in vars(limits).items() if name.isupper() and isinstance(value, int)}
    assert [name for name, value in caps.items() if value not in used] == []


def test_every_json_column_a_person_reaches_has_a_shape():
    unshaped = [f"{model._meta.label}.{field.name}" for model, field in _columns()
                if isinstance(field, models.JSONField)
                and not any(isinstance(v, JsonShape) for v in field.validators)
                and f"{model._meta.label}.{field.name}" not in WRITTEN_BY_THE_APP]
    assert unshaped == []


def test_the_list_of_app_written_columns_names_real_columns():
    real = {f"{model._meta.label}.{field.name}" for model, field in _columns()}
    assert sorted(set(WRITTEN_BY_THE_APP) - real) == []
