"""Blows in the other rule sets' fights: an attack (ZeroSpace, Success Check) or a combat round
(Rocket House), its exact odds before the roll, what it leaves on each side, and its undo.

The rulebook resolves the blow (``rulebook.systems.exchanges``); this module finds each side's
numbers and condition (a sheet's, or an NPC's kept on the fight), locks the sheets it changes,
spends the resources the blow used through their ledger (Edge, the Strength Effect pool), keeps
the blow with the conditions before and after, and tells the fight's and the sheets' pages.

Dice typed at the table come in the order the rulebook function names; none typed, the server
rolls. A blow sent again with its idempotency key answers with the first one, changing nothing.
Undo takes back the fight's last blow, all or nothing: the conditions come back through the
change set's one undo (refused when a sheet changed since), and the points spent are given back
as ledger entries.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import reduce

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaign.changes import Recorded, change_set, undo
from campaign.errors import CampaignConflict, CampaignError
from characters.events import SystemSheetChanged
from characters.models import SystemSheet
from characters.system_sheets import move_pool
from rulebook import RulesError
from rulebook.systems import core_rules, exchanges, get_system, rocket_house
from rulebook.systems.base import ParamError
from rulebook.systems.sheets import SPEND, UNDO, spec_for
from rulebook.words import said

from .events import SystemFightChanged
from .models import SystemFight
from .selectors import blow_view
from .system_fights import Side, own_fighters

#: What each system's blow takes, besides who strikes whom; every value a whole number unless said.
INPUTS = {
    "zerospace": ("av", "dv", "bonus_dice", "defense_dice", "plot_point", "dice"),
    "success_check": ("bonus", "tn", "advantage", "edge_advantage", "edge_damage", "drop", "weapon_dice",
                      "modifier", "pt", "dr", "check_dice", "damage_dice"),
    "rocket_house": ("first_skill", "second_skill", "first_weapon", "second_weapon", "first_armour",
                     "second_armour", "first_stance", "second_stance", "first_strength", "second_strength",
                     "first_toughness", "second_toughness", "less_lethal", "dice"),
    # A declared action: the ARC against the threshold (no damage track in chapter V).
    "core_rules": ("ks", "us", "es", "threshold", "other", "dice"),
}
#: The line of the attacker's (and, in Rocket House, the defender's) sheet a blow may name instead.
LINE_INPUT = {"zerospace": ("av", None), "success_check": ("bonus", None),
              "rocket_house": ("first_skill", "second_skill"), "core_rules": (None, None)}
#: A resource a blow spends: (the input, the pool, what the point buys, the side that pays).
SPENDS = {
    "zerospace": (("plot_point", "plot_points", "bonus die", "first"),),
    "success_check": (("edge_advantage", "edge", "advantage", "first"),
                      ("edge_damage", "edge", "+1d6 damage", "first")),
    "rocket_house": (("first_strength", "strength_effect", "melee damage", "first"),
                     ("second_strength", "strength_effect", "melee damage", "second"),
                     ("first_toughness", "toughness_armour", "armour", "first"),
                     ("second_toughness", "toughness_armour", "armour", "second")),
    "core_rules": (),
}
MAX_BLOWS = 500
#: A pool in a refusal's words (the pool's key with spaces, as the refusal always said it).
POOL_WORDS = {"plot_points": gettext_lazy("plot points"), "edge": gettext_lazy("edge"),
              "strength_effect": gettext_lazy("strength effect"), "toughness_armour": gettext_lazy("toughness armour")}


def _rules(call, **kwargs):
    try:
        return call(**kwargs)
    except ParamError as exc:
        raise CampaignError(str(exc), field=f"inputs.{exc.field}") from None
    except RulesError as exc:
        raise CampaignError(str(exc), field="inputs") from None


def _clean_inputs(system: str, raw: object, attacker: Side, target: Side) -> dict:
    if not isinstance(raw, Mapping):
        raise CampaignError(_("Give the blow's inputs as named values."), field="inputs")
    allowed = set(INPUTS[system]) | {"line", "target_line"}
    unknown = sorted(str(key) for key in raw if key not in allowed)
    if unknown:
        raise CampaignError(_("Unknown input %(name)s: use %(inputs)s.") % {"name": repr(unknown[0]),
                                                                          "inputs": ", ".join(sorted(allowed))},
                            field="inputs")
    inputs = {key: value for key, value in raw.items() if value is not None and value != ""}
    first_line, second_line = LINE_INPUT[system]
    if "line" in inputs and first_line is None:  # a Core Rules line carries its KS, US and ES: typed ones win
        inputs = {**attacker.line_inputs(inputs.pop("line"), "inputs.line"), **inputs}
    elif "line" in inputs:
        inputs[first_line] = attacker.line(inputs.pop("line"), "inputs.line")
    if "target_line" in inputs:
        if second_line is None:
            raise CampaignError(_("Only a Rocket House round takes the defender's line."), field="inputs.target_line")
        inputs[second_line] = target.line(inputs.pop("target_line"), "inputs.target_line")
    for key, value in inputs.items():
        if key.endswith("dice") and key not in ("bonus_dice", "defense_dice", "weapon_dice"):
            continue  # typed faces: the rulebook checks them
        if key.endswith("stance"):
            if value not in rocket_house.STANCES:
                raise CampaignError(_("A stance is one of %(stances)s.") % {"stances": ", ".join(rocket_house.STANCES)},
                                    field=f"inputs.{key}")
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise CampaignError(_("%(input)s must be a whole number.") % {"input": key}, field=f"inputs.{key}")
    return inputs


#: What a blow cannot go without, in the words of its form.
NEEDED = {"av": gettext_lazy("the attack value (AV)"), "dv": gettext_lazy("the defence value (DV)"),
          "bonus": gettext_lazy("the skill bonus"), "tn": gettext_lazy("the target number"),
          "weapon_dice": gettext_lazy("the weapon's d6"), "modifier": gettext_lazy("the damage modifier"),
          "first_skill": gettext_lazy("the first fighter's combat Trait"),
          "second_skill": gettext_lazy("the second fighter's combat Trait"),
          "ks": gettext_lazy("the KS score"), "us": gettext_lazy("the US score"), "es": gettext_lazy("the ES score")}


def _needed(keys) -> str:
    """What a blow goes without, in the words of its form: "the AV and the DV" (and so on)."""
    return reduce(lambda said, word: _("%(said)s and %(word)s") % {"said": said, "word": word},
                  [str(NEEDED[key]) for key in keys])


def _resolve(system: str, inputs: dict, attacker: Side, target: Side, rulings: dict,
             rng: random.Random | None, *, is_gm: bool = True) -> exchanges.Blow:
    """Resolve the blow with the rulebook; armour not typed comes from the sheets, and so does a
    ZeroSpace defender's DV (an NPC's from the GM's numbers, which a striking player never sees)."""
    if system == "zerospace" and "dv" not in inputs and target.numbers.get("dv"):
        inputs = {**inputs, "dv": target.numbers["dv"]}
    need = {"zerospace": ("av", "dv"), "success_check": ("bonus", "tn", "weapon_dice", "modifier"),
            "rocket_house": ("first_skill", "second_skill"), "core_rules": ("ks", "us", "es")}[system]
    missing = [key for key in need if key not in inputs]
    if missing:
        said = _needed(missing)
        if missing == ["dv"] and not is_gm and target.sheet is None:
            raise CampaignError(_("%(name)s's DV is the GM's, and the GM has not given it yet: ask the GM.")
                                % {"name": target.name}, field="inputs.dv")
        if missing == ["dv"]:
            raise CampaignError(_("Type %(what)s: %(name)s has none on their numbers; type it, or the GM gives it.")
                                % {"what": said, "name": target.name}, field=f"inputs.{missing[0]}")
        raise CampaignError(_("Type %(what)s.") % {"what": said}, field=f"inputs.{missing[0]}")
    if system == "core_rules":
        return _rules(exchanges.core_rules_action, ks=inputs["ks"], us=inputs["us"], es=inputs["es"],
                      threshold=inputs.get("threshold", core_rules.AVERAGE_THRESHOLD), other=inputs.get("other", 0),
                      es_dice=rulings.get("es_dice", core_rules.PAIRS), rng=rng, dice=inputs.get("dice"))
    if system == "zerospace":
        return _rules(exchanges.zerospace_attack, av=inputs["av"], dv=inputs["dv"],
                      bonus_dice=inputs.get("bonus_dice", 0), defense_dice=inputs.get("defense_dice", 0),
                      plot_point=inputs.get("plot_point", 0),
                      attacker=attacker.condition, target=target.condition, attacker_numbers=attacker.numbers,
                      target_numbers=target.numbers, rng=rng, dice=inputs.get("dice"),
                      **{k: v for k, v in rulings.items() if k in ("margin_of_success", "bonus_dice_mode")})
    if system == "success_check":
        return _rules(exchanges.success_check_attack, bonus=inputs["bonus"], tn=inputs["tn"],
                      weapon_dice=inputs["weapon_dice"], modifier=inputs["modifier"],
                      pt=inputs.get("pt", target.numbers["pt"]), dr=inputs.get("dr", target.numbers["dr"]),
                      advantage=inputs.get("advantage", 0), edge_advantage=inputs.get("edge_advantage", 0),
                      edge_damage=inputs.get("edge_damage", 0), drop=inputs.get("drop", 0),
                      advantage_drop=rulings.get("advantage_drop", 0), target=target.condition,
                      target_numbers=target.numbers, rng=rng, check_dice=inputs.get("check_dice"),
                      damage_dice=inputs.get("damage_dice"))
    try:
        first, second = _rocket_fighters(inputs, attacker, target)
    except RulesError as exc:
        raise CampaignError(str(exc), field="inputs") from None
    return _rules(exchanges.rocket_house_round, first=first, second=second, first_condition=attacker.condition,
                  second_condition=target.condition, first_numbers=attacker.numbers, second_numbers=target.numbers,
                  first_strength=inputs.get("first_strength", 0), second_strength=inputs.get("second_strength", 0),
                  first_toughness=inputs.get("first_toughness", 0), second_toughness=inputs.get("second_toughness", 0),
                  damage_mode=rulings.get("damage_mode", 0),
                  less_lethal=bool(inputs.get("less_lethal", 0)), effect_tie=rulings.get("effect_tie", 0), rng=rng,
                  dice=inputs.get("dice"), names=(attacker.name, target.name))


