"""The data keys of the campaign's economy (campaign.keys): adventures, pools, the Karma ledger."""

from campaign.keys import campaign, register

from .models import Adventure, BadNewsToken, Complication, KarmaEntry, MacGuffin

register(Adventure, lambda row, _: [campaign(row.campaign_id, "adventures")])
register(BadNewsToken, lambda row, campaign_id: [campaign(campaign_id, "adventures")])
register(MacGuffin, lambda row, _: [campaign(row.campaign_id, "pools")])
register(KarmaEntry, lambda row, _: [f"character:{row.character_id}/karma", campaign(row.campaign_id, "karma"),
                                     campaign(row.campaign_id, "pools") if row.macguffin_id else None])
register(Complication, lambda row, _: [f"character:{row.character_id}/karma"])
