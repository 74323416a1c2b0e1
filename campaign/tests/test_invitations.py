"""Invitations: the GM invites by link (one person, or anyone until a date) with a role; a person
with an account joins, a person without one makes it from the link; links can be revoked; an
imported document's members are invited by name, not made members."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from campaign import services
from campaign.models import Invitation, Membership
from conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def link(personas):
    invitation = services.invitation_create(campaign=personas["campaign"], role="player", by=personas["gm"])
    return reverse("join", args=[invitation.token]), invitation


def test_a_person_without_an_account_joins_from_the_link_in_one_form(link, client, personas):
    url, invitation = link
    page = client.get(url).content.decode()
    assert "Join Test campaign" in page and "Make my account and join" in page
    response = client.post(url, {"username": "dora", "password": "dora-Chooses-2-words"})
    assert response.status_code == 302
    dora = get_user_model().objects.get(username="dora")
    assert Membership.objects.get(campaign=personas["campaign"], user=dora).role == "player"
    assert client.get(reverse("campaign-dashboard", args=[personas["campaign"].pk])).status_code == 200
    client.logout()
    again = client.post(url, {"username": "eve", "password": "eve-Chooses-2-words"})
    assert again.status_code == 410 and not get_user_model().objects.filter(username="eve").exists()


def test_a_person_with_an_account_joins_and_a_weak_password_is_refused(link, client, personas):
    url, _ = link
    weak = client.post(url, {"username": "dora", "password": "1234"})
    assert weak.status_code == 400 and not get_user_model().objects.filter(username="dora").exists()
    client.force_login(personas["outsider"])
    assert "Join as outsider" in client.get(url).content.decode()
    assert client.post(url).status_code == 302
    assert Membership.objects.get(campaign=personas["campaign"], user=personas["outsider"]).role == "player"


def test_a_link_for_anyone_works_until_its_date_and_a_revoked_one_not_at_all(personas, client):
    campaign = personas["campaign"]
    until = timezone.now() + datetime.timedelta(days=2)
    many = services.invitation_create(campaign=campaign, role="viewer", by=personas["gm"], single_use=False,
                                      expires_at=until)
    for name, email in (("v1", "v1@example.org"), ("v2", "")):  # the e-mail is optional
        client.post(reverse("join", args=[many.token]), {"username": name, "password": f"{name}-Long-phrase-9",
                                                        "email": email})
        client.logout()
    users = dict(get_user_model().objects.filter(username__in=("v1", "v2")).values_list("username", "email"))
    assert users == {"v1": "v1@example.org", "v2": ""}  # where a forgotten password's link goes
    bad = client.post(reverse("join", args=[many.token]), {"username": "v3", "password": "v3-Long-phrase-9",
                                                          "email": "not an address"})
    assert bad.status_code == 400 and not get_user_model().objects.filter(username="v3").exists()
    assert Membership.objects.filter(campaign=campaign, role="viewer").count() == 3  # the cast's viewer too
    services.invitation_revoke(invitation=many, by=personas["gm"])
    assert client.get(reverse("join", args=[many.token])).status_code == 410
    Invitation.objects.filter(pk=many.pk).update(revoked_at=None, expires_at=timezone.now() - datetime.timedelta(1))
    assert client.get(reverse("join", args=[many.token])).status_code == 410


def test_the_gm_makes_and_revokes_links_on_the_settings_page(personas, client):
    client.force_login(personas["gm"])
    url = reverse("campaign-settings", args=[personas["campaign"].pk])
    made = client.post(url, {"action": "invite", "role": "player", "reach": "one"}, follow=True).content.decode()
    assert "Invitation made: pass on the link" in made and "/join/" in made
    invitation = Invitation.objects.get(campaign=personas["campaign"])
    client.post(url, {"action": "revoke_invitation", "invitation": invitation.pk})
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None


def test_players_make_no_invitations(personas, client):
    client.force_login(personas["player"])
    response = client.post(reverse("campaign-settings", args=[personas["campaign"].pk]),
                           {"action": "invite", "role": "gm", "reach": "one"})
    assert response.status_code == 403 and not Invitation.objects.exists()


def test_with_account_creation_for_staff_a_link_makes_no_account(link, client, settings):
    settings.ACCOUNT_CREATION = "staff"
    url, _ = link
    response = client.post(url, {"username": "dora", "password": "dora-Chooses-2-words"})
    assert response.status_code == 403 and not get_user_model().objects.filter(username="dora").exists()


def test_an_imported_documents_members_are_invited_by_name_once_confirmed(personas, client):
    from transfer import services as transfer

    document = transfer.export_campaign(personas["campaign"])
    copy = transfer.import_campaign(document, personas["outsider"])
    assert list(copy.memberships.values_list("user__username", flat=True)) == ["outsider"]
    assert not Invitation.objects.filter(campaign=copy).exists()  # nobody before the importer confirms
    transfer.import_invite(campaign=copy, by=personas["outsider"], usernames=["gm", "player", "viewer"])
    invited = dict(Invitation.objects.filter(campaign=copy).values_list("username", "role"))
    assert invited == {"gm": "player", "player": "player", "viewer": "player"}  # players all, whatever it said
    client.login(username="player", password=PASSWORD)
    home = client.get(reverse("home")).content.decode()
    assert "Invitations for you" in home and copy.name in home
    token = Invitation.objects.get(campaign=copy, username="player").token
    assert client.post(reverse("join", args=[token])).status_code == 302
    assert copy.memberships.filter(user=personas["player"], role="player").exists()
    other = Invitation.objects.get(campaign=copy, username="viewer").token
    assert client.post(reverse("join", args=[other])).status_code == 409  # someone else's
