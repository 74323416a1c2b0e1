"""The dashboard page: the party, the pools, the adventure, the clock, fights in progress."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaign import pagecache, selectors
from campaign.events import last_event_id
from campaign.permissions import access_campaign, campaign_standing
from rolls import selectors as rolls

from .party import dashboard_context


@login_required
@require_GET
def dashboard(request, campaign_id: int):
    standing = campaign_standing(user=request.user, campaign_id=campaign_id)  # narrow: the page may be cached
    return pagecache.cached_page(
        request, name="dashboard", object_id=int(campaign_id), campaign_id=int(campaign_id),
        version=standing.page_version, render=lambda: _render(request, access_campaign(user=request.user, campaign_id=campaign_id)))


def _render(request, access):
    campaign = access.campaign
    context = {
        "campaign": campaign,
        "access": access,
        "members": selectors.membership_list(campaign=campaign),
        "log": selectors.log_recent(campaign=campaign, user=request.user, is_gm=access.is_gm, limit=10),
        "last_job": campaign.jobs.first(),
        "encounters": campaign.encounters.exclude(state="ended")[:3],
        "rolls": rolls.feed(campaign_id=campaign.pk, user=request.user, is_gm=access.is_gm, limit=8),
        "live_campaign": campaign.pk,
        "live_after": last_event_id(campaign=campaign),
    }
    context.update(dashboard_context(campaign=campaign))
    return render(request, "campaign/dashboard.html", context)
