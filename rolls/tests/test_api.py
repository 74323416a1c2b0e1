"""POST /api/v1/odds/ against brute force, and the roll feed: who rolls, who sees, what is stored."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from campaign.testing import arranged
from rolls.models import Roll

pytestmark = pytest.mark.django_db


def fraction(text: str) -> Fraction:
    return Fraction(text)


# --- Odds: each system against an independent count over every roll ---------------------------
def brute_zener(target: int, dice: int) -> tuple[Fraction, Counter]:
    totals = Counter(sum(r) for r in product(range(1, 7), repeat=dice))
    whole = 6**dice
    return Fraction(sum(w for t, w in totals.items() if t <= target), whole), totals


def brute_success_check(bonus: int, tn: int, advantage: int) -> Fraction:
    wins = whole = 0
    for roll in product(range(1, 11), repeat=3 if advantage else 2):
        kept = sorted(roll)[1:] if advantage == 1 else sorted(roll)[:2] if advantage == -1 else roll
        whole += 1
        wins += sum(kept) + bonus >= tn
    return Fraction(wins, whole)


def brute_zerospace(av: int, dv: int) -> tuple[Fraction, Fraction]:
    """(P(attack > defence), P(tie)) for 2d6 + AV against 2d6 + DV."""
    wins = ties = 0
    for a1, a2, d1, d2 in product(range(1, 7), repeat=4):
        attack, defence = a1 + a2 + av, d1 + d2 + dv
        wins += attack > defence
        ties += attack == defence
    return Fraction(wins, 6**4), Fraction(ties, 6**4)


@pytest.mark.parametrize("target, dice", [(10, 3), (3, 3), (18, 3), (14, 4), (0, 3), (21, 5)])
def test_zener_odds_equal_brute_force(api_as, target, dice):
    body = api_as("player").post("/api/v1/odds/", {"system": "zener", "target": target, "dice": dice},
                                 format="json").json()
    if target >= dice:  # no miracle dice: the plain count
        expected, totals = brute_zener(target, dice)
        assert fraction(body["probability"]) == expected
        assert {o: fraction(p) for o, p in body["distribution"]} == {t: Fraction(w, 6**dice) for t, w in totals.items()}
        assert body["success"] == [t for t in sorted(totals) if t <= target]
    else:  # the miracle rule: one more die and +2 per step until success is possible
        rolled, effective = dice, target
        while effective < rolled:
            rolled, effective = rolled + 1, effective + 2
        assert fraction(body["probability"]) == brute_zener(effective, rolled)[0]
    assert abs(body["percent"] - float(fraction(body["probability"])) * 100) < 1e-3


@pytest.mark.parametrize("bonus, tn, advantage", [(5, 15, 0), (5, 15, 1), (5, 15, -1), (0, 20, 0), (12, 30, 1),
                                                   (3, 4, -1)])
def test_success_check_odds_equal_brute_force(api_as, bonus, tn, advantage):
    body = api_as("player").post("/api/v1/odds/", {"system": "success_check", "bonus": bonus, "tn": tn,
                                                   "advantage": advantage}, format="json").json()
    assert fraction(body["probability"]) == brute_success_check(bonus, tn, advantage)


def test_the_success_check_example_2d10_plus_5_against_tn_15_is_64_percent(api_as):
    """Success Check text, worked example: 2d10 + 5 against TN 15 succeeds 64% of the time."""
    body = api_as("player").post("/api/v1/odds/", {"system": "success_check", "bonus": 5, "tn": 15},
                                 format="json").json()
    assert body["probability"] == "16/25" and body["percent"] == 64.0


@pytest.mark.parametrize("av, dv", [(3, 3), (5, 2), (0, 6)])
def test_zerospace_odds_count_every_roll(api_as, av, dv):
    body = api_as("player").post("/api/v1/odds/", {"system": "zerospace", "av": av, "dv": dv, "bonus_dice": 0},
                                 format="json").json()
    wins, ties = brute_zerospace(av, dv)
    assert fraction(body["probability"]) in (wins, wins + ties)  # the text's tie rule decides which
    assert sum(fraction(p) for _, p in body["distribution"]) == 1


@pytest.mark.parametrize("trait, difficulty", [(50, 0), (93, 0), (72, 1), (30, -2), (95, 3)])
def test_rocket_house_odds_count_the_d100(api_as, trait, difficulty):
    """Roll under the Trait, 10 % per difficulty step (+ easier); a 100 always fails."""
    body = api_as("player").post("/api/v1/odds/", {"system": "rocket_house", "trait": trait, "difficulty": difficulty},
                                 format="json").json()
    target = trait + 10 * difficulty
    assert fraction(body["probability"]) == Fraction(sum(1 for r in range(1, 101) if r != 100 and r <= target), 100)
    assert sum(fraction(p) for _, p in body["distribution"]) == 1
    assert len(body["distribution"]) == 100  # one outcome per face of the d100


@pytest.mark.parametrize("ks, us, es, threshold", [(5, 4, 5, 9), (2, 2, 1, 12), (8, 6, 10, 15)])
def test_core_rules_odds_sum_to_one(api_as, ks, us, es, threshold):
    body = api_as("player").post("/api/v1/odds/", {"system": "core_rules", "ks": ks, "us": us, "es": es,
                                                   "threshold": threshold}, format="json").json()
    chances = {o: fraction(p) for o, p in body["distribution"]}
    assert sum(chances.values()) == 1
    assert fraction(body["probability"]) == sum(chances[o] for o in body["success"])


@pytest.mark.parametrize("body, field", [
    ({"target": 10}, "system"),
    ({"system": "chess", "target": 10}, "system"),
    ({"system": "zener"}, "target"),
    ({"system": "zener", "target": "ten"}, "target"),
    ({"system": "zener", "target": 10, "dice": 40}, "dice"),
    ({"system": "zener", "target": 10, "colour": "red"}, "colour"),
    ({"system": "success_check", "bonus": 5, "tn": 15, "advantage": 2}, "advantage"),
    ({"system": "rocket_house", "difficulty": 0}, "trait"),
    ({"system": "core_rules", "ks": 1, "us": 1}, "es"),
    ({"system": "zener", "target": True}, "target"),
])
def test_bad_or_missing_odds_inputs_are_400_naming_the_field(api_as, body, field):
    response = api_as("player").post("/api/v1/odds/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"], response.json()


def test_odds_need_a_login(api_as):
    assert api_as(None).post("/api/v1/odds/", {"system": "zener", "target": 10}, format="json").status_code in (401, 403)


# --- The roll feed ------------------------------------------------------------------------------
def feed_url(personas):
    return f"/api/v1/campaigns/{personas['campaign'].pk}/rolls/"


def test_a_check_roll_with_table_dice_is_stored_with_its_dice_and_odds(personas, api_as):
    response = api_as("player").post(feed_url(personas), {"check": {"target": 10}, "dice": [3, 4, 2],
                                                          "label": "Mara picks the lock"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["total"], body["success"], body["probability"]) == (9, True, "1/2")
    assert [d["face"] for d in body["dice"]] == [3, 4, 2] and all(d["entered"] for d in body["dice"])
    roll = Roll.objects.get(pk=body["id"])
    assert (roll.by, roll.system, roll.label, roll.kind) == (personas["player"], "zener", "Mara picks the lock", "check")


def test_a_notation_roll_adds_up_its_kept_dice(personas, api_as):
    body = api_as("player").post(feed_url(personas), {"notation": "4d6kh3+2", "label": "stat"},
                                 format="json").json()
    kept = [d["face"] for d in body["dice"] if d["kept"]]
    assert len(body["dice"]) == 4 and len(kept) == 3
    assert body["total"] == sum(kept) + 2 and min(d["face"] for d in body["dice"]) <= min(kept)


def test_a_roll_sent_again_with_its_key_is_made_once(personas, api_as):
    """A client that lost the answer sends the roll again with the same key: it gets the first
    roll back (200), and the feed holds one roll; another player's or another kind's use of the
    key is refused."""
    player = api_as("player")
    first = player.post(feed_url(personas), {"notation": "3d6", "label": "the vault door", "idempotency_key": "k-1"},
                        format="json")
    again = player.post(feed_url(personas), {"notation": "3d6", "label": "the vault door", "idempotency_key": "k-1"},
                        format="json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert Roll.objects.filter(label="the vault door").count() == 1
    checked = player.post(feed_url(personas), {"check": {"target": 10}, "idempotency_key": "k-2"}, format="json")
    assert player.post(feed_url(personas), {"check": {"target": 10}, "idempotency_key": "k-2"},
                       format="json").json()["id"] == checked.json()["id"]
    other = api_as("gm").post(feed_url(personas), {"notation": "3d6", "idempotency_key": "k-1"}, format="json")
    assert other.status_code == 409 and Roll.objects.filter(idempotency_key="k-1").count() == 1


@pytest.mark.parametrize("body, field", [
    ({"notation": "2d6+x"}, "notation"),
    ({"notation": "1000d6"}, "notation"),
    ({"notation": "1d100000"}, "notation"),
    ({"check": {"target": 10}, "notation": "1d6"}, "check"),
    ({}, "check"),
    ({"check": {"target": "x"}}, "check.target"),
    ({"check": {"target": 10}, "dice": [7, 1, 1]}, "dice"),
    ({"notation": "1d6", "dice": [1]}, "dice"),
    ({"notation": "1d6", "sneaky": 1}, "sneaky"),
    ({"notation": "1d6", "private": "yes"}, "private"),
])
def test_bad_rolls_are_400_naming_the_field_and_store_nothing(personas, api_as, body, field):
    response = api_as("gm").post(feed_url(personas), body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["errors"], response.json()
    assert not Roll.objects.exists()


@pytest.mark.parametrize("persona, code", [("gm", 201), ("player", 201), ("other_player", 201), ("viewer", 403),
                                           ("outsider", 404), (None, 401)])
def test_who_may_roll(personas, api_as, persona, code):
    response = api_as(persona).post(feed_url(personas), {"notation": "1d6"}, format="json")
    assert response.status_code == code or (persona is None and response.status_code == 403)


@pytest.mark.parametrize("persona, code", [("gm", 200), ("player", 200), ("other_player", 200), ("viewer", 200),
                                           ("outsider", 404)])
def test_who_may_read_the_feed(personas, api_as, persona, code):
    assert api_as(persona).get(feed_url(personas)).status_code == code


def test_private_rolls_are_the_gms_alone(personas, api_as):
    assert api_as("player").post(feed_url(personas), {"notation": "1d6", "private": True},
                                 format="json").status_code == 403
    secret = api_as("gm").post(feed_url(personas), {"notation": "1d20", "label": "ambush", "private": True},
                               format="json").json()
    api_as("player").post(feed_url(personas), {"notation": "1d6", "label": "open"}, format="json")
    gm_sees = [r["label"] for r in api_as("gm").get(feed_url(personas)).json()["rolls"]]
    assert gm_sees == ["open", "ambush"]
    for persona in ("player", "other_player", "viewer"):
        rolls = api_as(persona).get(feed_url(personas)).json()["rolls"]
        assert [r["label"] for r in rolls] == ["open"] and secret["id"] not in [r["id"] for r in rolls]
        events = api_as(persona).get(f"/api/v1/campaigns/{personas['campaign'].pk}/events/?after=0").json()["events"]
        assert all(e["data"].get("roll") != secret["id"] for e in events)


def test_the_feed_pages_newest_first(personas, api_as):
    client = api_as("player")
    ids = [client.post(feed_url(personas), {"notation": f"1d6+{n}"}, format="json").json()["id"] for n in range(5)]
    first = client.get(feed_url(personas) + "?limit=2").json()
    assert [r["id"] for r in first["rolls"]] == ids[:-3:-1] and first["next_before"] == ids[3]
    second = client.get(feed_url(personas) + f"?limit=2&before={first['next_before']}").json()
    assert [r["id"] for r in second["rolls"]] == [ids[2], ids[1]]
    assert client.get(feed_url(personas) + "?limit=0").status_code == 400


def test_the_campaign_rule_set_decides_the_check(personas, api_as):
    campaign = personas["campaign"]
    campaign.rule_set = "success_check"
    with arranged(campaign):
        campaign.save(update_fields=["rule_set"])
    body = api_as("player").post(feed_url(personas), {"check": {"bonus": 5, "tn": 15}, "dice": [6, 4]},
                                 format="json").json()
    assert (body["system"], body["total"], body["success"], body["probability"]) == ("success_check", 15, True,
                                                                                      "16/25")


def test_the_gm_sets_the_rule_set_and_rulings_through_the_api(personas, api_as):
    url = f"/api/v1/campaigns/{personas['campaign'].pk}/"
    gm = api_as("gm")
    body = gm.patch(url, {"rule_set": "core_rules", "rulings": {"es_dice": 1}}, format="json").json()
    assert (body["rule_set"], body["rulings"]) == ("core_rules", {"es_dice": 1})
    bad = gm.patch(url, {"rulings": {"es_dice": 7}}, format="json")
    assert bad.status_code == 400 and "rulings.es_dice" in bad.json()["errors"]
    assert gm.patch(url, {"rule_set": "chess"}, format="json").status_code == 400
    assert api_as("player").patch(url, {"rule_set": "zener"}, format="json").status_code == 403
    # The campaign's ruling is used by its checks: odds of its rule set, its ES die.
    roll = api_as("player").post(f"{url}rolls/", {"check": {"ks": 5, "us": 4, "es": 5}}, format="json").json()
    assert roll["system"] == "core_rules" and roll["params"]["es_dice"] == 1
