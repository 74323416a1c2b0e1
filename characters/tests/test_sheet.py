"""What the sheet computes from a character: stats in play, exact odds, resilience to a bad line."""

from fractions import Fraction

import pytest

from campaign.testing import arranged
from characters import items, services
from characters.models import Weapon
from characters.selectors import character_with_sheet
from characters.sheet import compute_sheet, stat_terms

pytestmark = pytest.mark.django_db

STATS = {"STR": 12, "CON": 14, "RES": 13, "NIM": 15, "DEX": 16, "ACC": 12, "MEL": 10,
         "PRAC": 15, "THEO": 14, "ENC": 13, "LAN": 12, "AWA": 16, "PERS": 14}


@pytest.fixture
def mara(personas):
    return services.character_create(campaign=personas["campaign"], owner=personas["player"], name="Mara",
                                     stats=STATS, int_dice=[4, 2], by=personas["player"])


def test_stats_in_play_carry_armour_effects(mara, personas):
    """RULINGS 6: RES is rated for the heaviest armour, so no armour (type 0) is −4 RES."""
    terms = stat_terms(character_with_sheet(character_id=mara.pk))
    assert sum(v for _, v in terms["RES"]) == 9 and ("no armour (armour type 0)", -4) in terms["RES"]
    assert sum(v for _, v in terms["DEX"]) == 16  # ⌈(16 + 15) / 2⌉
    # Hardness 8 × coverage 4 / 4 → armour type 8: RES +0, NIM −3, ACC −2, MEL −4, DEX −4.
    items.item_create(character=mara, kind_name="armour", data={"name": "Plate", "hardness": 8, "coverage": 4},
                      by=personas["player"], is_gm=False)
    terms = stat_terms(character_with_sheet(character_id=mara.pk))
    assert {code: sum(v for _, v in terms[code]) for code in ("RES", "NIM", "ACC", "MEL", "DEX")} == {
        "RES": 13, "NIM": 12, "ACC": 10, "MEL": 6, "DEX": 12}


def test_odds_are_exact_fractions(mara):
    sheet = compute_sheet(character_with_sheet(character_id=mara.pk))
    con = sheet.stat_checks["CON"]
    from rulebook.dice import probability_at_most

    assert con.exact == probability_at_most(14, 4) and con.successes == con.exact * 1296
    assert isinstance(con.exact, Fraction)


def test_one_impossible_line_does_not_blank_the_sheet(mara, personas):
    items.item_create(character=mara, kind_name="skills", data={"name": "Medic", "breadth": "broad", "ranks": 1,
                                                                 "stat": "PRAC"}, by=personas["player"], is_gm=False)
    # A weapon the rules refuse: restricting its range by 99 steps would take it below index 0.
    with arranged(mara.campaign_id):
        Weapon.objects.create(character=mara, name="Broken", damage_points=1, range_reduction_steps=99)
    sheet = compute_sheet(character_with_sheet(character_id=mara.pk))
    assert sheet.problems  # the weapon is reported…
    assert sheet.derived["HP"][0] == 56 and sheet.stat_checks and sheet.skill_checks  # …and the rest still shows


def test_ticking_skilled_on_a_classified_weapon_asks_the_gm_again(mara, personas):
    weapon = items.item_create(character=mara, kind_name="weapons", data={"name": "Rifle", "damage_points": 5},
                               by=personas["gm"], is_gm=True)
    assert weapon.classified
    weapon = items.item_update(item=weapon, kind_name="weapons", data={"skilled": True}, by=personas["player"],
                               is_gm=False)
    assert not weapon.classified


def test_armour_put_on_from_the_sheet_moves_the_stats_and_their_odds_at_once(mara, personas, client):
    """Issue: RES kept its old value and odds until a reload after armour was added. The answer to
    the armour form now carries the stats section (and the skills and weapons) out of band."""
    from django.urls import reverse

    client.force_login(personas["player"])
    url = reverse("character-line-add", args=[mara.pk, "armour"])
    response = client.post(url, {"armour-new-name": "Plate", "armour-new-hardness": 8, "armour-new-coverage": 4,
                                 "armour-new-nim_penalty": 0, "armour-new-tech_shift": 0, "armour-new-worn": "on",
                                 "armour-new-fate": "", "next": "sheet"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content.decode()[:500]
    html = response.content.decode()
    assert '<section class="card sheet-stats" id="sec-stats" hx-swap-oob="true">' in html
    stats = html[html.index('id="sec-stats"'):]
    stats = stats[:stats.index("</section>")]
    res_row = stats[stats.index(">RES<"):]
    res_row = res_row[:res_row.index("</tr>")]
    assert "<strong>13</strong>" in res_row  # RES 13 with the plate (9 without armour)
    assert 'id="sec-skills"' in html and 'id="sec-weapons"' in html
