"""Writes of the roll feed: a check of the campaign's rule set, free-form dice, and rolls other
apps made (combat, downtime). Every roll is stored with its dice and odds and published on the
campaign's live stream (GM-only when private)."""

from __future__ import annotations

import random
from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext as _

from campaign.audience import EVERYONE, Seen, gm_only_if
from campaign.changes import change_set
from campaign.errors import CampaignConflict, CampaignError
from campaign.models import Campaign
from campaign.permissions import typed_dice_check
from characters.models import Character
from characters.selectors import character_with_sheet
from characters.sheet import line_check
from characters.wounds import pay_boosted_stat
from economy.spends import karma_spend
from rulebook import RulesError, notation
from rulebook.situation import Situation
from rulebook.systems import ParamError, RuleSet, get_system
from rulebook.words import Said, kept, said

from . import checks
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
        raise CampaignError(_("Send the check's inputs as an object."), field=field)
    try:
        return rule_set, rule_set.clean({**(campaign.rulings or {}), **raw})
    except ParamError as exc:
        raise CampaignError(str(exc), field=f"{field}.{exc.field}") from None


def fraction_text(value: Fraction | None) -> str:
    return "" if value is None else f"{value.numerator}/{value.denominator}"


def _publish(roll: Roll) -> Roll:
    change_set(campaign=roll.campaign_id, by=roll.by).publish(RollMade(roll=roll.pk, seen=roll.seen))
    return roll


def _faces(rolled) -> list[dict]:
    """Every die of a rule set's roll as ``{"sides", "face", "entered", "kept"}``."""
    record = rolled.details.get("rolls") or [{"sides": None, "face": f, "entered": False} for f in rolled.faces]
    kept = list(rolled.kept)
    faces = []
    for die in record:
        die = dict(die)
        die["kept"] = die.get("face") in kept
        if die["kept"]:
            kept.remove(die["face"])
        faces.append(die)
    return faces


@transaction.atomic
def roll_check(*, campaign: Campaign, by, check: dict, label: str = "", private: bool = False,
               dice: list | None = None, rng: random.Random | None = None, is_gm: bool = True,
               idempotency_key: str | None = None) -> Roll:
    """Roll a check of the campaign's rule set; ``dice`` are faces rolled at the table (a player's
    only where the campaign's ``typed_dice`` lets them: pass ``is_gm=False`` for a player). With
    an ``idempotency_key`` seen before, return that roll (``replayed``) and roll nothing."""
    change_set(campaign=campaign.pk, by=by)
    done = _replayed_free(campaign, by, idempotency_key, notation="")
    if done is not None:
        return done
    typed_dice_check(campaign, is_gm=is_gm, dice=dice)
    rule_set, params = check_inputs(campaign, check)
    try:
        rolled = rule_set.roll(rng or _system_rng, dice, **params)
    except ParamError as exc:
        raise CampaignError(str(exc), field=f"check.{exc.field}") from None
    except RulesError as exc:
        raise CampaignError(str(exc), field="dice" if dice else "check") from None
    return _publish(Roll.objects.create(
        campaign=campaign, by=by, kind=Roll.Kind.CHECK, label=label, system=rule_set.key, params=params,
        dice=_faces(rolled), total=rolled.total, success=rolled.success, probability=fraction_text(rolled.probability),
        detail={"breakdown": [[str(k), plain(v)] for k, v in rolled.breakdown]}, idempotency_key=idempotency_key,
        **gm_only_if(private).columns()))


@transaction.atomic
def roll_notation(*, campaign: Campaign, by, text: str, label: str = "", private: bool = False,
                  rng: random.Random | None = None, idempotency_key: str | None = None) -> Roll:
    """Roll free-form dice notation ("2d6+3", "4d6kh3"). With an ``idempotency_key`` seen
    before, return that roll (``replayed``) and roll nothing."""
    change_set(campaign=campaign.pk, by=by)
    done = _replayed_free(campaign, by, idempotency_key, notation=text)
    if done is not None:
        return done
    try:
        rolled = notation.roll(text, rng or _system_rng)
    except RulesError as exc:
        raise CampaignError(str(exc), field="notation") from None
    return _publish(Roll.objects.create(
        campaign=campaign, by=by, kind=Roll.Kind.NOTATION, label=label, notation=rolled.notation,
        dice=[{**die, "entered": False} for die in rolled.dice], total=rolled.total,
        detail={"text": rolled.text}, idempotency_key=idempotency_key, **gm_only_if(private).columns()))


