"""Initiative, surprise and micro-time reaction saves (rulebook.initiative)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.initiative import Combatant, initiative_order, reaction_save
from rulebook.tests.scripted import ScriptedRng


def _sums(breakdown):
    return sum(value for _, value in breakdown)


def _by_id(order):
    return {entry.id: entry for entry in order.entries}


def test_initiative_ranks_awa_by_one_and_mel_by_two_per_distinct_value():
    """RULINGS 6: AWA rank +1 and MEL rank +2 per distinct value above the lowest present."""
    people = [Combatant("ann", awa=10, mel=14, res=12), Combatant("bo", awa=12, mel=14, res=10),
              Combatant("cy", awa=15, mel=9, res=11), Combatant("di", awa=12, mel=18, res=9)]
    order = initiative_order(people, ScriptedRng(2, 2, 2, 2))
    got = {id_: (e.awa_rank, e.combat_rank, e.initiative) for id_, e in _by_id(order).items()}
    assert got == {"ann": (0, 2, 4), "bo": (1, 2, 5), "cy": (2, 0, 4), "di": (1, 4, 7)}
    assert [g.initiative for g in order.groups] == [7, 5, 4]
    tie = order.groups[-1]
    assert tie.micro_time and [e.id for e in tie.entries] == ["cy", "ann"]  # RES 11 before 12
    assert all(_sums(e.breakdown) == e.initiative for e in order.entries)


def test_initiative_conditions():
    """Article, "Initiative & Surprise": can't move rolls 1, surprised 0 and no ranks, prone ≤ 3."""
    people = [Combatant("stuck", awa=20, mel=20, res=10, can_move=False),
              Combatant("shocked", awa=20, mel=20, res=10, surprised=True, prone=True),
              Combatant("down", awa=5, mel=5, res=10, prone=True),
              Combatant("up", awa=5, mel=5, res=10)]
    rng = ScriptedRng(6, 6)  # only "down" and "up" roll
    order = _by_id(initiative_order(people, rng))
    assert rng.done()
    assert (order["stuck"].d6, order["stuck"].initiative) == (1, 1 + 1 + 2)
    assert (order["shocked"].initiative, order["shocked"].awa_rank) == (0, 0)
    assert (order["down"].d6, order["up"].d6) == (3, 6)


def test_initiative_accepts_mappings_and_acc():
    people = [{"id": 1, "AWA": 10, "ACC": 12, "RES": 10}, {"id": 2, "awa": 11, "acc": 15, "res": 9}]
    order = initiative_order(people, ScriptedRng(4, 4), combat_stat="ACC")
    assert [e.id for e in order.entries] == [2, 1]
    with pytest.raises(RulesError):
        initiative_order(people, ScriptedRng(4, 4))  # no MEL given
    with pytest.raises(RulesError):
        initiative_order([Combatant("a", 1, 1, mel=1), Combatant("a", 2, 2, mel=2)], ScriptedRng())


@given(st.lists(st.tuples(st.integers(1, 30), st.integers(1, 30), st.integers(1, 30),
                          st.booleans(), st.booleans(), st.booleans()), max_size=8),
       st.integers(0, 2**32))
def test_initiative_order_is_sorted_and_complete(stats, seed):
    people = [Combatant(i, awa=a, mel=m, res=r, can_move=c, surprised=s, prone=p)
              for i, (a, m, r, c, s, p) in enumerate(stats)]
    order = initiative_order(people, random.Random(seed))
    values = [g.initiative for g in order.groups]
    assert values == sorted(set(values), reverse=True)
    assert sorted(e.id for e in order.entries) == list(range(len(people)))
    for group in order.groups:
        assert [e.res for e in group.entries] == sorted(e.res for e in group.entries)


def test_micro_time_reaction_save():
    """Article, "Time", Micro-Time: 250 ms → −8; the next initiative reacts automatically."""
    assert reaction_save(nim=14, milliseconds=250, has_next_initiative=True).automatic
    rng = ScriptedRng(1, 1, 2, 2)
    result = reaction_save(nim=14, milliseconds=250, rng=rng)
    assert (result.modifier, result.target, result.success) == (-8, 6, True)
    assert reaction_save(nim=14, milliseconds=1000, rng=ScriptedRng(2, 2, 2, 2)).modifier == -6
