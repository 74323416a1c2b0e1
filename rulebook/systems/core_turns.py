"""Core Rules ch. V turns at the table: six seconds each, declarations from the lowest State of
Mind up, reaction checks that cost a turn.

Source: V.1 (a turn is six seconds; what happens in it is simultaneous and lands at its end),
V.5 (the reaction check: 1d10 against SOM, a failure loses the turn and the character acts from
the next one), V.6 (declarations in ascending SOM; an unaware character sits the turn out; the
order found in the first turn holds for the whole event and newcomers are slotted into it).

Readings the text leaves open (docs/rules.md, "Core Rules turns"):

- The order is found once, at the start (``core_rules.declaration_order``: SOM, then Empathy,
  then Perception, then a d10); a newcomer goes after everyone with the same or lower scores.
- A reaction check failed during a turn takes the character out of the rest of that turn (a
  declaration not yet made is lost); one failed before their declaration in the turn is the same.
- An unaware character at the start sits out the first turn only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from rulebook import RulesError
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

from . import core_rules

#: A turn, in seconds (V.1).
TURN_SECONDS = 6


@dataclass
class DeclarationTurns:
    """The order of declarations of a fight, the turn and who declares now."""

    order: list[str]
    scores: dict[str, tuple[int, int, int]]  # name → (SOM, Empathy, Perception)
    turn: int = 0
    position: int = -1
    sitting_out: set[str] = field(default_factory=set)  # this turn only
    # (turn, name, what), stored with the fight: "what" stays in English (the fixed ones are marked
    # for the catalogue, translated where shown).
    record: list[tuple[int, str, str]] = field(default_factory=list)

    @classmethod
    def start(cls, declarants: Sequence[core_rules.Declarant], rng: random.Random | None = None,
              dice: Sequence[int] | None = None) -> tuple[DeclarationTurns, core_rules.DeclarationOrder]:
        """Find the order (ties by d10, typed or rolled) and open the first turn."""
        found = core_rules.declaration_order(declarants, rng, dice)
        turns = cls(order=list(found.order) + list(found.sitting_out),
                    scores={d.name: (d.som, d.empathy, d.perception) for d in declarants})
        # Unaware ones take their place in the order by their scores, then sit the first turn out.
        turns.order = sorted(turns.order, key=lambda name: (turns.scores[name], turns.order.index(name)))
        turns.turn, turns.sitting_out = 1, set(found.sitting_out)
        return turns, found

    @property
    def declaring(self) -> str | None:
        return self.order[self.position] if 0 <= self.position < len(self.order) else None

    def next_declaration(self) -> str:
        """Move to the next character who declares this turn, or open the next turn."""
        if not self.order:
            raise RulesError(_("Nobody is left in the fight."))
        while True:
            self.position += 1
            if self.position >= len(self.order):
                self.turn += 1
                self.position = -1
                self.sitting_out = set()
                continue
            name = self.order[self.position]
            if name in self.sitting_out:
                self.record.append((self.turn, name, gettext_noop("sits the turn out")))
                continue
            self.record.append((self.turn, name, gettext_noop("declares")))
            return name

    def reaction(self, name: str, som: int, rng: random.Random | None = None,
                 dice: Sequence[int] | None = None) -> core_rules.SystemRoll:
        """A reaction check (V.5): 1d10 against SOM; a failure loses the rest of this turn."""
        self._known(name)
        roll = core_rules.reaction_check(som, rng, dice)
        # The record says the die and the outcome, not the SOM: an NPC's scores are the GM's.
        self.record.append((self.turn, name, f"reaction check {roll.total}: "
                                             + ("acts normally" if roll.success else "loses the turn")))
        if not roll.success:
            self.sitting_out.add(name)
        return roll

    def insert(self, name: str, som: int, empathy: int, perception: int) -> None:
        """Slot a newcomer into the established order (V.6), after everyone of equal or lower scores."""
        if name in self.order:
            raise RulesError(_("%(name)s is already in the fight.") % {"name": name})
        core_rules.Declarant(name, som, empathy, perception)  # checks the scores
        key = (som, empathy, perception)
        at = len(self.order)
        for index, other in enumerate(self.order):
            if self.scores[other] > key:
                at = index
                break
        self.order.insert(at, name)
        self.scores[name] = key
        if at <= self.position:
            self.position += 1

    def remove(self, name: str) -> None:
        self._known(name)
        at = self.order.index(name)
        self.order.remove(name)
        self.scores.pop(name)
        self.sitting_out.discard(name)
        if at <= self.position:
            self.position -= 1

    def _known(self, name: str) -> None:
        if name not in self.order:
            raise RulesError(_("%(name)s is not in this fight.") % {"name": name})

    def to_state(self) -> dict:
        return {"order": list(self.order), "scores": {k: list(v) for k, v in self.scores.items()},
                "turn": self.turn, "position": self.position, "sitting_out": sorted(self.sitting_out),
                "record": [list(r) for r in self.record]}

    @classmethod
    def from_state(cls, state: dict) -> DeclarationTurns:
        return cls(order=list(state["order"]), scores={k: tuple(v) for k, v in state["scores"].items()},
                   turn=state["turn"], position=state["position"], sitting_out=set(state["sitting_out"]),
                   record=[tuple(r) for r in state["record"]])


__all__ = ["TURN_SECONDS", "DeclarationTurns"]
