"""The roll feed as a live part: rendered once per roll for the players and once for the GM."""

from __future__ import annotations

from campaign import keys
from campaign.parts import LivePart, render_shared

from . import selectors


def _feed(campaign, key: None, gm: bool) -> str:
    rolls = selectors.feed(campaign_id=campaign.pk, user=None, is_gm=gm)
    return render_shared("rolls/_feed_items.html", {"rolls": rolls, "campaign": campaign})


ROLL_FEED = LivePart(name="roll-feed", shows=lambda campaign_id, key: [keys.campaign(campaign_id, "rolls")],
                     render=_feed)
