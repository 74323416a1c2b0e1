"""Campaign services: the writes and their audit rows."""

import pytest

from campaign import services
from campaign.errors import CampaignConflict, CampaignError

pytestmark = pytest.mark.django_db


def test_membership_add_refuses_duplicates_and_unknown_roles(personas):
    campaign = personas["campaign"]
    with pytest.raises(CampaignConflict):
        services.membership_add(campaign=campaign, username="player", role="gm", by=personas["gm"])
    with pytest.raises(CampaignError) as excinfo:
        services.membership_add(campaign=campaign, username="outsider", role="boss", by=personas["gm"])
    assert excinfo.value.field == "role"


def test_campaign_needs_a_name(personas):
    with pytest.raises(CampaignError):
        services.campaign_create(name="   ", by=personas["gm"])
