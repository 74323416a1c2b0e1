"""Campaign settings and members: the GM changes them; stat dice are checked against 1–40."""

import pytest
from django.urls import reverse

from campaign import services
from campaign.errors import CampaignError
from campaign.models import Campaign, LogEntry, Membership

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("dice, bounds", [("4d6", (4, 24)), ("3d6+6", (9, 24)), ("4d6kh3", (3, 18)),
                                          ("2d10+10", (12, 30)), ("3D6 + 2", (5, 20))])
def test_stat_dice_ranges(dice, bounds):
    assert services.stat_dice_range(dice) == bounds


@pytest.mark.parametrize("dice", ["d6", "4d6-10", "10d6", "3d20+30", "4d6kh5", "banana", "", "4d6!"])
def test_stat_dice_that_cannot_make_a_stat_are_refused(dice):
    with pytest.raises(CampaignError) as excinfo:
        services.stat_dice_range(dice)
    assert excinfo.value.field == "stat_dice"


@pytest.mark.parametrize("persona, status", [("gm", 200), ("player", 403), ("viewer", 403), ("outsider", 404),
                                             (None, 401)])
def test_patch_settings_is_gm_only(personas, api_as, persona, status):
    campaign = personas["campaign"]
    response = api_as(persona).patch(f"/api/v1/campaigns/{campaign.pk}/",
                                     {"stat_entry": "roll", "stat_dice": "4d6kh3", "max_skill_ranks": 4}, format="json")
    assert response.status_code == status
    campaign.refresh_from_db()
    changed = (campaign.stat_entry, campaign.stat_dice, campaign.max_skill_ranks) == ("roll", "4d6kh3", 4)
    assert changed == (status == 200)
    if status == 200:
        assert response.json()["stat_dice"] == "4d6kh3"
        assert LogEntry.objects.filter(campaign=campaign, action="campaign.update").count() == 1


@pytest.mark.parametrize("payload, field", [({"stat_dice": "4d6-10"}, "stat_dice"), ({"max_skill_ranks": 0}, "max_skill_ranks"),
                                            ({"max_skill_ranks": "3"}, "max_skill_ranks"), ({"name": ""}, "name"),
                                            ({"stat_entry": "guess"}, "stat_entry")])
def test_bad_settings_change_nothing(personas, api_as, payload, field):
    campaign = personas["campaign"]
    before = Campaign.objects.filter(pk=campaign.pk).values().get()
    response = api_as("gm").patch(f"/api/v1/campaigns/{campaign.pk}/", payload, format="json")
    assert response.status_code == 400 and field in response.json()["errors"]
    assert Campaign.objects.filter(pk=campaign.pk).values().get() == before


@pytest.mark.parametrize("persona, get_status, post_status", [
    ("gm", 200, 302), ("player", 200, 403), ("other_player", 200, 403), ("viewer", 200, 403), ("outsider", 404, 404)])
def test_settings_page(personas, client, persona, get_status, post_status):
    campaign = personas["campaign"]
    client.force_login(personas[persona])
    url = reverse("campaign-settings", args=[campaign.pk])
    page = client.get(url)
    assert page.status_code == get_status
    if get_status == 200:
        assert (b"Save settings" in page.content) == (persona == "gm")
    response = client.post(url, {"name": "Renamed", "description": "", "stat_entry": "roll", "stat_dice": "3d6+6",
                                 "max_skill_ranks": 3})
    assert response.status_code == post_status
    campaign.refresh_from_db()
    assert (campaign.name == "Renamed") == (post_status == 302)


def test_settings_page_adds_members_and_keeps_input_on_error(personas, client, make_user):
    make_user("newcomer")
    campaign = personas["campaign"]
    client.force_login(personas["gm"])
    url = reverse("campaign-settings", args=[campaign.pk])
    bad = client.post(url, {"action": "add_member", "username": "nobody", "role": "player"})
    assert bad.status_code == 400 and b"no user called" in bad.content and b'value="nobody"' in bad.content
    twice = client.post(url, {"action": "add_member", "username": "player", "role": "viewer"})
    assert twice.status_code == 409 and b"already in this campaign" in twice.content
    ok = client.post(url, {"action": "add_member", "username": "newcomer", "role": "viewer"}, follow=True)
    assert b"newcomer joined as Viewer" in ok.content
    assert Membership.objects.get(campaign=campaign, user__username="newcomer").role == "viewer"
    dice = client.post(url, {"name": "X", "stat_entry": "roll", "stat_dice": "4d6-10", "max_skill_ranks": 3})
    assert dice.status_code == 400 and b"stats run 1" in dice.content and b'value="4d6-10"' in dice.content


