"""ZeroSpace turn order: the article's eight rounds with Soraya, Virek-Kohl, Issvisk and the
lackeys (001, "Zugreihenfolge", "Einen Zug aufschieben", "Eine Aktion erzwingen")."""

import pytest

from rulebook import RulesError
from rulebook.systems.zerospace_turns import ROUND_SECONDS, Contender, TurnOrder, initiative_order

SORAYA, VIREK, ISSVISK, LACKEYS = "Soraya", "Virek-Kohl", "Issvisk", "Lackeys"


def _play_round(order: TurnOrder, during=None) -> None:
    """Play the next round's regular turns; ``during`` may act at each of them."""
    acting = order.next_turn()
    while True:
        if during:
            during(order, acting)
        if order.position == len(order.order) - 1:
            return
        acting = order.next_turn()


def test_the_articles_eight_rounds():
    order = TurnOrder.start([SORAYA, VIREK, LACKEYS])
    # Round 1: the order the perception rolls gave.
    _play_round(order)
    assert order.played_in(1) == [SORAYA, VIREK, LACKEYS]
    # Round 2: Issvisk comes round the corner; the GM places him after Virek-Kohl.
    order.insert(ISSVISK, after=VIREK)
    _play_round(order)
    assert order.played_in(2) == [SORAYA, VIREK, ISSVISK, LACKEYS]

    # Round 3: Soraya holds her turn and spends it after Issvisk's, to help him.
    def round_3(order, acting):
        if acting == SORAYA:
            order.hold(SORAYA)
        if acting == ISSVISK:
            order.take_held(SORAYA)

    _play_round(order, round_3)
    assert order.played_in(3) == [VIREK, ISSVISK, f"{SORAYA} (held)", LACKEYS]
    # Round 4: back to the order; holding changed nothing.
    _play_round(order)
    assert order.played_in(4) == [SORAYA, VIREK, ISSVISK, LACKEYS]
    _play_round(order)
    assert order.played_in(5) == [SORAYA, VIREK, ISSVISK, LACKEYS]

    # Round 6: after her own turn, Soraya forces an action in Virek-Kohl's to shield Issvisk.
    def round_6(order, acting):
        if acting == VIREK:
            order.force(SORAYA)

    _play_round(order, round_6)
    assert order.played_in(6) == [SORAYA, VIREK, f"{SORAYA} (forced)", ISSVISK, LACKEYS]
    # Round 7: the turn she gave up is gone.
    _play_round(order)
    assert order.played_in(7) == [VIREK, ISSVISK, LACKEYS]
    assert order.turns_in(7)[0] == f"{SORAYA} (given up)"
    # Round 8: everything as before.
    _play_round(order)
    assert order.played_in(8) == [SORAYA, VIREK, ISSVISK, LACKEYS]
    assert order.order == [SORAYA, VIREK, ISSVISK, LACKEYS]


def test_a_round_is_six_seconds():
    assert ROUND_SECONDS == 6  # "Jede Kampfrunde ist sechs Sekunden lang": ten rounds a minute
    assert 60 // ROUND_SECONDS == 10


def test_perception_sets_the_order_highest_first_ties_to_the_higher_av_then_the_list():
    order = initiative_order([Contender("A", 9, 2), Contender("B", 12, 1), Contender("C", 9, 4),
                              Contender("D", 9, 4)])
    assert order == ("B", "C", "D", "A")
    with pytest.raises(RulesError, match="listed twice"):
        initiative_order([Contender("A", 9), Contender("A", 7)])


def test_a_forced_turn_taken_before_ones_own_gives_up_this_rounds_turn():
    order = TurnOrder.start(["A", "B", "C"])
    assert order.next_turn() == "A"
    order.force("C")  # C shields someone in A's turn: C's turn this round is gone
    assert order.next_turn() == "B"
    assert order.next_turn() == "A"  # round 2: C was passed over
    assert order.played_in(1) == ["A", "C (forced)", "B"]
    assert order.turns_in(1)[-1] == "C (given up)"
    assert order.round == 2


def test_once_per_round_and_not_twice_in_advance():
    order = TurnOrder.start(["A", "B"])
    order.next_turn()
    order.force("B")
    with pytest.raises(RulesError, match="already forced an action this round"):
        order.force("B")
    order.next_turn()  # B's turn is given up; A again in round 2
    assert order.round == 2
    order.force("B")  # a new round, a turn to give up again
    with pytest.raises(RulesError, match="already forced"):
        order.force("B")


def test_a_held_turn_lasts_until_the_holders_place_comes_round_again():
    order = TurnOrder.start(["A", "B"])
    order.next_turn()
    order.hold("A")
    order.next_turn()  # B
    order.next_turn()  # round 2, A's place: the unspent held turn is gone, the regular one played
    with pytest.raises(RulesError, match="no held turn"):
        order.take_held("A")
    assert order.played_in(1) == ["B"] and order.played_in(2) == ["A"]


def test_a_held_turn_can_be_spent_in_the_next_round_before_ones_own_place():
    order = TurnOrder.start(["A", "B"])
    order.next_turn()
    order.next_turn()
    order.hold("B")  # B waits, into round 2
    order.next_turn()  # round 2, A
    order.take_held("B")
    assert order.played_in(2) == ["A", "B (held)"]
    assert order.next_turn() == "B"  # and B's own turn still comes


def test_only_the_acting_character_holds_and_strangers_are_refused():
    order = TurnOrder.start(["A", "B"])
    order.next_turn()
    with pytest.raises(RulesError, match="it is A's"):
        order.hold("B")
    with pytest.raises(RulesError, match="not in this fight"):
        order.force("Z")
    with pytest.raises(RulesError, match="already has a place"):
        order.insert("A")
    with pytest.raises(RulesError, match="listed twice"):
        TurnOrder.start(["A", "A"])


def test_a_newcomer_before_the_acting_character_keeps_the_round_where_it_was():
    order = TurnOrder.start(["A", "B", "C"])
    order.next_turn()
    order.next_turn()  # B acts
    order.insert("N")  # placed first
    assert order.acting == "B"
    assert order.next_turn() == "C"
    assert order.next_turn() == "N"  # round 2 starts with the newcomer
    order.remove("B")
    assert order.next_turn() == "A" and order.next_turn() == "C"


def test_a_stored_order_picks_up_where_it_was():
    order = TurnOrder.start(["A", "B", "C"])
    order.next_turn()
    order.hold("A")
    order.force("C")
    again = TurnOrder.from_state(order.to_state())
    assert again == order
    assert again.next_turn() == "B" and again.next_turn() == "A"  # C gave its turn up
