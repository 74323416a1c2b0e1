"""Sheets of the other rule sets: made, edited and spent through the API and the pages, each
persona getting what a Zener Gate sheet would give them, Edge and plot points never spent twice."""

import pytest
from django.test import Client

from campaign import services as campaign_services
from characters import system_sheets
from characters.models import PoolEntry, SystemSheet
from conftest import PASSWORD

pytestmark = pytest.mark.django_db

SKILLS = [{"name": "Deception", "inputs": {"bonus": 15}}, {"name": "Athletics", "inputs": {"bonus": 10}}]


@pytest.fixture
def campaign(personas):
    return campaign_services.campaign_update(campaign=personas["campaign"], by=personas["gm"],
                                             rule_set="success_check")


@pytest.fixture
def sheet(personas, campaign):
    return system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"], by=personas["player"],
                                             name="Kestrel", lines=SKILLS, numbers={"edge_max": 3})


def test_a_player_makes_a_success_check_sheet_with_its_odds(api_as, personas, campaign):
    response = api_as("player").post(f"/api/v1/campaigns/{campaign.pk}/system-sheets/",
                                     {"name": "Kestrel", "lines": SKILLS, "numbers": {"edge_max": 4}}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["system"] == "success_check" and body["owner"] == "player"
    deception = body["lines"][0]
    assert deception["name"] == "Deception"
    moderate = next(step for step in deception["odds"] if step["label"] == "moderate")
    assert moderate["value"] == 20 and moderate["probability"] == pytest.approx(0.94)  # 002, "Difficulty levels"
    assert body["pools"] == [{"key": "edge", "label": "Edge", "current": 4, "maximum": 4,
                              "uses": ["advantage", "cancel disadvantage", "+1d6 damage", "lessen injury"],
                              "refills": ["short_rest", "long_rest", "award"]}]


def test_a_zener_gate_campaign_keeps_its_own_sheet(api_as, personas):
    response = api_as("player").post(f"/api/v1/campaigns/{personas['campaign'].pk}/system-sheets/",
                                     {"name": "Kestrel"}, format="json")
    assert response.status_code == 409
    assert "Zener Gate" in response.json()["errors"]["campaign"][0]
    assert not SystemSheet.objects.exists()


def test_bad_lines_are_a_400_that_changes_nothing(api_as, sheet):
    before = SystemSheet.objects.get(pk=sheet.pk).lines
    response = api_as("player").patch(f"/api/v1/system-sheets/{sheet.pk}/",
                                      {"lines": [{"name": "Climb", "inputs": {"bonus": 200}}]}, format="json")
    assert response.status_code == 400
    assert "Skill bonus must be at most 80" in response.json()["errors"]["lines"][0]
    assert SystemSheet.objects.get(pk=sheet.pk).lines == before


def test_the_sheet_keeps_its_history(api_as, sheet):
    api_as("player").patch(f"/api/v1/system-sheets/{sheet.pk}/", {"lines": SKILLS[:1]}, format="json")
    sheet.refresh_from_db()
    assert [line["name"] for line in sheet.lines] == ["Deception"]
    assert [len(record.lines) for record in sheet.history.order_by("history_id")] == [2, 1]


def test_a_lower_maximum_lowers_the_edge_held(api_as, sheet):
    response = api_as("gm").patch(f"/api/v1/system-sheets/{sheet.pk}/", {"numbers": {"edge_max": 1}}, format="json")
    assert response.status_code == 200
    assert response.json()["pools"][0]["current"] == 1


def test_edge_is_spent_once_per_key_and_never_below_zero(api_as, sheet):
    player = api_as("player")
    url = f"/api/v1/system-sheets/{sheet.pk}/pools/"
    first = player.post(url, {"pool": "edge", "action": "spend", "use": "advantage", "idempotency_key": "tap-1"},
                        format="json")
    replay = player.post(url, {"pool": "edge", "action": "spend", "use": "advantage", "idempotency_key": "tap-1"},
                         format="json")
    assert (first.status_code, replay.status_code) == (201, 200)
    assert first.json() == replay.json()
    assert first.json()["balance_after"] == 2
    for key in ("tap-2", "tap-3"):
        assert player.post(url, {"pool": "edge", "action": "spend", "idempotency_key": key}, format="json").status_code == 201
    empty = player.post(url, {"pool": "edge", "action": "spend", "idempotency_key": "tap-4"}, format="json")
    assert empty.status_code == 409 and "No Edge left" in str(empty.json())
    sheet.refresh_from_db()
    assert sheet.pools == {"edge": 0}
    assert [e.balance_after for e in PoolEntry.objects.filter(sheet=sheet).order_by("id")] == [2, 1, 0]
    rest = api_as("gm").post(url, {"pool": "edge", "action": "long_rest"}, format="json")
    assert rest.status_code == 201 and rest.json()["balance_after"] == 3


def test_a_key_used_for_another_change_is_refused(api_as, sheet):
    url = f"/api/v1/system-sheets/{sheet.pk}/pools/"
    api_as("player").post(url, {"pool": "edge", "action": "spend", "idempotency_key": "k"}, format="json")
    again = api_as("gm").post(url, {"pool": "edge", "action": "short_rest", "idempotency_key": "k"}, format="json")
    assert again.status_code == 409


def test_only_the_gm_awards(api_as, sheet):
    url = f"/api/v1/system-sheets/{sheet.pk}/pools/"
    assert api_as("player").post(url, {"pool": "edge", "action": "award"}, format="json").status_code == 403
    assert api_as("gm").post(url, {"pool": "edge", "action": "spend"}, format="json").status_code == 201
    assert api_as("gm").post(url, {"pool": "edge", "action": "award"}, format="json").json()["balance_after"] == 3


def test_rests_are_the_gms_and_a_player_asks_for_one(api_as, sheet, client, personas):
    """RULINGS §8: Edge comes back with the rests the text names (002, "Edge": a short rest one,
    a long rest all), which the GM calls; a player may ask but not take one alone."""
    url = f"/api/v1/system-sheets/{sheet.pk}/pools/"
    player = api_as("player")
    assert player.post(url, {"pool": "edge", "action": "spend"}, format="json").status_code == 201
    for rest in ("short_rest", "long_rest"):
        refused = player.post(url, {"pool": "edge", "action": rest}, format="json")
        assert refused.status_code == 403 and "ask the GM" in str(refused.json()), rest
    sheet.refresh_from_db()
    assert sheet.pools == {"edge": 2}
    asked = player.post(f"/api/v1/system-sheets/{sheet.pk}/rest-asks/", {"rest": "long_rest"}, format="json")
    assert asked.status_code == 201 and "asks the GM for a long rest" in asked.json()["asked"]
    assert api_as("other_player").post(f"/api/v1/system-sheets/{sheet.pk}/rest-asks/", {"rest": "long_rest"},
                                       format="json").status_code == 403
    sheet.refresh_from_db()
    assert sheet.pools == {"edge": 2}  # asking changes nothing
    client.force_login(personas["gm"])
    page = client.get(f"/system-sheets/{sheet.pk}/").content.decode()
    assert "asks the GM for a long rest" in page and 'value="long_rest"' in page
    given = api_as("gm").post(url, {"pool": "edge", "action": "long_rest"}, format="json")
    assert given.status_code == 201 and given.json()["balance_after"] == 3
    assert "asks the GM for a long rest" not in client.get(f"/system-sheets/{sheet.pk}/").content.decode()
    client.force_login(personas["player"])
    mine = client.get(f"/system-sheets/{sheet.pk}/").content.decode()
    assert "Ask for a long rest" in mine and 'name="action" value="long_rest"' not in mine


def test_a_rest_is_asked_for_only_where_a_rest_refills_something(api_as, personas, client):
    """ZeroSpace's Endurance comes back with time (the downtime), not with a rest the sheet names:
    its player is offered no ask, and the API refuses one with nothing written."""
    campaign = campaign_services.campaign_update(campaign=personas["campaign"], by=personas["gm"],
                                                 rule_set="zerospace")
    soraya = system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"], by=personas["player"],
                                               name="Soraya", numbers={"brawn": 2})
    asked = api_as("player").post(f"/api/v1/system-sheets/{soraya.pk}/rest-asks/", {"rest": "long_rest"},
                                  format="json")
    assert asked.status_code == 409 and "No rest refills" in str(asked.json())
    assert not campaign.log_entries.filter(action="sheet.rest_asked").exists()
    client.force_login(personas["player"])
    assert "Ask for a" not in client.get(f"/system-sheets/{soraya.pk}/").content.decode()


