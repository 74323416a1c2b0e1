"""The data keys of rolls (campaign.keys): the campaign's feed. A private roll is news for the GM
alone. (A roll's Karma reroll changes its character's Karma: that is the character's own key.)"""

from campaign.keys import campaign, register

from .models import Roll

register(Roll, lambda row, _: [(campaign(row.campaign_id, "rolls"), row.seen)])
