"""Passwords: a one-time password is replaced at the first log-in; everyone changes their own; a
forgotten one comes back by an emailed link or a new one-time password from the GM; who makes
accounts is the site's setting, with a daily limit per GM."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaign.models import Membership, OneTimePassword
from conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-Very-private-phrase-42"


def _make_account(client, personas, username="newbie", email=""):
    client.force_login(personas["gm"])
    response = client.post(reverse("campaign-settings", args=[personas["campaign"].pk]),
                           {"action": "new_account", "account-username": username, "account-email": email,
                            "account-role": "player"}, follow=True)
    text = response.content.decode()
    found = re.search(r'<code class="secret">([^<]+)</code>', text)
    client.logout()
    return found.group(1) if found else None, text


def test_a_new_player_must_choose_their_own_password_first(client, personas):
    one_time, _ = _make_account(client, personas)
    assert one_time and OneTimePassword.objects.filter(user__username="newbie").exists()
    assert client.post(reverse("login"), {"username": "newbie", "password": one_time}).status_code == 302
    home = client.get(reverse("home"))
    assert home.status_code == 302 and home["Location"].startswith(reverse("password-change"))
    assert client.get("/api/v1/campaigns/").status_code == 403  # the API waits too
    page = client.get(reverse("password-change")).content.decode()
    assert "Choose your own password" in page
    done = client.post(reverse("password-change"), {"old_password": one_time, "new_password1": NEW_PASSWORD,
                                                    "new_password2": NEW_PASSWORD})
    assert done.status_code == 302 and done["Location"] == reverse("home")
    assert client.get(reverse("home")).status_code == 200
    assert not OneTimePassword.objects.filter(user__username="newbie").exists()
    client.logout()
    assert client.post(reverse("login"), {"username": "newbie", "password": NEW_PASSWORD}).status_code == 302
    assert client.get(reverse("home")).status_code == 200  # no second prompt


def test_a_one_time_password_gets_no_api_token(client, personas, api_as):
    one_time, _ = _make_account(client, personas)
    response = api_as(None).post("/api/v1/auth/token/", {"username": "newbie", "password": one_time}, format="json")
    assert response.status_code == 403 and "one-time" in str(response.json())


def test_every_user_changes_their_own_password(client, personas):
    client.force_login(personas["player"])
    page = client.get(reverse("password-change")).content.decode()
    assert "Change your password" in page and reverse("password-change") in client.get(reverse("home")).content.decode()
    wrong = client.post(reverse("password-change"), {"old_password": "nope", "new_password1": NEW_PASSWORD,
                                                     "new_password2": NEW_PASSWORD})
    assert wrong.status_code == 200
    personas["player"].refresh_from_db()
    assert personas["player"].check_password(PASSWORD)


def test_the_gm_gives_a_player_who_lost_it_a_new_one_time_password(client, personas):
    player = personas["player"]
    membership = Membership.objects.get(campaign=personas["campaign"], user=player)
    client.force_login(personas["gm"])
    response = client.post(reverse("campaign-settings", args=[personas["campaign"].pk]),
                           {"action": "reissue", "membership": membership.pk}, follow=True)
    page = response.content.decode()
    assert "New one-time password for player" in page
    one_time = re.search(r'<code class="secret">([^<]+)</code>', page).group(1)
    player.refresh_from_db()
    assert not player.check_password(PASSWORD) and player.check_password(one_time)
    assert OneTimePassword.objects.filter(user=player).exists()
    gm_row = Membership.objects.get(campaign=personas["campaign"], user=personas["gm"])
    refused = client.post(reverse("campaign-settings", args=[personas["campaign"].pk]),
                          {"action": "reissue", "membership": gm_row.pk})
    assert refused.status_code == 403


def test_players_do_not_reissue_passwords(client, personas):
    other = Membership.objects.get(campaign=personas["campaign"], user=personas["other_player"])
    client.force_login(personas["player"])
    response = client.post(reverse("campaign-settings", args=[personas["campaign"].pk]),
                           {"action": "reissue", "membership": other.pk})
    assert response.status_code == 403
    personas["other_player"].refresh_from_db()
    assert personas["other_player"].check_password(PASSWORD)


def test_with_account_creation_for_staff_a_gm_makes_none(client, personas, settings):
    settings.ACCOUNT_CREATION = "staff"
    client.force_login(personas["gm"])
    response = client.post(reverse("campaign-settings", args=[personas["campaign"].pk]),
                           {"action": "new_account", "account-username": "minted", "account-role": "player"})
    assert response.status_code == 403
    assert not get_user_model().objects.filter(username="minted").exists()


def test_a_gm_makes_at_most_the_daily_limit_of_accounts(client, personas, settings):
    settings.ACCOUNT_CREATION_DAILY_LIMIT = 2
    made = [_make_account(client, personas, username=f"minted{n}")[0] for n in range(3)]
    assert made[0] and made[1] and made[2] is None
    assert not get_user_model().objects.filter(username="minted2").exists()


def test_a_forgotten_password_comes_back_by_an_emailed_link(client, personas, worker_sends_at_once, tmp_path):
    player = personas["player"]
    player.email = "player@example.org"
    player.save(update_fields=["email"])
    with worker_sends_at_once():
        sent = client.post(reverse("password_reset"), {"email": "player@example.org"})
    assert sent.status_code == 302
    (mail,) = list(tmp_path.iterdir())
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+)", mail.read_text()).group(1)
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)
    assert "no longer works" in client.get(link, follow=True).content.decode()  # once only


def test_reset_mails_are_limited_per_account_and_per_address(client, personas, worker_sends_at_once, settings,
                                                              tmp_path):
    settings.PASSWORD_RESET_ACCOUNT_LIMIT, settings.PASSWORD_RESET_ADDRESS_LIMIT = 3, 10
    player = personas["player"]
    player.email = "player@example.org"
    player.save(update_fields=["email"])
    for n in range(8):  # from eight addresses: the account gets three mails an hour
        with worker_sends_at_once():
            answer = Client(REMOTE_ADDR=f"10.1.0.{n}").post(reverse("password_reset"), {"email": "player@example.org"})
        assert answer.status_code == 302
    assert len(list(tmp_path.iterdir())) == 3
    for n in range(12):  # from one address: ten requests an hour are passed on, whatever the account
        with worker_sends_at_once() as queued:
            Client(REMOTE_ADDR="10.2.0.1").post(reverse("password_reset"), {"email": f"nobody{n}@example.org"})
        assert len(queued) == (1 if n < 10 else 0)


def test_a_known_and_an_unknown_address_get_the_same_answer(client, personas, worker_sends_at_once):
    player = personas["player"]
    player.email = "player@example.org"
    player.save(update_fields=["email"])
    with worker_sends_at_once() as known_jobs:
        known = Client(REMOTE_ADDR="10.3.0.1").post(reverse("password_reset"), {"email": "player@example.org"})
    with worker_sends_at_once() as unknown_jobs:
        unknown = Client(REMOTE_ADDR="10.3.0.2").post(reverse("password_reset"), {"email": "stranger@example.org"})
    # The same answer, and the same work in the request: one job queued either way (the lookup and
    # the mail happen in the worker, so the answer's time says nothing about the address).
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert len(known_jobs) == len(unknown_jobs) == 1
