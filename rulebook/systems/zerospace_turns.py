"""ZeroSpace turn order ("Zugreihenfolge"): rounds of six seconds, held turns and forced actions.

Source: "Zugreihenfolge" (rounds, the perception roll that sets the order, the environment
last), "Einen Zug aufschieben" (holding a turn) and "Eine Aktion erzwingen" (a forced,
purely defensive action that costs the character's next turn), with the Soraya, Virek-Kohl,
Issvisk and lackeys example over eight rounds (``rulebook/tests`` replays it).

A fight's order is fixed at its start: everyone rolls perception (2d6 + Intelligence AV, a
bonus die for the side with surprise) and acts from the highest total to the lowest, the same
order every round. Newcomers are placed by the GM. Neither a held turn nor a forced action
changes that order: after the held or forced turn the round goes on where it was.

Readings the text leaves open (docs/rules.md, "ZeroSpace turn order"):

- A turn held in one round may be taken any time later in that round or in the next, until
  the holder's own place comes up again; then it is gone and the regular turn is taken.
- A forced action is allowed when the character still has a turn to give up (not one already
  given up) and has not forced one this round; it sacrifices their next regular turn, this
  round's if still to come, else the next round's.
- Equal perception totals go to the higher Intelligence AV, then to the order the GM lists
  the characters in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rulebook import RulesError
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

#: A round of combat, in seconds.
ROUND_SECONDS = 6


@dataclass(frozen=True)
class Contender:
    """A character's perception roll for the order: the total and the AV that breaks ties."""

    name: str
    total: int
    action_value: int = 0


def initiative_order(contenders: Sequence[Contender]) -> tuple[str, ...]:
    """Return the names from the highest perception total to the lowest.

    Ties go to the higher action value, then to the order the contenders were listed in.
    """
    names = [contender.name for contender in contenders]
    if len(set(names)) != len(names):
        raise RulesError(_("Each character takes one place in the order; a name is listed twice."))
    ranked = sorted(enumerate(contenders), key=lambda pair: (-pair[1].total, -pair[1].action_value, pair[0]))
    return tuple(contender.name for _, contender in ranked)


@dataclass(frozen=True)
class Turn:
    """One line of the round's record: who, in which round, and how ("turn", "held", "forced",
    "delayed", "given up": kept in English, stored with the fight; marked for the catalogue and
    said in the reader's language by ``str``)."""

    round: int
    name: str
    how: str = "turn"

    def __str__(self) -> str:
        return self.name if self.how == "turn" else f"{self.name} ({_(self.how)})"