def _rocket_fighters(inputs: dict, attacker: Side, target: Side) -> tuple[rocket_house.Fighter, rocket_house.Fighter]:
    """Both sides of a Rocket House round: the combat Trait less the worst wound's penalty, the
    weapon, the armour (the sheet's unless typed) and the stance."""
    return tuple(rocket_house.Fighter(inputs[f"{side}_skill"] + _penalty(who), inputs.get(f"{side}_weapon", 0),
                                      inputs.get(f"{side}_armour", who.numbers["armour"]),
                                      inputs.get(f"{side}_stance", "normal"))
                 for side, who in (("first", attacker), ("second", target)))


def _penalty(side: Side) -> int:
    """Rocket House: the worst wound's penalty applies to every action, the combat test too."""
    wounds = [rocket_house.WOUNDS_BY_NAME[name] for name in side.condition.get("wounds", [])]
    return rocket_house.wound_penalty(wounds)


def _sides(fight: SystemFight, attacker: object, target: object, changes=None) -> tuple[Side, Side]:
    if attacker == target:
        raise CampaignError(_("A fighter does not strike themself."), field="target")
    first, second = Side.of(fight, [attacker, target], changes, fields=("attacker", "target"))
    return first, second


def blow_preview(*, fight: SystemFight, attacker: object, target: object, inputs: object,
                 is_gm: bool = True) -> dict:
    """The blow's exact odds before the roll, with what each input comes to (no dice, no write).
    A ZeroSpace NPC's DV, not typed, counts only for the GM: odds against it would tell a player
    the GM's number."""
    sides = _sides(fight, attacker, target)
    if fight.system not in INPUTS:
        raise CampaignConflict(_no_blows(fight), field="fight")
    cleaned = _clean_inputs(fight.system, inputs, *sides)
    if fight.system == "zerospace" and not is_gm and sides[1].sheet is None:
        # As when striking, an NPC's DV is the GM's whatever a player types: no odds against it.
        raise CampaignError(_("%(name)s's DV is the GM's: strike, and the tracker rolls against it.")
                            % {"name": sides[1].name}, field="inputs.dv")
    if fight.system == "zerospace" and "dv" not in cleaned and sides[1].numbers.get("dv"):
        cleaned["dv"] = sides[1].numbers["dv"]
    cleaned = {k: v for k, v in cleaned.items() if not (k.endswith("dice") and k not in
                                                          ("bonus_dice", "defense_dice", "weapon_dice"))}
    odds = _odds(fight.system, cleaned, *sides, fight.rulings())
    return {"attacker": attacker, "target": target, **odds}


