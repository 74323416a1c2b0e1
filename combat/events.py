"""The live events of the combat tracker."""

from dataclasses import dataclass
from typing import ClassVar

from campaign.events import LiveEvent


@dataclass(frozen=True, kw_only=True)
class CombatChanged(LiveEvent):
    """An entry of an encounter's log: the tracker and the log of that encounter refresh."""

    kind: ClassVar[str] = "combat"
    encounter: int
    event: int
    characters: list[int]
