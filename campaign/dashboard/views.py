"""The dashboard page: the party, the pools, the adventure, the clock, fights in progress."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from .. import pagecache, selectors
from ..permissions import access_campaign
from .party import dashboard_context


@login_required
def dashboard(request, campaign_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    return pagecache.cached_page(request, name="dashboard", object_id=campaign_id, campaign_id=campaign_id,
                                 render=lambda: _render(request, access))


def _render(request, access):
    campaign = access.campaign
    context = {
        "campaign": campaign,
        "access": access,
        "members": selectors.membership_list(campaign=campaign),
        "log": selectors.log_recent(campaign=campaign, limit=10),
        "last_job": campaign.jobs.first(),
        "encounters": campaign.encounters.exclude(state="ended")[:3],
    }
    context.update(dashboard_context(campaign=campaign))
    return render(request, "campaign/dashboard.html", context)