def _odds(system: str, inputs: dict, attacker: Side, target: Side, rulings: dict) -> dict:
    from rulebook.systems import success_check, zerospace

    if system == "zerospace":
        need = ("av", "dv")
    elif system == "success_check":
        need = ("bonus", "tn")
    elif system == "core_rules":
        need = ("ks", "us", "es")
    else:
        need = ("first_skill", "second_skill")
    missing = [key for key in need if key not in inputs]
    if missing:
        raise CampaignError(_("Type %(what)s for the odds.") % {"what": _needed(missing)},
                            field=f"inputs.{missing[0]}")
    try:
        if system == "core_rules":
            odds = core_rules.check_odds(inputs["ks"], inputs["us"], inputs["es"],
                                         inputs.get("threshold", core_rules.AVERAGE_THRESHOLD), inputs.get("other", 0),
                                         es_dice=rulings.get("es_dice", core_rules.PAIRS))
            return {"hit": odds.probability, "says": _("chance of success")}
        if system == "zerospace":
            bonus = inputs.get("bonus_dice", 0) + (1 if inputs.get("plot_point") else 0) + exchanges.tired_dice(
                attacker.condition, attacker.numbers)
            odds = zerospace.opposed_odds(inputs["av"], inputs["dv"], bonus, inputs.get("defense_dice", 0),
                                          bonus_dice_mode=rulings.get("bonus_dice_mode", zerospace.ADD_DICE))
            return {"hit": odds.probability, "says": _("chance to hit")}
        if system == "success_check":
            odds = success_check.check_odds(inputs["bonus"], inputs["tn"], inputs.get("advantage", 0),
                                            inputs.get("edge_advantage", 0),
                                            advantage_drop=rulings.get("advantage_drop", 0))
            return {"hit": odds.probability, "says": _("chance to hit")}
        first, second = _rocket_fighters(inputs, attacker, target)
        odds = rocket_house.combat_odds(first, second, effect_tie=rulings.get("effect_tie", 0))
    except (RulesError, ParamError) as exc:
        raise CampaignError(str(exc), field="inputs") from None
    return {"hit": odds.second_hurt, "says": _("chance %(name)s takes damage") % {"name": target.name},
            "hurt_back": odds.first_hurt}


