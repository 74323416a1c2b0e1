"""Game time: durations on the fight's clock and how they read (rulebook.game_time)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import RulesError, game_time


@pytest.mark.parametrize("seconds, said", [
    (Fraction(1, 2), "a moment"), (1, "1 s"), (20, "20 s"), (59, "59 s"), (60, "1 min"), (90, "1 min 30 s"),
    (1800, "30 min"), (3600, "1 h"), (7500, "2 h 5 min"), (7199, "2 h"), (86400, "1 day"), (3 * 86400, "3 days"),
    (2 * 86400 + 7200, "2 days 2 h"), (game_time.YEAR, "1 year"), (12 * game_time.YEAR, "12 years"),
    (10**15, "100 years or more"), (0, "no time"),
])
def test_a_duration_reads_in_its_largest_unit(seconds, said):
    assert game_time.duration(seconds) == said


def test_out_cold_says_the_time_and_the_actions_missed():
    assert game_time.out_cold(20, 10) == "20 s — misses 2 actions"
    assert game_time.out_cold(10, 10) == "10 s — misses 1 action"
    assert game_time.out_cold(1800, 10) == "30 min — misses 180 actions"
    assert game_time.out_cold(Fraction(1, 10), 10) == "a moment — misses 1 action"


def test_out_cold_from_the_time_charts_last_row_is_the_rest_of_the_fight():
    """RULINGS §8: "out cold for the rest of the fight (10,000+ s)", no count of actions."""
    assert game_time.out_cold(10_000, 10) == "for the rest of the fight (10,000+ s)"
    assert game_time.out_cold(5_000, 10) == "1 h 24 min — misses 500 actions"  # row 12: a time
    assert game_time.ends_at(round_number=1, round_seconds=10, seconds=10_000) == 10 + game_time.LONGEST_SECONDS


def test_a_knock_out_ends_on_the_clock_from_the_victims_next_chance_to_act():
    assert game_time.ends_at(round_number=1, round_seconds=10, seconds=20) == 30  # it had acted
    assert game_time.ends_at(round_number=2, round_seconds=10, seconds=20, acts_later=True) == 30
    assert game_time.ends_at(round_number=3, round_seconds=6, seconds=Fraction(5, 2)) == 21
    assert game_time.ends_at(round_number=1, round_seconds=10, seconds=10**40) == 10 + game_time.LONGEST_SECONDS
    with pytest.raises(RulesError):
        game_time.ends_at(round_number=1, round_seconds=10, seconds=-1)


@given(seconds=st.fractions(min_value=Fraction(1, 100), max_value=5000), round_seconds=st.integers(1, 60),
       hit_round=st.integers(1, 50), acts_later=st.booleans())
def test_the_actions_missed_on_the_clock_are_the_ones_the_log_promises(seconds, round_seconds, hit_round,
                                                                       acts_later):
    """Walking the victim's actions after the hit (this round's too, when it is still to act),
    it misses exactly ``actions_missed`` of them, in a row, and acts again in ``back_in_round``."""
    until = game_time.ends_at(round_number=hit_round, round_seconds=round_seconds, seconds=seconds,
                              acts_later=acts_later)
    first = hit_round if acts_later else hit_round + 1
    missed = [r for r in range(first, hit_round + 6000)
              if game_time.misses_action(until=until, round_number=r, round_seconds=round_seconds)]
    assert len(missed) == game_time.actions_missed(seconds, round_seconds)
    assert missed == list(range(first, first + len(missed)))
    assert game_time.back_in_round(until, round_seconds) == first + len(missed)
    assert game_time.seconds_left(until=until, round_number=first, round_seconds=round_seconds) > 0