@dataclass
class TurnOrder:
    """The order of a ZeroSpace fight and where it stands.

    ``next_turn`` moves to the next regular turn (a sacrificed turn is recorded and passed);
    ``hold`` delays the acting character's turn; ``take_held`` spends a held turn now;
    ``force`` records a forced defensive action. ``record`` lists every turn taken.
    """

    order: list[str]
    round: int = 1
    position: int = -1  # index of the regular turn being played; -1 before the round's first
    held: dict[str, int] = field(default_factory=dict)  # name → the round the turn was held in
    sacrificed: set[str] = field(default_factory=set)  # next regular turn given up
    forced_in: dict[str, int] = field(default_factory=dict)  # name → the last round they forced in
    record: list[Turn] = field(default_factory=list)

    # --- storing --------------------------------------------------------------------------------
    def to_state(self) -> dict:
        """Everything needed to pick the fight up again, as JSON-friendly values."""
        return {"order": list(self.order), "round": self.round, "position": self.position,
                "held": dict(self.held), "sacrificed": sorted(self.sacrificed), "forced_in": dict(self.forced_in),
                "record": [[turn.round, turn.name, turn.how] for turn in self.record]}

    @classmethod
    def from_state(cls, state: dict) -> TurnOrder:
        return cls(order=list(state["order"]), round=state["round"], position=state["position"],
                   held=dict(state["held"]), sacrificed=set(state["sacrificed"]), forced_in=dict(state["forced_in"]),
                   record=[Turn(*turn) for turn in state["record"]])

    @classmethod
    def start(cls, order: Iterable[str]) -> TurnOrder:
        names = list(order)
        if not names:
            raise RulesError(_("A fight needs at least one character in the order."))
        if len(set(names)) != len(names):
            raise RulesError(_("Each character takes one place in the order; a name is listed twice."))
        return cls(order=names)

    # --- reading ------------------------------------------------------------------------------
    @property
    def acting(self) -> str | None:
        """The character whose regular turn is being played, if any."""
        return self.order[self.position] if 0 <= self.position < len(self.order) else None

    def turns_in(self, round_number: int) -> list[str]:
        """Everything recorded in one round, delayed and given-up turns included."""
        return [str(turn) for turn in self.record if turn.round == round_number]

    def played_in(self, round_number: int) -> list[str]:
        """The turns actually played in one round, as the article lists them ("Soraya (held)")."""
        return [str(turn) for turn in self.record
                if turn.round == round_number and turn.how not in ("delayed", "given up")]

    def _check_in_order(self, name: str) -> None:
        if name not in self.order:
            raise RulesError(_("%(name)s is not in this fight's order.") % {"name": name})

    # --- the GM's changes to the order --------------------------------------------------------
    def insert(self, name: str, *, after: str | None = None) -> None:
        """Place a newcomer after ``after`` (first when None); the order is otherwise unchanged."""
        if name in self.order:
            raise RulesError(_("%(name)s already has a place in the order.") % {"name": name})
        index = 0 if after is None else self.order.index(after) + 1 if after in self.order else None
        if index is None:
            raise RulesError(_("%(name)s is not in this fight's order.") % {"name": after})
        self.order.insert(index, name)
        if index <= self.position:
            self.position += 1

    def remove(self, name: str) -> None:
        """Take a character out of the fight (defeated, fled)."""
        self._check_in_order(name)
        index = self.order.index(name)
        self.order.pop(index)
        self.held.pop(name, None)
        self.sacrificed.discard(name)
        if index <= self.position:
            self.position -= 1

    # --- turns --------------------------------------------------------------------------------
    def next_turn(self) -> str:
        """Move to the next regular turn and return who acts.

        A turn given up by a forced action is recorded as such and passed over; a round whose
        last turn has been played starts the next round (the environment acts in between).
        """
        while True:
            self.position += 1
            if self.position >= len(self.order):
                self.round += 1
                self.position = 0
            name = self.order[self.position]
            if name in self.held:  # their place came round again: an unspent held turn is gone
                del self.held[name]
            if name in self.sacrificed:
                self.sacrificed.discard(name)
                self.record.append(Turn(self.round, name, gettext_noop("given up")))
                continue
            self.record.append(Turn(self.round, name))
            return name

    def hold(self, name: str) -> None:
        """The acting character delays their turn, to take it later this round or the next."""
        if name != self.acting:
            raise RulesError(_("Only the acting character can hold their turn; it is %(name)s's.")
                             % {"name": self.acting})
        last = self.record[-1]
        self.record[-1] = Turn(last.round, last.name, gettext_noop("delayed"))
        self.held[name] = self.round

    def take_held(self, name: str) -> None:
        """A character spends their held turn now, interrupting whoever acts."""
        self._check_in_order(name)
        if name not in self.held:
            raise RulesError(_("%(name)s has no held turn to take.") % {"name": name})
        del self.held[name]
        self.record.append(Turn(self.round, name, gettext_noop("held")))

    def force(self, name: str) -> None:
        """A character forces a purely defensive action now, giving up their next regular turn.

        Once per round at most, and not while a turn is already given up.
        """
        self._check_in_order(name)
        if self.forced_in.get(name) == self.round:
            raise RulesError(_("%(name)s has already forced an action this round.") % {"name": name})
        if name in self.sacrificed:
            raise RulesError(_("%(name)s has already given up their next turn.") % {"name": name})
        self.forced_in[name] = self.round
        self.sacrificed.add(name)
        self.record.append(Turn(self.round, name, gettext_noop("forced")))