def labelled(label: str | Said) -> dict:
    """A roll's label as kept: one a person typed, as typed; the app's (a Said) in English, and
    as the Said each reader reads in their language."""
    if isinstance(label, Said):
        return {"label": label.english()[:120], "said": label.as_data()}
    return {"label": label[:120]}


def record_roll(*, campaign: Campaign | int, by, kind: str, label: str | Said, faces, total: int,
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
        campaign_id=campaign_id, by=by, kind=kind, **labelled(label), dice=dice, total=total, success=success,
        probability=fraction_text(probability), detail=detail or {}, **seen.columns()))


def record_rolls_many(*, campaign_id: int, rolls: list[dict]) -> None:
    """Put many rolls in the feed at once (a downtime batch): one insert, one event.

    Each roll is a dict of Roll fields, with ``private`` for a roll the GM keeps.
    """
    if not rolls:
        return
    made = Roll.objects.bulk_create(
        Roll(campaign_id=campaign_id, **gm_only_if(roll.get("private", False)).columns(),
             **{k: v for k, v in roll.items() if k not in ("private", "label")}, **labelled(roll["label"]))
        for roll in rolls)
    changes = change_set(campaign=campaign_id)
    changes.changed(*made)
    # One event for the batch; GM-only if every roll in it is private.
    changes.publish(
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


# --- Checks rolled from a character's sheet or the check builder, and the Karma reroll ---------
#: A sheet's checks are Zener Gate checks whatever rule set the roller uses.
SHEET_SYSTEM = "zener"
MODIFIER_LIMIT = checks.MODIFIER_LIMIT
COUNT_LIMIT = checks.COUNT_LIMIT


def _roll_zener(target: int, dice_count: int, dice: list | None, rng, extra: int = 0) -> object:
    rule_set = get_system(SHEET_SYSTEM)
    try:
        return rule_set.roll(rng or _system_rng, dice, **rule_set.clean({"target": target, "dice": dice_count,
                                                                         "extra": extra}))
    except ParamError as exc:
        raise CampaignError(str(exc), field="extra" if exc.field == "extra" else "modifier") from None
    except RulesError as exc:
        raise CampaignError(str(exc), field="dice") from None


def _replayed_free(campaign: Campaign, by, key: str | None, *, notation: str) -> Roll | None:
    """A free roll (notation or a rule set's check) sent again with its key: the roll it made
    then, marked ``replayed``. Rolls of the same campaign queue on its row meanwhile, so two
    copies sent at once make one roll."""
    if not key:
        return None
    Campaign.objects.select_for_update(no_key=True).filter(pk=campaign.pk).first()
    done = _replayed(campaign.pk, key, same=lambda r: r.by_id == getattr(by, "pk", None) and r.notation == notation
                     and r.character_id is None)
    if done is not None:
        done.replayed = True
    return done


def _replayed(campaign_id: int, key: str | None, *, same) -> Roll | None:
    """The roll an earlier request with this idempotency key made, if ``same`` says it was this one."""
    if not key:
        return None
    done = Roll.objects.filter(campaign_id=campaign_id, idempotency_key=key).first()
    if done is not None and not same(done):
        raise CampaignConflict(_("That idempotency key was already used for another roll; send a new key."),
                               field="idempotency_key")
    return done


def rolled_odds(params: dict) -> Fraction:
    """The chance a sheet check had before it was rolled."""
    return get_system(SHEET_SYSTEM).odds(target=params["target"], dice=params["dice"],
                                         extra=params.get("extra", 0)).probability


def _sheet_roll_record(*, campaign_id: int, character: Character | None, by, params: dict, label: str | Said,
                       breakdown: list, dice: list | None, rng, private: bool, key: str | None,
                       reroll_of: Roll | None = None, eventual: dict | None = None, boost_end: int = 0) -> Roll:
    rolled = _roll_zener(params["target"], params["dice"], dice, rng, params.get("extra", 0))
    detail = {"breakdown": [[str(k), plain(v)] for k, v in breakdown],
              "margin": rolled.details.get("margin"), "critical": rolled.details.get("critical")}
    if boost_end:
        detail["boost_end"] = boost_end
    if eventual is not None and rolled.details.get("margin") is not None:
        detail["eventual"] = checks.eventual_time(rolled.details["margin"], **eventual).plain()
    return _publish(Roll.objects.create(
        campaign_id=campaign_id, by=by, kind=Roll.Kind.CHECK, **labelled(label), system=SHEET_SYSTEM,
        params=params, dice=_faces(rolled), total=rolled.total, success=rolled.success,
        probability=fraction_text(rolled_odds(params)),
        detail=detail, character=character, reroll_of=reroll_of, idempotency_key=key,
        **gm_only_if(private).columns()))


def _eventual(eventual: dict | None, situation: Situation) -> dict | None:
    """Check an eventual-success request: ``{"desired": margin, "normal": time, "unit": "hours"}``."""
    if eventual is None:
        return None
    if situation.time_taken is not None:
        raise CampaignError(_("Eventual success reads the time from the margin instead of extra time: leave the "
                              "time taken out."), field="time_taken")
    desired, normal, unit = eventual.get("desired", 0), eventual.get("normal", 1), str(eventual.get("unit") or "")
    if isinstance(desired, bool) or not isinstance(desired, int) or abs(desired) > 30:
        raise CampaignError(_("The desired margin is a whole number from −30 to 30."), field="desired_margin")
    try:
        normal = Fraction(normal)
    except (TypeError, ValueError):
        normal = Fraction(-1)
    if not 0 < normal <= 10**6:
        raise CampaignError(_("The normal time is a number above 0."), field="normal_time")
    return {"desired": desired, "normal": normal, "unit": unit.strip()[:20] or "hours"}


def _params(built: checks.Built, *, extra: int, eventual: dict | None) -> dict:
    return {"target": built.target, "dice": built.dice, "line": built.line, "modifier": built.situation.modifier,
            "check": built.check,
            **built.situation.given(), **({"extra": extra} if extra else {}),
            **({"eventual": {k: str(v) for k, v in eventual.items()}} if eventual else {})}


@transaction.atomic
def sheet_roll(*, character: Character, by, line: str, situation: Situation = Situation(), extra: int = 0,
               eventual: dict | None = None, dice: list | None = None, idempotency_key: str | None = None,
               private: bool = False, rng: random.Random | None = None, is_gm: bool = True) -> tuple[Roll, bool]:
    """Roll the check of one line of ``character``'s sheet (``stat:ACC``, ``skill:<id>``,
    ``weapon:<id>``, ``language:<id>:<aspect>``) in ``situation`` (``checks.line_built``); return
    (roll, made now).

    The target is the sheet's own, worked out now (worn armour, drugs and damage included); a
    request sent again with its idempotency key returns the first roll and rolls nothing.
    ``extra`` extra-benefit dice go on a check that cannot fail; ``eventual`` reads the margin
    as the time a sure success takes (``_eventual``). A player's typed ``dice`` (``is_gm=False``)
    follow the campaign's ``typed_dice``.
    """
    change_set(campaign=character.campaign_id, by=by)
    # One character's rolls queue here, so a request sent twice at once replays, never doubles.
    Character.objects.select_for_update(no_key=True).filter(pk=character.pk).first()
    done = _replayed(character.campaign_id, idempotency_key,
                     same=lambda r: r.character_id == character.pk and r.params.get("line") == line)
    if done is not None:
        return done, False
    typed_dice_check(character.campaign_id, is_gm=is_gm, dice=dice)
    built = checks.line_built(character_with_sheet(character_id=character.pk), line, situation)
    eventual = _eventual(eventual, situation)
    built.odds(extra)
    # Stimutabs' boosted STR costs 1 more END each time it is used ("Other Drugs and Medications").
    boost_end = pay_boosted_stat(character=character, by=by, stat=built.stat, what=said("a %(check)s check", check=built.check)) \
        if built.kind in ("stat", "skill") else 0
    roll = _sheet_roll_record(campaign_id=character.campaign_id, character=character, by=by,
                              params=_params(built, extra=extra, eventual=eventual), label=built.label,
                              breakdown=built.breakdown, dice=dice, rng=rng, private=private, key=idempotency_key,
                              eventual=eventual, boost_end=boost_end)
    return roll, True


@transaction.atomic
def built_roll(*, campaign: Campaign, by, built: checks.Built, extra: int = 0, eventual: dict | None = None,
               dice: list | None = None, idempotency_key: str | None = None, private: bool = False,
               rng: random.Random | None = None) -> tuple[Roll, bool]:
    """Roll a check the builder made without a sheet line (the party's collective stat, a target
    the GM names); return (roll, made now). The GM's surprise check is one of these, private."""
    change_set(campaign=campaign.pk, by=by)
    Campaign.objects.select_for_update(no_key=True).filter(pk=campaign.pk).first()
    done = _replayed(campaign.pk, idempotency_key,
                     same=lambda r: r.character_id is None and r.params.get("line") == built.line)
    if done is not None:
        return done, False
    eventual = _eventual(eventual, built.situation)
    built.odds(extra)
    roll = _sheet_roll_record(campaign_id=campaign.pk, character=None, by=by,
                              params=_params(built, extra=extra, eventual=eventual), label=built.label,
                              breakdown=built.breakdown, dice=dice, rng=rng, private=private, key=idempotency_key,
                              eventual=eventual)
    return roll, True


@transaction.atomic
def roll_reroll(*, roll: Roll, by, is_gm: bool, idempotency_key: str, dice: list | None = None,
                rng: random.Random | None = None) -> tuple[Roll, bool]:
    """Spend 1 Karma of the roll's character to roll a failed sheet check again ("Karma can be
    used to re-roll a failed roll"); return (the new roll, made now).

    The ledger entry and the new roll share the idempotency key: a second tap replays both and
    spends nothing. A roll is rerolled once; a failed reroll may be rerolled in its turn.
    """
    change_set(campaign=roll.campaign_id, by=by)
    if not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 100:
        raise CampaignError(_("Send an idempotency key (1–100 characters) with every reroll."),
                            field="idempotency_key")
    key = f"reroll:{idempotency_key}"
    original = Roll.objects.select_for_update(no_key=True, of=("self",)).select_related("character").get(pk=roll.pk)
    done = _replayed(original.campaign_id, key, same=lambda r: r.reroll_of_id == original.pk)
    if done is not None:
        return done, False
    typed_dice_check(original.campaign_id, is_gm=is_gm, dice=dice)
    if Roll.objects.filter(reroll_of=original).exists():
        raise CampaignConflict(_("This roll was rerolled already: the reroll is the roll after it."), field="roll")
    if original.character is None or original.system != SHEET_SYSTEM or "line" not in original.params:
        raise CampaignConflict(_("Only a check rolled from a character's sheet is rerolled with Karma here."),
                               field="roll")
    if original.success is not False:
        raise CampaignConflict(_("Only a failed roll is rerolled."), field="roll")
    character = original.character
    karma_spend(character=character, kind="reroll", idempotency_key=idempotency_key, by=by, is_gm=is_gm,
                params={"reason": said("reroll: %(label)s", label=kept(original.label, original.said))})
    check = line_check(character_with_sheet(character_id=character.pk), original.params["line"])
    boost_end = pay_boosted_stat(character=character, by=by, stat=check.stat,
                                 what=said("a %(check)s check", check=check.label)) if check and check.kind in ("stat", "skill") else 0
    eventual = original.params.get("eventual")
    new = _sheet_roll_record(campaign_id=original.campaign_id, character=character, by=by,
                             params=dict(original.params),
                             label=said("%(name)s: %(check)s check (Karma reroll)", name=character.name,
                                        check=original.params.get("check", "")),
                             breakdown=original.detail.get("breakdown", []), dice=dice, rng=rng,
                             private=original.gm_only, key=key, reroll_of=original,
                             eventual={"desired": int(eventual["desired"]), "normal": Fraction(eventual["normal"]),
                                       "unit": eventual["unit"]} if eventual else None, boost_end=boost_end)
    return new, True
