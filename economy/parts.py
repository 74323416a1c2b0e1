"""The MacGuffin pools as a live part: rendered once per pool event for the players and once
for the GM. The give forms are each viewer's own: the shared copy leaves their slots empty."""

from __future__ import annotations

from campaign import keys
from campaign.models import Membership
from campaign.parts import LivePart, render_shared
from campaign.permissions import CampaignAccess

from . import services as economy


def _pools(campaign, key: None, gm: bool) -> str:
    access = CampaignAccess(campaign=campaign, role=Membership.Role.GM if gm else Membership.Role.PLAYER)
    return render_shared("campaign/_pools.html", {"campaign": campaign, "access": access,
                                                   "pools": economy.pools_with_givers(campaign)})


POOLS = LivePart(name="pools", render=_pools,
                 shows=lambda campaign_id, key: [keys.campaign(campaign_id, "pools"), keys.campaign(campaign_id, "names")])
