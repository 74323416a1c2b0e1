"""The live events characters publish (campaign.events has the mechanism)."""

from dataclasses import dataclass
from typing import ClassVar

from campaign.events import LiveEvent


@dataclass(frozen=True, kw_only=True)
class WoundsChanged(LiveEvent):
    """Characters' wounds changed (a hit, healing, a downtime, a transition, an undo)."""

    kind: ClassVar[str] = "wounds"
    characters: list[int]


@dataclass(frozen=True, kw_only=True)
class SystemSheetChanged(LiveEvent):
    """Sheets of another rule set changed: their numbers, resources or condition (a blow, a rest)."""

    kind: ClassVar[str] = "system_sheet"
    sheets: list[int]
