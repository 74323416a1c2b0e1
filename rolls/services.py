"""Writes of the roll feed: a check of the campaign's rule set, free-form dice, and rolls other
apps made (combat, downtime). Every roll is stored with its dice and odds and published on the
campaign's live stream (GM-only when private)."""

from __future__ import annotations

import random
from fractions import Fraction

from django.db import transaction

from campaign.audience import EVERYONE, Seen, gm_only_if
from campaign.changes import change_set
from campaign.errors import CampaignError
from campaign.models import Campaign
from rulebook import RulesError, notation
from rulebook.systems import ParamError, RuleSet, get_system

from .events import RollMade
from .models import Roll

#: Rolls nobody enters are drawn from the operating system's generator.
_system_rng = random.SystemRandom()


def rule_set_of(campaign: Campaign) -> RuleSet:
    return get_system(campaign.rule_set)


def check_inputs(campaign: Campaign, raw: dict, *, field: str = "check") -> tuple[RuleSet, dict]:
    """Clean a check's inputs for the campaign's rule set, its rulings filled in."""
    rule_set = rule_set_of(campaign)
    if not isinstance(raw, dict):
        raise CampaignError("Send the check's inputs as an object.", field=field)
    try:
        return rule_set, rule_set.clean({**(campaign.rulings or {}), **raw})
    except ParamError as exc:
        raise CampaignError(str(exc), field=f"{field}.{exc.field}") from None


def fraction_text(value: Fraction | None) -> str:
    return "" if value is None else f"{value.numerator}/{value.denominator}"


def _publish(roll: Roll) -> Roll:
    change_set(campaign=roll.campaign_id, by=roll.by).publish(RollMade(roll=roll.pk, seen=roll.seen))
    return roll


@transaction.atomic
def roll_check(*, campaign: Campaign, by, check: dict, label: str = "", private: bool = False,
               dice: list | None = None, rng: random.Random | None = None) -> Roll:
    """Roll a check of the campaign's rule set; ``dice`` are faces rolled at the table."""
    change_set(campaign=campaign.pk, by=by)
    rule_set, params = check_inputs(campaign, check)
    try:
        rolled = rule_set.roll(rng or _system_rng, dice, **params)
    except ParamError as exc:
        raise CampaignError(str(exc), field=f"check.{exc.field}") from None
    except RulesError as exc:
        raise CampaignError(str(exc), field="dice" if dice else "check") from None
    record = rolled.details.get("rolls") or [{"sides": None, "face": f, "entered": False} for f in rolled.faces]
    kept = list(rolled.kept)
    faces = []
    for die in record:
        die = dict(die)
        if die.get("face") in kept:
            kept.remove(die["face"])
            die["kept"] = True
        else:
            die["kept"] = False
        faces.append(die)
    return _publish(Roll.objects.create(
        campaign=campaign, by=by, kind=Roll.Kind.CHECK, label=label, system=rule_set.key, params=params,
        dice=faces, total=rolled.total, success=rolled.success, probability=fraction_text(rolled.probability),
        detail={"breakdown": [[str(k), plain(v)] for k, v in rolled.breakdown]}, **gm_only_if(private).columns()))


@transaction.atomic
def roll_notation(*, campaign: Campaign, by, text: str, label: str = "", private: bool = False,
                  rng: random.Random | None = None) -> Roll:
    """Roll free-form dice notation ("2d6+3", "4d6kh3")."""
    change_set(campaign=campaign.pk, by=by)
    try:
        rolled = notation.roll(text, rng or _system_rng)
    except RulesError as exc:
        raise CampaignError(str(exc), field="notation") from None
    return _publish(Roll.objects.create(
        campaign=campaign, by=by, kind=Roll.Kind.NOTATION, label=label, notation=rolled.notation,
        dice=[{**die, "entered": False} for die in rolled.dice], total=rolled.total,
        detail={"text": rolled.text}, **gm_only_if(private).columns()))


def record_roll(*, campaign: Campaign | int, by, kind: str, label: str, faces, total: int,
                success: bool | None = None, probability: Fraction | None = None, seen: Seen = EVERYONE,
                detail: dict | None = None) -> Roll:
    """Put a roll another part of the app made (combat, downtime) in the feed, in its transaction.

    ``faces`` is a list of d6 faces or of ``{"sides", "face", "entered"}`` records; ``seen`` is
    who may see the roll (an unrevealed NPC's: the GM alone).
    """
    dice = [die if isinstance(die, dict) else {"sides": 6, "face": int(die)} for die in faces]
    dice = [{"kept": True, "entered": False, **die} for die in dice]
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    return _publish(Roll.objects.create(
        campaign_id=campaign_id, by=by, kind=kind, label=label[:120], dice=dice, total=total, success=success,
        probability=fraction_text(probability), detail=detail or {}, **seen.columns()))


def record_rolls_many(*, campaign_id: int, rolls: list[dict]) -> None:
    """Put many rolls in the feed at once (a downtime batch): one insert, one event.

    Each roll is a dict of Roll fields, with ``private`` for a roll the GM keeps.
    """
    if not rolls:
        return
    Roll.objects.bulk_create(
        Roll(campaign_id=campaign_id, **gm_only_if(roll.get("private", False)).columns(),
             **{k: v for k, v in roll.items() if k not in ("private", "label")}, label=roll["label"][:120])
        for roll in rolls)
    # One event for the batch; GM-only if every roll in it is private.
    change_set(campaign=campaign_id).publish(
        RollMade(rolls=len(rolls), seen=gm_only_if(all(r.get("private") for r in rolls))))


def plain(value: object) -> object:
    """A breakdown value as JSON: Fractions as "a/b", tuples as lists."""
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(value)
