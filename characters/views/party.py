"""The party list and new characters (entered or rolled in the app)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from campaign.models import Campaign, Membership
from campaign.permissions import access_campaign
from rulebook.stats import PRIMARY_STATS
from zenergate_site.errors import DomainError

from .. import selectors, services, services_rolls
from .. import sheet as sheet_rules
from ..forms import (
    NewCharacterForm,
)
from ..models import Character
from .page import add_form_error, error_status, try_rules
from .wounds import wound_bars


# --- Party list and new characters --------------------------------------------------------
def party_characters(*, viewer, campaign: Campaign) -> list[Character]:
    """Return the campaign's characters with ``.vitals`` (HP/SHK/END) for ``_party.html``."""
    characters = list(selectors.character_list(viewer=viewer, campaign_id=campaign.pk))
    for character in characters:
        derived = try_rules(sheet_rules.derived, character)  # frozen values win once approved
        character.vitals = derived and wound_bars(
            character,
            character.hit_points if character.hit_points is not None else derived.hit_points.total,
            character.shock_threshold if character.shock_threshold is not None else derived.shock_threshold.total,
            character.endurance_max if character.endurance_max is not None else derived.endurance.total,
            game_hours=campaign.game_hours)
    return characters


@login_required
@require_GET
def party(request, campaign_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    return party_page(request, access)


def party_page(request, access, *, sheet_error: str = "", status: int = 200):
    """The party: Zener Gate characters, and the sheets of the campaign's other rule set."""
    from rulebook.systems import get_system

    campaign = access.campaign
    context = {"campaign": campaign, "access": access,
               "characters": party_characters(viewer=request.user, campaign=campaign),
               "system_sheets": list(selectors.system_sheet_list(campaign_id=campaign.pk)),
               "plays_other_system": campaign.rule_set != "zener",
               "rule_set_name": _(get_system(campaign.rule_set).name), "sheet_error": sheet_error}
    template = "characters/_party.html" if request.htmx else "characters/party.html"
    return render(request, template, context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def character_new(request, campaign_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    if access.role not in (Membership.Role.GM, Membership.Role.PLAYER):
        raise PermissionDenied(_("Viewers do not build characters."))
    campaign = access.campaign
    roll_mode = campaign.stat_entry == Campaign.StatEntry.ROLL
    status = 200
    if request.method == "GET":
        form = NewCharacterForm(rolled_in_app=roll_mode)
    elif request.POST.get("action") == "roll":
        try:
            rolled = services_rolls.stats_roll(campaign=campaign, by=request.user)
        except DomainError as exc:
            form = NewCharacterForm(initial={"name": request.POST.get("name", "")}, rolled_in_app=roll_mode)
            form.roll_error, status = exc.message, error_status(exc)
        else:
            # Unbound, so the name the player has not typed yet is not flagged as missing.
            form = NewCharacterForm(rolled_in_app=True, initial={
                **rolled.stats, "name": request.POST.get("name", ""), "roll": rolled.log_entry_id,
                "int_plus": rolled.int_dice[0], "int_minus": rolled.int_dice[1]})
            form.rolled = rolled
    else:
        form = NewCharacterForm(request.POST, rolled_in_app=roll_mode)
        if form.is_valid():
            data = form.cleaned_data
            try:
                if roll_mode:
                    character = services_rolls.character_create_from_roll(
                        campaign=campaign, owner=request.user, name=data["name"], roll_id=data["roll"],
                        by=request.user)
                else:
                    character = services.character_create(
                        campaign=campaign, owner=request.user, name=data["name"],
                        stats={c: data[c] for c in PRIMARY_STATS}, int_dice=[data["int_plus"], data["int_minus"]],
                        by=request.user, is_gm=access.is_gm, override_reason=data.get("override_reason", ""))
            except DomainError as exc:
                add_form_error(form, exc)
                status = error_status(exc)
            else:
                messages.success(request, _("%(name)s is a draft. Buy skills, then submit to the GM.")
                                 % {"name": character.name})
                return redirect("character-build", character_id=character.pk)
        else:
            status = 400
    if request.htmx and request.POST.get("action") == "roll":
        return render(request, "characters/_new_stats.html", {"form": form, "campaign": campaign, "access": access},
                      status=status)
    return render(request, "characters/new.html", {"form": form, "campaign": campaign, "roll_mode": roll_mode,
                                                   "access": access},
                  status=status)
