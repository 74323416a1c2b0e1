"""Tests for rulebook.therapies: anti-radiation therapies and what they do to the track."""

import random
from fractions import Fraction

import pytest

from rulebook import RulesError
from rulebook.radiation import RadiationTrack, next_transition_number, repeat_extra
from rulebook.tests.scripted import ScriptedRng
from rulebook.therapies import Therapy, apply_therapy, roll_therapy


def test_therapy_end_swap_example():
    """Article, "Radiation Damage": reducing trauma by 4 also reduces shock by 4, costing 8 END."""
    therapy = Therapy(
        "Prussian blue",
        con_healed=2,
        extra_reduction="d6",
        track_steps_back="d3",
        shock="2d6",
        trauma="2d6",
    )
    rolled = roll_therapy(therapy, rng=ScriptedRng(4, 2, 5, 4, 6, 3, 2, 3, 4, 5))
    assert (rolled.extra_reduction.amount, rolled.track_steps_back.amount) == (4, 2)
    assert (rolled.shock.amount, rolled.trauma.amount, rolled.end_delay_hours.amount) == (9, 9, 14)
    track = RadiationTrack(damage={"CON": 10}, step=5, step_hours=Fraction(30), transitions=3)
    outcome = apply_therapy(track, rolled, as_end=4)
    assert (outcome.shock, outcome.trauma, outcome.end_loss, outcome.end_delay_hours) == (
        5,
        5,
        8,
        14,
    )
    assert outcome.con_healed == {"CON": 2} and outcome.track.damage == {"CON": 8}
    assert outcome.track.step == 3 and outcome.track.step_hours == 0
    assert outcome.track.extra_reduction == 4
    assert (
        repeat_extra(next_transition_number(outcome.track), outcome.track.extra_reduction)[0] == 0
    )


def test_therapy_end_swap_is_capped_at_half_of_each():
    therapy = Therapy("field kit", shock="2d6", trauma="d3")
    rolled = roll_therapy(therapy, rng=ScriptedRng(1, 1, 6, 6, 3, 1, 1, 1, 1))
    assert rolled.trauma.amount == 3
    with pytest.raises(RulesError):
        apply_therapy(RadiationTrack(), rolled, as_end=2)
    assert apply_therapy(RadiationTrack(), rolled, as_end=1).end_loss == 2


def test_therapy_cannot_move_the_track_before_its_start():
    therapy = Therapy("strong", track_steps_back="3d6")
    rolled = roll_therapy(therapy, rng=random.Random(5))
    track = RadiationTrack(damage={"CON": 4}, step=1, step_hours=Fraction(5))
    assert apply_therapy(track, rolled).track.step == 0


def test_therapy_definitions_are_checked():
    with pytest.raises(RulesError):
        Therapy("too strong", con_healed=4)
    with pytest.raises(RulesError):
        Therapy("too harsh", trauma="3d6")
    with pytest.raises(RulesError):
        Therapy("gibberish", shock="lots")
    assert Therapy("gentle", extra_reduction="0", track_steps_back="2d6", shock="3d6", trauma="2d6")


# --- Efficacy that falls with repeated use ----------------------------------------------------


def radiopurge_roll(shock=2, trauma=1):
    therapy = Therapy(
        "Radiopurge",
        con_healed=3,
        extra_reduction="2d6",
        track_steps_back="d6",
        shock="d6",
        trauma="d3",
        efficacy_loss=2,
    )
    # Extra 4 + 3, steps 5, then the shock d6, the trauma d3 and the END delay's 4d6.
    return roll_therapy(therapy, rng=ScriptedRng(4, 3, 5, shock, trauma, 1, 1, 1, 1))


def worn_track():
    return RadiationTrack(damage={"CON": 10}, step=6, step_hours=Fraction(30), transitions=4)


def test_a_therapy_weakens_with_each_earlier_use():
    """Article, "Radiation Damage": "Some anti-radiation therapies reduce in efficacy with
    repeated usage". Each earlier use takes efficacy_loss off each of the three benefits."""
    outcome = apply_therapy(worn_track(), radiopurge_roll(), earlier_uses=1)
    assert outcome.con_healed == {"CON": 1} and outcome.track.damage == {"CON": 9}
    assert outcome.track.extra_reduction == 5
    assert outcome.track.step == 3 and outcome.track.step_hours == 0
    assert (outcome.shock, outcome.trauma) == (2, 1), "side effects are not reduced"
    assert outcome.breakdown == [
        ("earlier uses of this therapy", 1),
        ("efficacy lost per earlier use", 2),
        ("each benefit lowered by (never below 0)", 2),
        ("long-term loss the therapy heals", 3),
        ("lowered by earlier uses", -2),
        ("long-term loss healed at once", 1),
        ("repeat-transition extra rolled", 7),
        ("lowered by earlier uses", -2),
        ("repeat-transition extra removed", 5),
        ("recovery-track steps rolled", 5),
        ("lowered by earlier uses", -2),
        ("recovery-track steps back", 3),
        ("shock rolled", 2),
        ("trauma rolled", 1),
        ("taken as END instead, from each", 0),
        ("shock suffered", 2),
        ("trauma suffered", 1),
        ("END lost until the delay is over", 0),
    ]


def test_a_worn_out_therapy_still_has_its_side_effects():
    """Article, "Radiation Damage": repeated usage lowers the benefits, never below nothing;
    the shock and trauma it inflicts stay as rolled."""
    track = worn_track()
    outcome = apply_therapy(track, radiopurge_roll(shock=4, trauma=2), earlier_uses=3, as_end=1)
    assert outcome.con_healed == {} and outcome.track.damage == {"CON": 10}
    assert outcome.track.extra_reduction == 1, "7 rolled, 6 lost"
    assert outcome.track.step == 6 and outcome.track.step_hours == 30, "no step back: no restart"
    assert (outcome.shock, outcome.trauma, outcome.end_loss) == (3, 1, 2)
    assert ("lowered by earlier uses", -3) in outcome.breakdown, "never more than the benefit"


def test_first_use_of_a_weakening_therapy_is_at_full_strength():
    outcome = apply_therapy(worn_track(), radiopurge_roll())
    assert outcome.con_healed == {"CON": 3} and outcome.track.extra_reduction == 7
    assert outcome.track.step == 1
    assert outcome.breakdown[:3] == [
        ("earlier uses of this therapy", 0),
        ("efficacy lost per earlier use", 2),
        ("each benefit lowered by (never below 0)", 0),
    ]


def test_a_therapy_that_does_not_weaken_ignores_earlier_uses():
    rolled = roll_therapy(Therapy("steady", con_healed=2), rng=random.Random(9))
    track = worn_track()
    again = apply_therapy(track, rolled, earlier_uses=5)
    assert again == apply_therapy(track, rolled)
    assert [label for label, _ in again.breakdown][:3] == [
        "long-term loss healed at once",
        "repeat-transition extra removed",
        "recovery-track steps back",
    ]


@pytest.mark.parametrize("bad", [-1, 4, True, "1", 0.5])
def test_efficacy_loss_is_a_whole_number_from_zero_to_three(bad):
    with pytest.raises(RulesError, match="efficacy"):
        Therapy("odd", efficacy_loss=bad)


def test_earlier_uses_cannot_be_negative():
    with pytest.raises(RulesError, match="earlier_uses"):
        apply_therapy(worn_track(), radiopurge_roll(), earlier_uses=-1)
