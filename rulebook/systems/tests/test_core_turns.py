"""Core Rules ch. V turns: declarations from the lowest SOM up (V.6), reaction checks (V.5)."""

import pytest

from rulebook import RulesError
from rulebook.systems.core_rules import Declarant
from rulebook.systems.core_turns import DeclarationTurns


def _ambush():
    """V.6's ambush: three guards around a fourth who picks a lock and is surprised."""
    return DeclarationTurns.start([Declarant("Picker", 4, 5, 6, aware=False), Declarant("Guard A", 6, 5, 5),
                                   Declarant("Guard B", 6, 5, 5), Declarant("Hood", 3, 2, 2)], dice=[7, 2])


def test_the_surprised_sit_the_first_turn_out():
    turns, found = _ambush()
    assert found.order == ("Hood", "Guard B", "Guard A") and found.sitting_out == ("Picker",)
    assert dict(found.tie_rolls) == {"Guard A": (7,), "Guard B": (2,)}
    assert turns.order == ["Hood", "Picker", "Guard B", "Guard A"]
    assert [turns.next_declaration() for _ in range(4)] == ["Hood", "Guard B", "Guard A", "Hood"]
    assert turns.turn == 2 and ("1", "Picker", "sits the turn out") not in turns.record
    assert (1, "Picker", "sits the turn out") in turns.record
    assert turns.next_declaration() == "Picker"  # the second turn: everyone declares


def test_a_failed_reaction_loses_the_rest_of_the_turn():
    turns, _ = _ambush()
    turns.next_declaration()
    roll = turns.reaction("Guard B", 6, dice=[7])
    assert not roll.success and roll.details["loses_turn"]
    assert turns.next_declaration() == "Guard A"
    assert turns.reaction("Hood", 10, dice=[10]).success  # SOM 10 never fails
    with pytest.raises(RulesError):
        turns.reaction("Nobody", 5, dice=[1])


def test_newcomers_slot_in_and_the_state_round_trips():
    turns, _ = _ambush()
    turns.next_declaration()
    turns.next_declaration()  # Guard B declares
    turns.insert("Late", 3, 9, 9)  # after Hood (3, 2, 2), before the picker
    assert turns.order == ["Hood", "Late", "Picker", "Guard B", "Guard A"] and turns.declaring == "Guard B"
    with pytest.raises(RulesError, match="already in the fight"):
        turns.insert("Late", 3, 9, 9)
    turns.remove("Hood")
    assert turns.declaring == "Guard B"
    again = DeclarationTurns.from_state(turns.to_state())
    assert again == turns
