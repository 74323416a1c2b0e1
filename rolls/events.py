"""The live events of the roll feed."""

from dataclasses import dataclass
from typing import ClassVar

from campaign.events import LiveEvent


@dataclass(frozen=True, kw_only=True)
class RollMade(LiveEvent):
    """A roll landed in the feed (``roll``), or a batch of them (``rolls``: how many)."""

    kind: ClassVar[str] = "roll"
    roll: int | None = None
    rolls: int | None = None