def _no_blows(fight: SystemFight) -> str:
    return _("This fight takes no blows.")


@transaction.atomic
def system_fight_blow(*, fight: SystemFight, by, is_gm: bool, attacker: object, target: object, inputs: object,
                      idempotency_key: object = None, rng: random.Random | None = None) -> tuple[dict, bool]:
    """Strike: resolve the blow, land it on both sides, spend what it used. Return (blow, created)."""
    changes = change_set(campaign=fight.campaign_id, by=by)
    fight = changes.lock(SystemFight.objects.filter(pk=fight.pk))[0]
    if idempotency_key is not None and (not isinstance(idempotency_key, str)
                                        or not 1 <= len(idempotency_key) <= 100):
        raise CampaignError(_("The idempotency key is a string of 1–100 characters."), field="idempotency_key")
    if idempotency_key:
        for blow in fight.blows:
            if blow.get("key") == idempotency_key:
                if (blow["attacker"], blow["target"]) != (attacker, target):
                    raise CampaignConflict(_("That idempotency key was already used for another blow; send a new "
                                             "key for a new request."), field="idempotency_key")
                return blow_view(blow, fight, is_gm=is_gm), False
    if fight.system not in INPUTS:
        raise CampaignConflict(_no_blows(fight), field="fight")
    if fight.ended:
        raise CampaignConflict(_("This fight is over."))
    if len(fight.blows) >= MAX_BLOWS:
        raise CampaignConflict(_("A fight keeps at most %(most)s blows: start a new one.") % {"most": MAX_BLOWS})
    if not is_gm and attacker not in own_fighters(fight, by):
        raise PermissionDenied(_("A player strikes with their own character; the GM runs the rest."))
    first, second = _sides(fight, attacker, target, changes)
    if exchanges.standing(fight.system, first.condition, first.numbers,
                          damage_mode=fight.rulings().get("damage_mode", 0))["state"] != "fighting":
        raise CampaignConflict(_("%(name)s is out of the fight.") % {"name": first.name}, field="attacker")
    inputs = _clean_inputs(fight.system, inputs, first, second)
    if fight.system == "zerospace" and not is_gm and second.sheet is None:
        # An NPC's DV is the GM's number: a striking player types only their own side.
        inputs = {key: value for key, value in inputs.items() if key != "dv"}
    rulings = fight.rulings()
    spent_pools = _check_pools(fight.system, inputs, first, second)
    result = _resolve(fight.system, inputs, first, second, rulings, rng, is_gm=is_gm)
    before, after, landed = {}, {}, []
    for side_key, side in (("first", first), ("second", second)):
        if side_key not in result.conditions:
            continue
        new = result.conditions[side_key]
        if side.sheet is not None:
            changes.watch(side.sheet, ("condition",))
            before[f"sheet:{side.sheet.pk}"] = side.sheet.condition
            side.sheet.condition = new
            side.sheet._change_reason = f"by {by}: {fight.name}"
            side.sheet.save(update_fields=["condition", "updated_at"])
            after[f"sheet:{side.sheet.pk}"] = new
            landed.append(side.sheet.pk)
        else:
            npc = fight.npcs.get(side.name, {})
            before[f"npc:{side.name}"] = npc.get("condition")
            fight.npcs = {**fight.npcs, side.name: {**npc, "condition": new}}
            after[f"npc:{side.name}"] = new
    entries = _spend(fight, result, spent_pools, first, second, by)
    public = result.public or result.summary
    # The words as kept (English) and as told (Saids, each reader's language: combat.selectors).
    blow = {"n": len(fight.blows) + 1, "attacker": attacker, "target": target, "summary": result.summary.english(),
            "said": result.summary.as_data(), "public": public.english(), "public_said": public.as_data(),
            "breakdown": [[str(label), _plain(value)] for label, value in result.breakdown],
            "dice": [dict(d) for d in result.dice], "probability": f"{float(result.probability) * 100:.1f} %",
            "key": idempotency_key or None, "before": before, "after": after, "entries": entries,
            "struck_by": getattr(by, "username", ""), "undone": False}
    fight.blows = [*fight.blows, blow]
    fight.save(update_fields=["blows", "npcs"])
    changes.audit("fight.blow", said("%(fight)s: %(attacker)s against %(target)s: %(blow)s", fight=fight.name,
                                     attacker=attacker, target=target, blow=result.summary),
                  data={"fight": fight.pk, "blow": blow["n"]})
    changes.publish(SystemFightChanged(fight=fight.pk),
                    *([SystemSheetChanged(sheets=landed + [e["sheet"] for e in entries])]
                      if landed or entries else []))
    return blow_view(blow, fight, is_gm=is_gm), True


