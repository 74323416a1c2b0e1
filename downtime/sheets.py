"""Downtime for the sheets of the other rule sets: the same job rests them by their own rules.

A campaign that plays ZeroSpace, Success Check or Rocket House rests its sheets with the hours
of the downtime (``rulebook.systems.exchanges.recover``): Endurance back, Edge back, Fatigue
and wound levels healed. Like a character, each sheet is claimed once per job (``SheetClaim``)
in the transaction that changes it, so a job sent twice rests nobody twice. A resource that
comes back is written to the sheet's ledger as a rest; the job's undo puts the conditions back
(refused if a sheet changed since) and takes the points back through the ledger.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from campaign.changes import Recorded, change_set, undo
from campaign.errors import CampaignConflict
from campaign.models import Campaign, Job
from characters.events import SystemSheetChanged
from characters.models import SystemSheet
from characters.system_sheets import move_pool
from rulebook.systems.exchanges import LONG_REST_HOURS, recover
from rulebook.systems.sheets import LONG_REST, SHORT_REST, UNDO, spec_for

from .models import SheetClaim


def sheets_in_play(campaign: Campaign) -> list[int]:
    """The sheets a downtime rests: those of the rule set the campaign plays."""
    if campaign.rule_set == "zener":
        return []
    return list(SystemSheet.objects.filter(campaign=campaign, system=campaign.rule_set).order_by("pk")
                .values_list("pk", flat=True))


def _numbers(sheet: SystemSheet) -> dict:
    return {p.name: sheet.numbers.get(p.name, p.default) for p in spec_for(sheet.system).numbers}


def sheet_reports(*, campaign: Campaign, hours: int, rest: str = "comfortable") -> list[dict]:
    """What the downtime would do to each sheet, changing nothing (the preview)."""
    return [{"sheet": sheet.pk, "name": sheet.name,
             "lines": list(recover(sheet.system, sheet.condition, sheet.pools, _numbers(sheet), hours, rest=rest).lines)}
            for sheet in SystemSheet.objects.filter(pk__in=sheets_in_play(campaign)).order_by("pk")]


def rest_sheets(job: Job, ids: list[int]) -> int:
    """Rest one batch of sheets in one transaction; return how many this call rested."""
    if not ids:
        return 0
    hours = int(job.params["hours"])
    with transaction.atomic():
        write = change_set(campaign=job.campaign_id)
        sheets = write.lock(SystemSheet.objects.filter(pk__in=ids))
        done = set(SheetClaim.objects.filter(job=job, sheet_id__in=ids).values_list("sheet_id", flat=True))
        claims = []
        for sheet in (s for s in sheets if s.pk not in done):
            rested = recover(sheet.system, sheet.condition, sheet.pools, _numbers(sheet), hours,
                             rest=job.params.get("rest", "comfortable"))
            before = {"condition": sheet.condition, "pools": sheet.pools}
            for key, after in rested.pools.items():
                move_pool(sheet, pool=key, to=after, action=LONG_REST if hours >= LONG_REST_HOURS else SHORT_REST,
                          by=job.created_by, key=f"downtime:{job.pk}:{key}", save=False)
            sheet.condition = rested.condition
            sheet._change_reason = f"downtime of {hours} h"
            sheet.save(update_fields=["condition", "pools", "updated_at"])
            claims.append(SheetClaim(job=job, sheet=sheet, before=before,
                                     after={"condition": sheet.condition, "pools": sheet.pools},
                                     report={"sheet": sheet.pk, "name": sheet.name, "lines": list(rested.lines)}))
        SheetClaim.objects.bulk_create(claims)
        write.changed(job)
        if claims:
            write.publish(SystemSheetChanged(sheets=[claim.sheet_id for claim in claims]))
    return len(claims)


def restore_sheets(job: Job) -> list[int]:
    """Put every sheet the job rested back as it found them (inside the undo's change set)."""
    changes = change_set(campaign=job.campaign_id)
    claims = list(job.sheet_claims.all())

    def refuse(names):
        return CampaignConflict(_("Cannot undo this downtime: %(names)s changed since (a blow, a rest). "
                                  "Undo those first or correct the sheet by hand.") % {"names": ", ".join(names)},
                                field="detail")

    undo([Recorded(SystemSheet, claim.sheet_id, {"condition": claim.before["condition"]},
                   {"condition": claim.after["condition"]}) for claim in claims], refuse=refuse,
         name=lambda sheet: sheet.name)
    sheets = {s.pk: s for s in changes.lock(SystemSheet.objects.filter(pk__in=[c.sheet_id for c in claims]))}
    for claim in claims:
        sheet = sheets.get(claim.sheet_id)
        if sheet is None:
            continue
        for key, before in claim.before["pools"].items():
            given = int(claim.after["pools"].get(key, before)) - int(before)
            if given:  # points since spent are not taken twice: never below zero
                move_pool(sheet, pool=key, to=max(0, int(sheet.pools.get(key, 0)) - given), action=UNDO,
                          key=f"downtime-undo:{job.pk}:{key}")
    touched = [claim.sheet_id for claim in claims]
    if touched:
        changes.publish(SystemSheetChanged(sheets=touched))
    return touched


def sheet_report(job: Job) -> list[dict]:
    return [claim.report for claim in job.sheet_claims.order_by("sheet_id")]
