"""Who may do what with a roll of the feed."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from campaign.audience import visible
from campaign.permissions import access_campaign

from .models import Roll


@dataclass(frozen=True)
class RollAccess:
    roll: Roll
    is_gm: bool


def access_roll(*, user, roll_id, reroll: bool = False) -> RollAccess:
    """Return a roll this member may see, or raise Http404 (a roll they may not see does not
    exist for them); ``reroll=True`` also asks for the right to spend the roll's character's
    Karma on it: its player's or a GM's (PermissionDenied otherwise)."""
    try:
        pk = int(roll_id)
    except (TypeError, ValueError, OverflowError):
        raise Http404(_("No such roll.")) from None
    campaign_id = Roll.objects.filter(pk=pk).values_list("campaign_id", flat=True).first() if 0 < pk < 2**63 else None
    if campaign_id is None:
        raise Http404(_("No such roll."))
    access = access_campaign(user=user, campaign_id=campaign_id)
    roll = visible(Roll.objects.filter(pk=pk).select_related("character"), user=user, is_gm=access.is_gm).first()
    if roll is None:
        raise Http404(_("No such roll."))
    if reroll and not access.is_gm and roll.character is not None and roll.character.owner_id != user.pk:
        raise PermissionDenied(_("Only the character's player or the GM spends its Karma on a reroll."))
    return RollAccess(roll=roll, is_gm=access.is_gm)