@pytest.mark.parametrize(("persona", "read", "write"), [
    ("gm", 200, 200), ("player", 200, 200), ("other_player", 200, 403), ("viewer", 200, 403),
    ("outsider", 404, 404), (None, 401, 401),
])
def test_each_persona(api_as, sheet, persona, read, write):
    client = api_as(persona)
    assert client.get(f"/api/v1/system-sheets/{sheet.pk}/").status_code == read
    assert client.patch(f"/api/v1/system-sheets/{sheet.pk}/", {"name": "Renamed"}, format="json").status_code == write


def test_the_page_shows_every_chance_and_spends_in_one_tap(personas, sheet):
    client = Client()
    client.login(username="player", password=PASSWORD)
    page = client.get(f"/system-sheets/{sheet.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Deception" in html and "94.0%" in html and "Edge" in html
    tap = client.post(f"/system-sheets/{sheet.pk}/pools/", {"pool": "edge", "action": "spend", "use": "advantage",
                                                            "key": "page-tap"})
    client.post(f"/system-sheets/{sheet.pk}/pools/", {"pool": "edge", "action": "spend", "use": "advantage",
                                                      "key": "page-tap"})  # the same form sent twice
    assert tap.status_code == 302
    sheet.refresh_from_db()
    assert sheet.pools == {"edge": 2}


def test_the_page_edits_lines_and_keeps_what_was_typed_on_an_error(personas, sheet):
    client = Client()
    client.login(username="player", password=PASSWORD)
    form = {"name": "Kestrel", "number-strength": "2", "number-edge_max": "3", "line-count": "3",
            "line-0-name": "Deception", "line-0-bonus": "16", "line-1-name": "", "line-1-bonus": "",
            "line-2-name": "Pilot", "line-2-bonus": "12"}
    assert client.post(f"/system-sheets/{sheet.pk}/", form).status_code == 302
    sheet.refresh_from_db()
    assert sheet.lines == [{"name": "Deception", "inputs": {"bonus": 16}}, {"name": "Pilot", "inputs": {"bonus": 12}}]
    bad = client.post(f"/system-sheets/{sheet.pk}/", {**form, "line-2-bonus": "lots"})
    assert bad.status_code == 400
    assert 'value="lots"' in bad.content.decode()


def test_the_party_page_offers_the_campaigns_sheet(personas, sheet):
    client = Client()
    client.login(username="viewer", password=PASSWORD)
    html = client.get(f"/campaigns/{sheet.campaign_id}/characters/").content.decode()
    assert "Success Check (2d10) characters" in html and "Kestrel" in html
    assert "New Success Check" not in html  # viewers watch
    client.login(username="other_player", password=PASSWORD)
    made = client.post(f"/campaigns/{sheet.campaign_id}/system-sheets/new/", {"name": "Wren"})
    assert made.status_code == 302
    assert SystemSheet.objects.get(name="Wren").owner.username == "other_player"


def test_the_page_offers_a_resource_button_only_where_it_acts(personas, sheet, campaign):
    """On a phone every button takes room: no "Spend one" at 0 (or 0 of 0), no rest or award on a
    full pool; a spent point brings the GM's rests back."""
    gm = Client()
    gm.login(username="gm", password=PASSWORD)
    full = gm.get(f"/system-sheets/{sheet.pk}/").content.decode()  # 3 of 3
    assert "Spend one" in full
    for refill in ("short_rest", "long_rest", "award"):
        assert f'name="action" value="{refill}"' not in full, refill
    none = system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"], by=personas["player"],
                                             name="Wren", numbers={"edge_max": 0})
    player = Client()
    player.login(username="player", password=PASSWORD)
    for client in (gm, player):
        html = client.get(f"/system-sheets/{none.pk}/").content.decode()  # 0 of 0
        assert "Spend one" not in html and "None left to spend." in html
        assert 'name="action" value="short_rest"' not in html and 'name="action" value="award"' not in html
    for key in ("a", "b", "c"):
        player.post(f"/system-sheets/{sheet.pk}/pools/", {"pool": "edge", "action": "spend", "key": key})
    assert "Spend one" not in player.get(f"/system-sheets/{sheet.pk}/").content.decode()  # 0 of 3
    empty = gm.get(f"/system-sheets/{sheet.pk}/").content.decode()
    assert "Spend one" not in empty
    assert 'name="action" value="short_rest"' in empty and 'name="action" value="long_rest"' in empty


