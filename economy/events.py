"""The live events of the economy."""

from dataclasses import dataclass
from typing import ClassVar

from campaign.events import LiveEvent


@dataclass(frozen=True, kw_only=True)
class PoolChanged(LiveEvent):
    """A Campaign MacGuffin pool was opened, paid into, funded or put in effect."""

    kind: ClassVar[str] = "pool"
    macguffin: int
