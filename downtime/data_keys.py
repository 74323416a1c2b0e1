"""The data keys of time passing (campaign.keys): jobs, therapies, treatments, transitions."""

from campaign.keys import campaign, register

from .models import DowntimeClaim, SheetClaim, Therapy, TransitionBatch, TransitionRecord, Treatment

register(DowntimeClaim, lambda row, _: [f"job:{row.job_id}"])
register(SheetClaim, lambda row, _: [f"job:{row.job_id}"])
register(Therapy, lambda row, _: [campaign(row.campaign_id, "therapies")])
register(Treatment, lambda row, _: [f"character:{row.character_id}", campaign(row.campaign_id, "treatments")])
register(TransitionBatch, lambda row, _: [f"transition:{row.pk}", campaign(row.campaign_id, "transitions")])
register(TransitionRecord, lambda row, _: [f"transition:{row.batch_id}"])