def test_a_spend_and_a_refill_say_what_they_did(personas, sheet):
    player = Client()
    player.login(username="player", password=PASSWORD)
    spent = player.post(f"/system-sheets/{sheet.pk}/pools/", {"pool": "edge", "action": "spend", "use": "advantage",
                                                              "key": "said"}, follow=True)
    assert "Spent 1 Edge: 2 of 3 left." in spent.content.decode()
    gm = Client()
    gm.login(username="gm", password=PASSWORD)
    rested = gm.post(f"/system-sheets/{sheet.pk}/pools/", {"pool": "edge", "action": "short_rest"}, follow=True)
    assert "Short rest: gained 1 Edge, now 3 of 3." in rested.content.decode()


def test_a_plot_point_spent_is_said_and_its_button_goes(personas):
    """ZeroSpace: one plot point at the start, no maximum; spent, the page says so and offers no
    second spend."""
    campaign = campaign_services.campaign_update(campaign=personas["campaign"], by=personas["gm"], rule_set="zerospace")
    soraya = system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"], by=personas["player"],
                                               name="Soraya")
    player = Client()
    player.login(username="player", password=PASSWORD)
    spent = player.post(f"/system-sheets/{soraya.pk}/pools/", {"pool": "plot_points", "action": "spend",
                                                               "use": "bonus die", "key": "pp"}, follow=True)
    html = spent.content.decode()
    assert "Spent 1 plot point: 0 left." in html and "Spend one" not in html
