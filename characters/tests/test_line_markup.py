"""A sheet line written out in Python (characters/views/line_markup.py): what it shows, escaped."""

from fractions import Fraction
from types import SimpleNamespace

from characters.sheet import CheckLine
from characters.views.line_markup import line_html
from characters.views.page import Line

SECTION = {"kind": "skills", "page": "sheet", "roll_url": "/characters/7/roll/"}


def _line(**changes) -> Line:
    check = CheckLine("Rifle <b>", 12, [("DEX", 11), ("Ranks", 3), ("Hurt", -2)], 3, 0.740740, 3, Fraction(160, 216))
    values = {"item": SimpleNamespace(pk=12, name='Rifle <script>alert("x")</script>'),
              "facts": [("Breadth", "Narrow"), ("Notes", "a & b")], "cost": 4, "check": check,
              "exact": "160 of 216 rolls of 3d6 succeed", "roll_line": "skill:12", "can_edit": True,
              "url": "/characters/7/lines/skills/12/"}
    return Line(**{**values, **changes})


def test_a_line_shows_its_facts_odds_and_actions_with_every_value_escaped():
    html = line_html(_line(), SECTION, first=True, csrf_token="tok")
    assert "<script>" not in html and "Rifle &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert '<span class="badge">Profession</span>' in html  # the first skill
    assert "<dd>a &amp; b</dd>" in html and "<div><dt>Cost</dt><dd>4</dd></div>" in html
    assert "≤ <strong>12</strong>" in html and "<b>+3</b>" in html and "<b>-2</b>" in html
    assert '>74.1%</span>' in html and "(likely)" in html and 'style="width: 74%"' in html
    assert 'hx-get="/characters/7/roll/?line=skill%3A12"' in html and "Rifle &lt;b&gt;" in html
    assert html.count('name="csrfmiddlewaretoken" value="tok"') == 1  # Remove (no classify form here)
    assert 'action="/characters/7/lines/skills/12/delete/"' in html and 'hx-get="/characters/7/lines/skills/12/edit/?next=sheet"' in html
    assert "miracle rule" not in html and "≤ <strong>12</strong> <span class=\"muted small\">on 3d6</span>" in html


def test_a_line_without_rights_token_or_check_shows_only_what_it_has():
    html = line_html(_line(can_edit=False, check=None, roll_line="", pending=True, errors=["Too <many>"]),
                     SECTION, first=False, csrf_token="")
    assert "Profession" not in html and "awaiting GM" in html and 'class="line pending"' in html
    assert "odds" not in html and "roll-line" not in html and "line-actions" not in html
    assert '<li>Too &lt;many&gt;</li>' in html and "csrfmiddlewaretoken" not in html


def test_the_miracle_rule_is_said_when_more_dice_are_rolled():
    check = CheckLine("Leap", 1, [("AGI", 1)], 3, 0.001, 5, Fraction(1, 7776))
    html = line_html(_line(check=check), SECTION, first=False, csrf_token="tok")
    # One target, one dice count: the ones rolled (RULINGS §1: +1 die and +2 until possible).
    assert "≤ <strong>5</strong> <span class=\"muted small\">on 5d6</span>" in html
    assert "Impossible on 3d6 at 1: the miracle rule adds 2 dice and 4 to the target." in html
