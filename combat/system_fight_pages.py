"""The pages of the other rule sets' fights: the list with a form to start one, and the fight.

The start form lists the campaign's sheets, each with a box for its perception total, and a few
rows for NPCs; a row left without a total stays out of the fight.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from campaign.permissions import access_campaign
from characters.selectors import system_sheet_list
from rulebook.systems import get_system
from zenergate_site.errors import DomainError

from . import selectors, system_fights
from .permissions import access_system_fight

NPC_ROWS = 4


def _number(text: str):
    text = (text or "").strip()
    try:
        return int(text) if text else None
    except ValueError:
        return text  # the service names it as not a whole number


def _typed_fighters(post, sheets) -> list[dict]:
    fighters = []
    for sheet in sheets:
        total = _number(post.get(f"sheet-{sheet.pk}-total", ""))
        if total is not None:
            fighters.append({"sheet": sheet.pk, "total": total,
                             "action_value": _number(post.get(f"sheet-{sheet.pk}-av", "")) or 0})
    for index in range(NPC_ROWS):
        name = (post.get(f"npc-{index}-name") or "").strip()
        total = _number(post.get(f"npc-{index}-total", ""))
        if name or total is not None:
            fighters.append({"name": name, "total": total,
                             "action_value": _number(post.get(f"npc-{index}-av", "")) or 0})
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
                                                     fighters=_typed_fighters(request.POST, sheets))
        except DomainError as exc:
            error, status = str(exc), exc.status_code
        else:
            return redirect("system-fight", fight.pk)
    context = {"campaign": campaign, "access": access, "sheets": sheets, "npc_rows": range(NPC_ROWS),
               "fights": list(selectors.system_fight_list(campaign_id=campaign.pk)), "error": error,
               "runs_fights": campaign.rule_set in system_fights.FIGHT_SYSTEMS,
               "rule_set_name": get_system(campaign.rule_set).name, "posted": request.POST}
    return render(request, "combat/system_fights.html", context, status=status)


def _fight_page(request, fight, access, *, error: str = "", status: int = 200):
    view = system_fights.fight_view(fight)
    mine = set() if access.is_gm else system_fights.own_fighters(fight, request.user)
    context = {"fight": fight, "campaign": fight.campaign, "access": access, "view": view, "mine": mine,
               "error": error, "system_name": get_system(fight.system).name}
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
    try:
        system_fights.system_fight_act(fight=fight, by=request.user, is_gm=access.is_gm,
                                       action=request.POST.get("action", ""), name=request.POST.get("name") or None,
                                       after=request.POST.get("after") or None)
    except DomainError as exc:
        fight.refresh_from_db()
        return _fight_page(request, fight, access, error=str(exc), status=exc.status_code)
    return redirect("system-fight", fight.pk)