def _plain(value: object) -> object:
    if isinstance(value, (int, str)) or value is None:
        return value
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return str(value)


def _check_pools(system: str, inputs: dict, first: Side, second: Side) -> list[tuple[Side, str, str, int]]:
    """The resources the blow asks to use, checked before it is rolled: (side, pool, use, points)."""
    asked = []
    for key, pool, use, side_key in SPENDS.get(system, ()):
        points = inputs.get(key, 0)
        if system in ("success_check", "zerospace"):
            points = 1 if points else 0  # a point of Edge or a plot point, or none
        if not points:
            continue
        side = first if side_key == "first" else second
        if side.sheet is None:
            raise CampaignError(_("%(name)s is an NPC: NPCs have no %(pool)s to spend.")
                                % {"name": side.name, "pool": POOL_WORDS.get(pool) or pool.replace("_", " ")},
                                field=f"inputs.{key}")
        asked.append((side, pool, use, points))
    for side in {id(a[0]): a[0] for a in asked}.values():
        for pool in {a[1] for a in asked if a[0] is side}:
            need = sum(a[3] for a in asked if a[0] is side and a[1] == pool)
            if int(side.sheet.pools.get(pool, 0)) < need:
                label = spec_for(side.sheet.system).pool(pool).label
                raise CampaignConflict(_("%(name)s has %(left)s %(pool)s left; the blow asks for %(need)s.")
                                       % {"name": side.name, "left": side.sheet.pools.get(pool, 0), "pool": _(label),
                                          "need": need}, field="inputs")
    return asked


