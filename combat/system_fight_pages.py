"""The pages of the other rule sets' fights: the list with a form to start one, and the fight.

The start form lists the campaign's sheets, each with a box for its perception total, and a few
rows for NPCs; a row left without a total stays out of the fight.
"""

from __future__ import annotations

import uuid

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from campaign.events import last_event_id
from campaign.models import Membership
from campaign.permissions import access_campaign
from characters.selectors import system_sheet_list
from rulebook.systems import get_system, rocket_house
from rulebook.systems.sheets import spec_for
from zenergate_site.errors import DomainError

from . import selectors, system_blows, system_fights
from .permissions import access_system_fight
from zenergate_site.numbers import percent as percent_text

NPC_ROWS = 4
#: The start form's boxes that order each fighter, by system: (key, label).
ORDER_COLUMNS = {
    "zerospace": (("total", _("Perception total")), ("action_value", _("Intelligence AV"))),
    "success_check": (("total", _("Order roll")),),
    "rocket_house": (("total", _("Order roll")),),
    "core_rules": (("som", "SOM"), ("empathy", _("Empathy")), ("perception", _("Perception"))),
}
#: The sheet numbers an NPC brings to a fight, by system (the rest take their defaults).
NPC_NUMBERS = {
    "zerospace": ("brawn", "presence", "dv"),
    "success_check": ("health", "pt", "dr"),
    "rocket_house": ("toughness", "armour"),
    "core_rules": (),
}


def _number(text: str):
    text = (text or "").strip()
    try:
        return int(text) if text else None
    except ValueError:
        return text  # the service names it as not a whole number


def _typed_fighters(post, sheets, system: str) -> list[dict]:
    """The start form's rows: a sheet fights once its order box is filled (Core Rules: ticked),
    an NPC once it has a name."""
    columns = [key for key, _label in ORDER_COLUMNS.get(system, (("total", ""),))]  # Zener Gate: the service says no
    core = system == "core_rules"
    fighters = []
    for sheet in sheets:
        prefix = f"sheet-{sheet.pk}"
        values = {key: _number(post.get(f"{prefix}-{key}", "")) for key in columns}
        if (core and post.get(f"{prefix}-in")) or (not core and values[columns[0]] is not None):
            entry = {"sheet": sheet.pk, **{k: v for k, v in values.items() if v is not None}}
            if core:
                entry["aware"] = not post.get(f"{prefix}-surprised")
            fighters.append(entry)
    for index in range(NPC_ROWS):
        prefix = f"npc-{index}"
        name = (post.get(f"{prefix}-name") or "").strip()
        values = {key: _number(post.get(f"{prefix}-{key}", "")) for key in columns}
        if name or any(v is not None for v in values.values()):
            entry = {"name": name, **{k: v for k, v in values.items() if v is not None}}
            numbers = {key: _number(post.get(f"{prefix}-n-{key}", "")) for key in NPC_NUMBERS[system]}
            entry["numbers"] = {k: v for k, v in numbers.items() if v is not None}
            if core:
                entry["aware"] = not post.get(f"{prefix}-surprised")
            elif not core and "total" not in entry:
                entry["total"] = None  # the service asks for it by name
            fighters.append(entry)
    return fighters


@login_required
@require_http_methods(["GET", "POST"])
def system_fight_list(request, campaign_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=request.method == "POST")
    campaign = access.campaign
    sheets = list(system_sheet_list(campaign_id=campaign.pk).filter(system=campaign.rule_set))
    error, status = "", 200
    if request.method == "POST":
        try:
            fight = system_fights.system_fight_start(campaign=campaign, by=request.user,
                                                     name=request.POST.get("name", ""),
                                                     fighters=_typed_fighters(request.POST, sheets,
                                                                              campaign.rule_set))
        except DomainError as exc:
            error, status = str(exc), exc.status_code
        else:
            return redirect("system-fight", fight.pk)
    gms = set(campaign.memberships.filter(role=Membership.Role.GM).values_list("user_id", flat=True))
    # Every player's sheet comes ticked into a Core Rules fight (the GM's own sheets are NPCs' to add);
    # a refused start keeps what was ticked.
    ticked = ({s.pk for s in sheets if request.POST.get(f"sheet-{s.pk}-in")} if request.method == "POST"
              else {s.pk for s in sheets if s.owner_id not in gms})
    context = {"campaign": campaign, "access": access, "sheets": sheets, "npc_rows": range(NPC_ROWS),
               "ticked": ticked,
               "fights": list(selectors.system_fight_list(campaign_id=campaign.pk)), "error": error,
               "runs_fights": campaign.rule_set in system_fights.FIGHT_SYSTEMS,
               "columns": ORDER_COLUMNS.get(campaign.rule_set, ()), "core": campaign.rule_set == "core_rules",
               "sheet_rows": [(sheet, [(key, label, sheet.numbers.get(key, "") if campaign.rule_set == "core_rules"
                                        else "") for key, label in ORDER_COLUMNS.get(campaign.rule_set, ())])
                              for sheet in sheets],
               "npc_numbers": [spec_for(campaign.rule_set).number(key)
                               for key in NPC_NUMBERS.get(campaign.rule_set, ())],
               "rule_set_name": get_system(campaign.rule_set).name, "posted": request.POST}
    return render(request, "combat/system_fights.html", context, status=status)


