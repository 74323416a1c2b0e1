"""Karmic Debt and Starvation, and the Complications that settle them."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaign.changes import change_set
from campaign.errors import CampaignConflict, CampaignError
from characters import sheet as sheet_rules
from characters.models import STAT_FIELDS, Character, Disadvantage
from rulebook import RulesError
from rulebook.karma import (
    karmic_starvation,
    max_disadvantage_ranks,
)
from rulebook.stats import PRIMARY_STATS
from rulebook.words import said
from zenergate_site import limits

from .models import Complication


# --- Karmic Debt, Starvation and Complications ----------------------------------------------
def karma_flags(character: Character, lines=None) -> list[str]:
    """Return what must happen for this sheet's Karma standing (empty when all is well);
    ``lines``: the character's lines as ``sheet.budget`` takes them, else its loaded lines."""
    if character.state != Character.State.ACTIVE:
        return []
    try:
        budget = sheet_rules.budget(character, lines)  # the budget alone: the party's rows need no odds
    except RulesError:
        return []  # the sheet lists the rule it breaks
    flags = list(budget.debt_actions)
    if budget.overspent:
        s = karmic_starvation(budget.spent, budget.available)
        flags.append(ngettext("Karmic Starvation: %(shortfall)s skill points overspent; the GM records a Complication "
                              "of %(ranks)s rank(s).",
                              "Karmic Starvation: %(shortfall)s skill points overspent; the GM records a Complication "
                              "of %(ranks)s rank(s).", s.complication_ranks)
                     % {"shortfall": s.shortfall, "ranks": s.complication_ranks})
    return flags


@transaction.atomic
def complication_record(*, character: Character, cause: str, form: str, ranks: int, description: str, by,
                        nullify: int | None = None, worsen: Iterable[int] = (), stat: str | None = None) -> Complication:
    """Record a Complication and apply its effect on the sheet (GM, in play)."""
    change_set(campaign=character.campaign_id, by=by)
    locked = Character.objects.select_for_update(no_key=True).select_related("campaign").get(pk=character.pk)
    if locked.state != Character.State.ACTIVE:
        raise CampaignConflict(_("Complications happen in play: approve the character first."), field="character")
    if cause not in Complication.Cause.values:
        raise CampaignError(_("The cause is debt or starvation."), field="cause")
    if form not in Complication.Form.values:
        raise CampaignError(_("The form is worsen, stat_loss or blown_roll."), field="form")
    if isinstance(ranks, bool) or not isinstance(ranks, int) or not 1 <= ranks <= 20:
        raise CampaignError(_("Ranks is a whole number from 1 to 20."), field="ranks")
    description = (description or "").strip()
    if not description:
        raise CampaignError(_("Describe the setback."), field="description")
    effects: dict = {}
    if nullify is not None and cause != Complication.Cause.DEBT:
        raise CampaignError(_("Only a Karmic Debt Complication nullifies a disadvantage."), field="nullify")
    if cause == Complication.Cause.DEBT and nullify is not None:
        target = Disadvantage.objects.select_for_update().filter(pk=nullify, character=locked).first()
        if target is None:
            raise CampaignError(_("Name the disadvantage the Complication nullifies."), field="nullify")
        effects["nullified"] = {"name": target.name, "ranks": target.ranks}
        target.delete()
    if form == Complication.Form.WORSEN:
        worsen = list(worsen)
        items = list(Disadvantage.objects.select_for_update(no_key=True).filter(pk__in=worsen, character=locked))
        if not items or len(items) != len(set(worsen)):
            raise CampaignError(_("Name the disadvantages to worsen."), field="worsen")
        limit = max_disadvantage_ranks(locked.starting_karma or 0)
        room = sum(max(limit - d.ranks, 0) for d in items)
        if room < ranks:
            raise CampaignError(ngettext("Those disadvantages can take only %(room)s more rank(s) (limit %(limit)s); "
                                         "make the rest a stat loss.",
                                         "Those disadvantages can take only %(room)s more rank(s) (limit %(limit)s); "
                                         "make the rest a stat loss.", room)
                                % {"room": room, "limit": limit}, field="worsen")
        left = ranks
        for d in items:
            step = min(left, limit - d.ranks)
            if step > 0:
                d.ranks += step
                d.save(update_fields=["ranks"])
                effects.setdefault("worsened", []).append({"name": d.name, "ranks": step})
                left -= step
    elif form == Complication.Form.STAT_LOSS:
        if stat not in PRIMARY_STATS:
            raise CampaignError(_("Name the stat that is lost (not Karma)."), field="stat")
        field = STAT_FIELDS[stat]
        if getattr(locked, field) - ranks < 1:
            raise CampaignError(_("%(stat)s cannot go below 1.") % {"stat": stat}, field="ranks")
        setattr(locked, field, getattr(locked, field) - ranks)
        setbacks = dict(locked.stat_setbacks or {})
        setbacks[stat] = setbacks.get(stat, 0) + ranks
        locked.stat_setbacks = setbacks
        locked.save(update_fields=[field, "stat_setbacks", "updated_at"])
        effects["stat_loss"] = {"stat": stat, "points": ranks}
    if cause == Complication.Cause.STARVATION:
        locked.starvation_relief += 2 * ranks
        locked.save(update_fields=["starvation_relief", "updated_at"])
        effects["skill_points_relieved"] = 2 * ranks
    complication = Complication.objects.create(
        campaign=locked.campaign, character=locked, cause=cause, form=form, ranks=ranks,
        description=description[:limits.COMPLICATION_DESCRIPTION], effects=effects, by=by)
    change_set(campaign=locked.campaign, by=by).audit(
        "complication.record", said("Complication for %(name)s: %(description)s", name=locked.name,
                                    description=description[:120]),
        data={"character": locked.pk, "complication": complication.pk})
    return complication