def _spend(fight, result: exchanges.Blow, asked, first: Side, second: Side, by) -> list[dict]:
    """Write the points the blow used to each sheet's ledger (Edge for damage only on a hit,
    the Strength Effect only when that side struck)."""
    entries = []
    used = dict(result.spent)
    for side, pool, use, points in asked:
        key = f"{'first' if side is first else 'second'}.{pool}"
        points = min(points, used.get(key, 0))
        if not points:
            continue
        used[key] -= points
        entry = move_pool(side.sheet, pool=pool, to=int(side.sheet.pools.get(pool, 0)) - points, action=SPEND,
                          use=use, by=by)
        entries.append({"sheet": side.sheet.pk, "pool": pool, "points": points, "entry": entry.pk})
    return entries


@transaction.atomic
def system_fight_undo(*, fight: SystemFight, by, is_gm: bool) -> dict:
    """Take back the fight's last blow not yet undone: conditions and NPCs as before, points given back."""
    changes = change_set(campaign=fight.campaign_id, by=by)
    if not is_gm:
        raise PermissionDenied(_("The GM undoes a blow."))
    fight = changes.lock(SystemFight.objects.filter(pk=fight.pk))[0]
    blow = next((b for b in reversed(fight.blows) if not b["undone"]), None)
    if blow is None:
        raise CampaignConflict(_("No blow to undo."))
    if "before" not in blow:
        raise CampaignConflict(_("This blow came with an imported campaign: it is a record, and cannot be undone."))
    sheets = {int(key.split(":")[1]): value for key, value in blow["before"].items() if key.startswith("sheet:")}

    def refuse(names):
        return CampaignConflict(_("Cannot undo: %(names)s changed since (another blow, a rest, healing). Undo those "
                                  "first or correct the sheet by hand.") % {"names": ", ".join(names)})

    undo([Recorded(SystemSheet, pk, {"condition": value}, {"condition": blow["after"][f"sheet:{pk}"]})
          for pk, value in sheets.items()], refuse=refuse)
    npcs = dict(fight.npcs)
    for key, value in blow["before"].items():
        if key.startswith("npc:"):
            name = key[4:]
            npcs[name] = {**npcs.get(name, {}), "condition": value}
    refunded = []
    for spent in blow["entries"]:
        sheet = changes.lock(SystemSheet.objects.filter(pk=spent["sheet"]))
        if not sheet:
            continue
        sheet = sheet[0]
        move_pool(sheet, pool=spent["pool"], to=int(sheet.pools.get(spent["pool"], 0)) + spent["points"],
                  action=UNDO, by=by)
        refunded.append(sheet.pk)
    fight.npcs = npcs
    fight.blows = [{**b, "undone": True} if b["n"] == blow["n"] else b for b in fight.blows]
    fight.save(update_fields=["blows", "npcs"])
    changes.audit("fight.undo", said("%(fight)s: undid blow %(n)s (%(attacker)s against %(target)s)",
                                     fight=fight.name, n=blow["n"], attacker=blow["attacker"], target=blow["target"]),
                  data={"fight": fight.pk, "blow": blow["n"]})
    touched = sorted(set(sheets) | set(refunded))
    changes.publish(SystemFightChanged(fight=fight.pk), *([SystemSheetChanged(sheets=touched)] if touched else []))
    return blow_view({**blow, "undone": True})

