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


@dataclass(frozen=True, kw_only=True)
class SystemFightChanged(LiveEvent):
    """A fight of another rule set moved on: a turn, a reaction check, a blow or its undo."""

    kind: ClassVar[str] = "system_fight"
    fight: int