def test_the_gm_makes_an_account_for_a_new_player_who_then_sees_the_campaign(personas, client):
    import re

    from django.contrib.auth import authenticate

    campaign = personas["campaign"]
    client.force_login(personas["gm"])
    response = client.post(reverse("campaign-settings", args=[campaign.pk]),
                           {"action": "new_account", "account-username": "dora", "account-role": "player"})
    assert response.status_code == 200  # the password is on this answer, and nowhere else
    password = re.search(r'<code class="secret">([^<]+)</code>', response.content.decode()).group(1)
    user = authenticate(username="dora", password=password)
    assert user is not None
    assert campaign.memberships.get(user=user).role == "player"
    client.force_login(user)  # first the one-time password gives way to dora's own
    dashboard = reverse("campaign-dashboard", args=[campaign.pk])
    assert client.get(dashboard)["Location"].startswith(reverse("password-change"))
    client.post(reverse("password-change"), {"old_password": password, "new_password1": "dora-Chooses-2-words",
                                             "new_password2": "dora-Chooses-2-words"})
    assert client.get(dashboard).status_code == 200
    again = client.post(reverse("campaign-settings", args=[campaign.pk]),
                        {"action": "new_account", "account-username": "Dora", "account-role": "player"})
    assert again.status_code == 403  # dora is a player, not the GM


def test_the_gm_changes_a_role_and_removes_a_member_but_never_the_last_gm(personas, client):
    from campaign.models import Membership

    campaign = personas["campaign"]
    client.force_login(personas["gm"])
    url = reverse("campaign-settings", args=[campaign.pk])
    viewer = campaign.memberships.get(user=personas["viewer"])
    client.post(url, {"action": "change_role", "membership": viewer.pk, "role": "player"})
    assert Membership.objects.get(pk=viewer.pk).role == "player"
    client.post(url, {"action": "remove", "membership": viewer.pk})
    assert not Membership.objects.filter(pk=viewer.pk).exists()
    gm = campaign.memberships.get(user=personas["gm"])
    client.post(url, {"action": "change_role", "membership": gm.pk, "role": "player"})
    assert Membership.objects.get(pk=gm.pk).role == "gm"  # the only GM stays GM
    client.force_login(personas["player"])
    player = campaign.memberships.get(user=personas["player"])
    assert client.post(url, {"action": "remove", "membership": player.pk}).status_code == 403
    assert Membership.objects.filter(pk=player.pk).exists()


def _everything_kept(client, response) -> str:
    """What the browser and the server keep after an answer: its cookies, the session's data."""
    from django.contrib.sessions.backends.db import SessionStore  # noqa: F401  (the session's own store)

    kept = [f"{name}={morsel.value}" for name, morsel in response.cookies.items()]
    kept += [f"{name}={morsel.value}" for name, morsel in client.cookies.items()]
    session = client.session
    kept += [f"{key}={value!r}" for key, value in session.items()]
    return "\n".join(kept)


def test_one_time_passwords_stay_off_cookies_logs_and_the_session(personas, client, caplog):
    """A new account's password and a reissued one are shown on the answer to the GM's POST,
    once, and are in no cookie (the signed messages cookie is readable), log line or session."""
    import logging
    import re

    campaign = personas["campaign"]
    client.force_login(personas["gm"])
    url = reverse("campaign-settings", args=[campaign.pk])
    caplog.set_level(logging.DEBUG)
    made = client.post(url, {"action": "new_account", "account-username": "dora", "account-role": "player"})
    membership = campaign.memberships.get(user__username="dora")
    again = client.post(url, {"action": "reissue", "membership": membership.pk})
    for response in (made, again):
        assert response.status_code == 200
        assert response["Cache-Control"] == "no-store"
        password = re.search(r'<code class="secret">([^<]+)</code>', response.content.decode()).group(1)
        assert len(password) >= 8
        assert password not in _everything_kept(client, response)
        assert password not in caplog.text
    # The next view of the page shows neither.
    assert b'class="secret"' not in client.get(url).content


def test_settings_page_says_what_the_sheets_of_each_rule_set_hold(personas, client):
    """Under the rule set, the settings page says what that rule set's sheets hold: a sentence
    of its own for each rule set (Success Check's skills, Edge and armour; ZeroSpace's plot
    points), never one sentence for all of them."""
    import html
    import re

    from rulebook.systems import SYSTEMS

    campaign = personas["campaign"]
    client.force_login(personas["gm"])
    said = {}
    for key in SYSTEMS:
        services.campaign_update(campaign=campaign, by=personas["gm"], rule_set=key)
        page = client.get(reverse("campaign-settings", args=[campaign.pk])).content.decode()
        found = re.search(r'id="id_rule_set_helptext"[^>]*>(.*?)</div>', page, re.S)
        assert found, f"no help under the rule set {key}"
        said[key] = " ".join(html.unescape(found.group(1)).split())
    assert len(set(said.values())) == len(SYSTEMS), said
    assert all("follow it" in sentence for sentence in said.values())  # the roller and the feed, as before
    assert all(word in said["success_check"] for word in ("skill", "Edge", "armour"))
    assert "plot points" in said["zerospace"] and "Traits" in said["rocket_house"]
    assert "Sheets are Zener Gate's" not in " ".join(said.values())