#: The blow form's boxes by system: (input, label, kind, help); kind "n" a number, "faces" typed dice,
#: "flag" a tick box, "stance" Rocket House's stances.
BLOW_FIELDS = {
    "zerospace": (("av", _("Attack value (AV)"), "n", _("your attribute plus the equipment's rating")),
                  ("dv", _("Defence value (DV)"), "n", _("empty: the target's own (an NPC's is the GM's)")),
                  ("bonus_dice", _("Bonus dice (− for penalty dice)"), "n", ""),
                  ("defense_dice", _("Defender's bonus dice"), "n", ""),
                  ("plot_point", _("Spend a plot point for a bonus die"), "flag", ""),
                  ("dice", _("Dice rolled"), "faces", _("the attacker's d6s, then the defender's"))),
    "success_check": (("bonus", _("Skill bonus"), "n", ""), ("tn", _("Target number"), "n", _("20 is moderate")),
                      ("advantage", _("Advantage (− for Disadvantage)"), "n", ""),
                      ("edge_advantage", _("Spend Edge for Advantage"), "flag", ""),
                      ("weapon_dice", _("Weapon d6"), "n", _("a light pistol: 2")),
                      ("modifier", _("Damage modifier"), "n", _("Strength, or the weapon's")),
                      ("edge_damage", _("Spend Edge for +1d6 damage (on a hit)"), "flag", ""),
                      ("pt", _("Armour PT"), "n", _("empty: the target's sheet")),
                      ("dr", _("Armour DR %"), "n", _("empty: the target's sheet")),
                      ("check_dice", _("Check dice"), "faces", _("2 or 3 d10")),
                      ("damage_dice", _("Damage dice"), "faces", _("the d6s, on a hit"))),
    "rocket_house": (("first_skill", _("First's combat Trait %"), "n", ""),
                     ("second_skill", _("Second's combat Trait %"), "n", ""),
                     ("first_weapon", _("First's weapon Effect"), "n", _("great sword +4")),
                     ("second_weapon", _("Second's weapon Effect"), "n", ""),
                     ("first_armour", _("First's armour"), "n", _("empty: the sheet's")),
                     ("second_armour", _("Second's armour"), "n", _("empty: the sheet's")),
                     ("first_stance", _("First's stance"), "stance", ""),
                     ("second_stance", _("Second's stance"), "stance", ""),
                     ("first_strength", _("First spends Strength Effect"), "n", _("added on a melee hit")),
                     ("second_strength", _("Second spends Strength Effect"), "n", _("added on a melee hit")),
                     ("first_toughness", _("First spends Toughness armour"), "n", _("taken off a hit")),
                     ("second_toughness", _("Second spends Toughness armour"), "n", _("taken off a hit")),
                     ("less_lethal", _("Less-lethal weapons"), "flag", _("no kill, no bleeding")),
                     ("dice", _("Dice rolled"), "faces", _("the first's d100, the second's, then Toughness checks"))),
}
BLOW_FIELDS["core_rules"] = (
    ("ks", _("KS score"), "n", _("the key stat")), ("us", _("US score"), "n", _("the stat that helps")),
    ("es", _("ES score"), "n", _("the skill: it picks the die")),
    ("threshold", _("Threshold"), "n", _("the ARC must beat it; empty: 9, average")),
    ("other", _("Other adjustments"), "n", _("+1 per advantage, −1 per disadvantage")),
    ("dice", _("ES die rolled"), "faces", _("the face, if rolled at the table")))
BLOW_HELP = {
    "zerospace": _("2d6 + AV against 2d6 + DV; a hit costs the target Endurance."),
    "success_check": _("2d10 + skill against the target number; a hit rolls damage through the target's "
                       "PT/DR."),
    "rocket_house": _("Both roll their combat Trait; the higher Effect wins and deals its net Effect plus "
                      "weapon, less armour, as Fatigue and maybe a wound."),
    "core_rules": _("The declared action: KS + US + the ES die's adjustment + other adjustments must beat "
                    "the threshold. The chapter gives no damage: the GM says what the action did."),
}


def _blow_inputs(post, system: str) -> dict:
    """The blow form's boxes as the service takes them (empty boxes left out)."""
    inputs = {}
    for key, _label, kind, _help in BLOW_FIELDS[system]:
        raw = (post.get(key) or "").strip()
        if kind == "flag":
            if raw:
                inputs[key] = 1
        elif kind == "faces":
            if raw:
                faces = raw.replace(",", " ").split()
                inputs[key] = [int(f) if f.isdigit() else f for f in faces]
        elif kind == "stance":
            if raw:
                inputs[key] = raw
        elif raw:
            inputs[key] = _number(raw)
    return inputs


