"""The sheet's wound panel: what hurts, what heals next and when, and the GM's wound form.

The panel refreshes itself when the campaign's live stream says this character's wounds
changed (a downtime, a transition, a treatment, a wound the GM recorded), without a reload.
"""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from campaign.events import last_event_id
from rulebook.damage import WOUNDABLE_STATS
from rulebook.game_time import duration
from rulebook.stats import PRIMARY_STATS
from zenergate_site import limits
from zenergate_site.errors import DomainError

from .. import sheet as sheet_rules
from .. import wounds
from ..models import Character
from ..permissions import access_character
from ..wounds import out_cold_left

POINTS = {"min_value": -1000, "max_value": 1000, "initial": 0}


class WoundForm(forms.Form):
    trauma = forms.IntegerField(label=gettext_lazy("Trauma"), **POINTS)
    shock = forms.IntegerField(label=gettext_lazy("Shock"), **POINTS)
    end = forms.IntegerField(label="END", **POINTS)
    stat = forms.ChoiceField(choices=[("", "—")] + [(s, s) for s in WOUNDABLE_STATS], required=False,
                             label=gettext_lazy("Stat damage to"))
    stat_points = forms.IntegerField(required=False, label=gettext_lazy("points"), **POINTS)
    activity = forms.ChoiceField(choices=[("", "—"), ("ordinary", gettext_lazy("ordinary (1 END per half hour)")),
                                          ("strenuous", gettext_lazy("strenuous (4 END per hour)"))], required=False,
                                 label=gettext_lazy("END for activity"))
    minutes = forms.IntegerField(required=False, min_value=0, max_value=60 * 24 * 14,
                                 label=gettext_lazy("minutes of it"))
    con_loss_points = forms.IntegerField(required=False, min_value=0, max_value=100,
                                         label=gettext_lazy("Move long-term CON loss (points)"))
    con_loss_to = forms.ChoiceField(choices=[("", "—")] + [(s, s) for s in PRIMARY_STATS if s != "CON"],
                                    required=False, label=gettext_lazy("to"))
    reason = forms.CharField(max_length=limits.WOUNDS_REASON, required=False, label=gettext_lazy("Reason"),
                             help_text=gettext_lazy("Negative numbers heal. The reason goes in the log."))

    def stat_damage(self) -> dict:
        stat, points = self.cleaned_data.get("stat"), self.cleaned_data.get("stat_points") or 0
        return {stat: points} if stat and points else {}


def wound_bars(character: Character, hp: int, shk: int, end: int, *, game_hours: int) -> dict:
    """Return what the wound bars show: HP less trauma (below zero when trauma passes it, as the
    article's death example counts), shock against SHK, END less what is spent, and how long a knock-out from a fight that ended still runs on the campaign clock."""
    left = out_cold_left(character, game_hours)
    return {
        "hp": hp - character.trauma, "hp_max": hp, "trauma": character.trauma,
        "shock": character.shock, "shk": shk, "shock_over": character.shock > shk,
        "end": max(end - character.endurance_spent, 0), "end_max": end,
        "out_cold": duration(left) if left else "",
    }


def panel_context(character: Character, *, is_gm: bool, form: WoundForm | None = None) -> dict:
    """Return what ``_wounds_body.html`` shows, with no query beyond the loaded character."""
    hp, shk, end = character.hit_points, character.shock_threshold, character.endurance_max
    if hp is None:  # not approved yet: the calculated stats still follow the sheet
        derived = sheet_rules.derived(character)
        hp, shk, end = derived.hit_points.total, derived.shock_threshold.total, derived.endurance.total
    summary = wounds.wounds_summary(character)
    end_left = max(end - summary["end_spent"] - summary["end_held"], 0)
    return {
        "character": character, "is_gm": is_gm, "wounds": summary,
        "vitals": {**wound_bars(character, hp, shk, end, game_hours=character.campaign.game_hours),
                   "end": end_left},
        "wound_form": form or (WoundForm() if is_gm and character.state == Character.State.ACTIVE else None),
    }


@login_required
@require_GET
def wounds_panel(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id)
    character = Character.objects.select_related("campaign").get(pk=access.character.pk)
    return render(request, "characters/_wounds_body.html", panel_context(character, is_gm=access.is_gm))


@login_required
@require_POST
def wounds_record(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id, write=True)
    if not access.is_gm:
        raise PermissionDenied(_("Only the campaign's GM records wounds."))
    form = WoundForm(request.POST)
    status = 400
    if form.is_valid():
        data = form.cleaned_data
        try:
            wounds.wounds_record(character=access.character, by=request.user, reason=data["reason"],
                                 trauma=data["trauma"] or 0, shock=data["shock"] or 0, end=data["end"] or 0,
                                 stat_damage=form.stat_damage(), activity=data["activity"] or "",
                                 minutes=data["minutes"] or 0, con_loss_points=data["con_loss_points"] or 0,
                                 con_loss_to=data["con_loss_to"] or "")
        except DomainError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            status = exc.status_code
        else:
            if not request.htmx:
                messages.success(request, _("Wounds recorded."))
                return redirect(reverse("character-sheet", args=[character_id]) + "#wounds")
            form, status = None, 200
    character = Character.objects.select_related("campaign").get(pk=access.character.pk)
    if not request.htmx:
        messages.error(request, "; ".join(e for errs in form.errors.values() for e in errs))
        return redirect(reverse("character-sheet", args=[character_id]) + "#wounds")
    return render(request, "characters/_wounds_body.html", panel_context(character, is_gm=True, form=form),
                  status=status)


def live_context(character: Character) -> dict:
    """Return what the live stream's meta tag needs: the campaign and the last event id."""
    return {"live_campaign": character.campaign_id, "live_after": last_event_id(campaign=character.campaign)}



