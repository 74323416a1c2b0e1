"""Reads for downtime: reports as each viewer may see them."""

from campaign.models import Job

from .models import Therapy, TransitionBatch, Treatment


def _for_players(entry: dict) -> dict:
    """Hide what stays behind the GM's screen: therapy dice and the hidden drug durations.

    A drug taken earlier can wear off in any later downtime, so the notes are filtered in every
    report, not only in those that gave a treatment.
    """
    notes = [n for n in entry.get("notes", []) if "wear off" not in n["text"] and "wears off" not in n["text"]]
    if not entry.get("treatments"):
        return {**entry, "notes": notes}
    return {**entry, "dice": [], "notes": notes,
            "treatments": [{"kind": t["kind"], "name": t["name"]} for t in entry["treatments"]]}


def report_for(job: Job, *, is_gm: bool) -> list[dict]:
    """Return a downtime job's per-character report, in character order."""
    reports = [claim.report for claim in job.downtime_claims.order_by("character_id")]
    return reports if is_gm else [_for_players(r) for r in reports]


def sheet_report_for(job: Job) -> list[dict]:
    """What a downtime did to the sheets of the other rule sets (nothing there is a GM's secret)."""
    return [claim.report for claim in job.sheet_claims.order_by("sheet_id")]


def therapy_list(*, campaign) -> list[Therapy]:
    return list(campaign.therapies.all())


def transitions_recent(*, campaign, limit: int = 10) -> list[TransitionBatch]:
    return list(campaign.transitions.select_related("by")[:limit])


def treatments_recent(*, campaign, limit: int = 10) -> list[Treatment]:
    """Return the latest treatments given at once (a downtime's are in its report)."""
    return list(campaign.treatments.filter(job__isnull=True).select_related("character")
                .order_by("-created_at", "-id")[:limit])