def _blow_form(fight, view, access, mine, post=None) -> dict | None:
    from .system_blows import INPUTS

    if fight.system not in INPUTS:
        return None
    attackers = [f["name"] for f in view["order"] if access.is_gm or f["name"] in mine]
    if not attackers:
        return None
    post = post or {}
    fields = []
    wounds_only = fight.rulings().get("damage_mode", 0) == rocket_house.WOUNDS_ONLY
    for key, label, kind, help_text in BLOW_FIELDS[fight.system]:
        if key.endswith("_toughness") and not wounds_only:
            continue  # Toughness is armour only under the Wounds Only rule
        value = (post.get(key) or "").strip() if post else ""
        fields.append({"key": key, "label": label, "help": help_text, "faces": kind == "faces",
                       "flag": kind == "flag", "choices": rocket_house.STANCES if kind == "stance" else None,
                       "value": value or None})
    acting = view.get("acting")
    attacker = post.get("attacker") or (acting if acting in attackers else attackers[0])
    target = post.get("target") or next((f["name"] for f in view["order"] if f["name"] != attacker), "")
    return {"attackers": attackers, "fields": fields, "help": BLOW_HELP[fight.system], "attacker": attacker,
            "target": target}


def _fight_page(request, fight, access, *, error: str = "", blow_error: str = "", status: int = 200, post=None,
                odds=None):
    view = selectors.system_fight_view(fight=fight, is_gm=access.is_gm)
    mine = set() if access.is_gm else system_fights.own_fighters(fight, request.user)
    if odds is not None:
        odds = {**odds, "percent": percent_text(odds["hit"]),
                "hurt_back_percent": percent_text(odds["hurt_back"]) if "hurt_back" in odds else ""}
    context = {"fight": fight, "campaign": fight.campaign, "access": access, "view": view, "mine": mine,
               "error": error, "blow_error": blow_error, "system_name": get_system(fight.system).name, "core": fight.system == "core_rules",
               "has_live_blow": any(not b["undone"] for b in view["blows"]), "odds": odds,
               "blow_form": _blow_form(fight, view, access, mine, post), "blow_key": uuid.uuid4().hex,
               "live_campaign": fight.campaign_id, "live_after": last_event_id(campaign=fight.campaign)}
    return render(request, "combat/system_fight.html", context, status=status)


@login_required
@require_http_methods(["GET"])
def system_fight_page(request, fight_id: int):
    fight, access = access_system_fight(user=request.user, fight_id=fight_id)
    return _fight_page(request, fight, access)


@login_required
@require_POST
def system_fight_act(request, fight_id: int):
    fight, access = access_system_fight(user=request.user, fight_id=fight_id, act=True)
    post = request.POST
    dice = _number(post.get("dice", ""))
    skill = _number(post.get("skill", "")) if post.get("action") == "first_aid" else None
    scores = {key: _number(post.get(key, "")) for key in system_fights.CORE_SCORES if post.get(key)}
    try:
        system_fights.system_fight_act(fight=fight, by=request.user, is_gm=access.is_gm,
                                       action=post.get("action", ""), name=post.get("name") or None,
                                       after=post.get("after") or None, dice=None if dice is None else [dice],
                                       scores=scores or None, skill=skill)
    except DomainError as exc:
        fight.refresh_from_db()
        return _fight_page(request, fight, access, error=str(exc), status=exc.status_code)
    return redirect("system-fight", fight.pk)


@login_required
@require_POST
def system_fight_blow(request, fight_id: int):
    """Strike (or, with ``preview``, show the blow's exact odds and keep what was typed)."""
    fight, access = access_system_fight(user=request.user, fight_id=fight_id, act=True)
    post = request.POST
    inputs = _blow_inputs(post, fight.system) if fight.system in BLOW_FIELDS else {}
    try:
        if post.get("preview"):
            odds = system_blows.blow_preview(fight=fight, attacker=post.get("attacker"), target=post.get("target"),
                                             inputs=inputs, is_gm=access.is_gm)
            return _fight_page(request, fight, access, post=post, odds=odds)
        system_blows.system_fight_blow(fight=fight, by=request.user, is_gm=access.is_gm,
                                       attacker=post.get("attacker"), target=post.get("target"), inputs=inputs,
                                       idempotency_key=post.get("key") or None)
    except DomainError as exc:
        fight.refresh_from_db()
        return _fight_page(request, fight, access, blow_error=str(exc), status=exc.status_code, post=post)
    return redirect("system-fight", fight.pk)


@login_required
@require_POST
def system_fight_undo(request, fight_id: int):
    fight, access = access_system_fight(user=request.user, fight_id=fight_id, act=True)
    try:
        system_blows.system_fight_undo(fight=fight, by=request.user, is_gm=access.is_gm)
    except DomainError as exc:
        fight.refresh_from_db()
        return _fight_page(request, fight, access, error=str(exc), status=exc.status_code)
    return redirect("system-fight", fight.pk)
