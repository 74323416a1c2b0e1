"""The live events characters publish (campaign.events has the mechanism)."""

from dataclasses import dataclass
from typing import ClassVar

from campaign.events import LiveEvent


@dataclass(frozen=True, kw_only=True)
class WoundsChanged(LiveEvent):
    """Characters' wounds changed (a hit, healing, a downtime, a transition, an undo)."""

    kind: ClassVar[str] = "wounds"
    characters: list[int]
