"""Access to a campaign: one helper, used by every page and endpoint.

Anyone outside a campaign gets 404 for all of it, so its existence is not revealed; members
who may read but not write get 403.
"""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.http import Http404

from .models import Campaign, Membership


@dataclass(frozen=True)
class CampaignAccess:
    campaign: Campaign
    role: str

    @property
    def is_gm(self) -> bool:
        return self.role == Membership.Role.GM

    @property
    def is_player(self) -> bool:
        return self.role == Membership.Role.PLAYER


def access_campaign(*, user, campaign_id, write: bool = False) -> CampaignAccess:
    """Return the campaign and the user's role in it, or raise.

    ``write=True`` asks for GM rights (settings, members, awards). Non-members and anonymous
    users get ``Http404``; members without the right get ``PermissionDenied``.
    """
    if user is None or not user.is_authenticated:
        raise Http404("No such campaign.")
    try:
        membership = Membership.objects.select_related("campaign").get(campaign_id=int(campaign_id), user=user)
    except (Membership.DoesNotExist, TypeError, ValueError):
        raise Http404("No such campaign.") from None
    if write and membership.role != Membership.Role.GM:
        raise PermissionDenied("Only the campaign's GM may do that.")
    return CampaignAccess(campaign=membership.campaign, role=membership.role)
