"""Reads of the roll feed: newest first, private rolls for GMs only."""

from __future__ import annotations

from .models import Roll

PAGE = 20
MOST = 100


def feed(*, campaign_id: int, is_gm: bool, before: int | None = None, limit: int = PAGE) -> list[Roll]:
    rolls = Roll.objects.filter(campaign_id=campaign_id).select_related("by")
    if not is_gm:
        rolls = rolls.filter(private=False)
    if before is not None:
        rolls = rolls.filter(id__lt=before)
    return list(rolls.order_by("-id")[:limit])
