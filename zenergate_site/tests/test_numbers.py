"""Chances written one way everywhere, in the reader's language (zenergate_site/numbers.py)."""

from fractions import Fraction

from django.utils import translation

from zenergate_site.numbers import exact, percent


def test_percentages_in_english_and_german():
    cases = [(Fraction(135, 216), "62.5%"), (Fraction(0), "0%"), (Fraction(1), "100%"), (0.741, "74.1%"),
             (Fraction(1, 216), "0.5%"), (Fraction(1, 6**5), "0.0129%"), (Fraction(215, 216), "99.5%"),
             (Fraction(9997, 10000), "99.97%")]
    for probability, english in cases:
        assert percent(probability) == english
    with translation.override("de"):
        assert percent(Fraction(135, 216)) == "62,5 %"
        assert percent(Fraction(1, 6**5)) == "0,0129 %"


def test_a_tiny_chance_is_less_than_a_hundredth_of_a_percent_not_an_exponent():
    # A stat roll at −40 (RULINGS: escalated dice): about 9.7e-29 of all rolls succeed.
    tiny = Fraction(1, 6**36)
    assert percent(tiny) == "< 0.01%" and "e-" not in percent(tiny)
    assert percent(1 - tiny) == "> 99.99%"
    with translation.override("de"):
        assert percent(tiny) == "< 0,01 %"


def test_a_long_exact_chance_reads_as_one_in_n():
    assert exact(Fraction(135, 216)) == "5/8"
    assert exact(Fraction(1, 6**36)) == "about 1 in 1.03 × 10²⁸"
    assert exact(Fraction(12347, 6**12)) == "about 1 in 176,301"
    assert exact(Fraction(1, 6**7)) == "1/279936"  # short enough to say exactly
    assert exact(1 - Fraction(1, 6**36)) == "fails about 1 time in 1.03 × 10²⁸"
    assert len(exact(Fraction(7, 6**30))) < 30  # fits a phone's card
