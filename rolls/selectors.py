"""Reads of the roll feed: newest first, each roll for its audience only."""

from __future__ import annotations

from campaign.audience import visible

from .models import Roll

PAGE = 20
MOST = 100


def feed(*, campaign_id: int, user=None, is_gm: bool, before: int | None = None, limit: int = PAGE) -> list[Roll]:
    rolls = visible(Roll.objects.filter(campaign_id=campaign_id).select_related("by"), user=user, is_gm=is_gm)
    if before is not None:
        rolls = rolls.filter(id__lt=before)
    return list(rolls.order_by("-id")[:limit])
