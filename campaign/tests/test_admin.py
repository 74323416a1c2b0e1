"""The admin writes through change sets too: an edit there is saved, logged and seen live."""

import pytest
from django.test import Client

from campaign.models import Campaign, LogEntry
from characters import items
from characters.models import Weapon

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(django_user_model):
    root = django_user_model.objects.create_superuser(username="root", password="x", email="root@example.org")
    client = Client()
    client.force_login(root)
    return client


def test_a_campaign_edited_in_the_admin_is_saved_and_logged(admin_client, personas):
    campaign = personas["campaign"]
    form = admin_client.get(f"/admin/campaign/campaign/{campaign.pk}/change/")
    assert form.status_code == 200
    data = {"name": "Renamed by the admin", "description": "", "stat_entry": "enter", "stat_dice": "4d6",
            "max_skill_ranks": 3, "typed_dice": "own", "rule_set": "zener", "rulings": "{}", "game_hours": 0,
            "memberships-TOTAL_FORMS": 0, "memberships-INITIAL_FORMS": 0}
    response = admin_client.post(f"/admin/campaign/campaign/{campaign.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Campaign.objects.get(pk=campaign.pk).name == "Renamed by the admin"
    assert LogEntry.objects.filter(campaign=campaign, action="admin.save").exists()


def test_a_sheet_line_deleted_in_the_admin_is_gone(admin_client, personas, make_character):
    alice = make_character("player")
    weapon = items.item_create(character=alice, kind_name="weapons", by=personas["gm"], is_gm=True,
                               data={"name": "Baton", "damage_points": 3, "melee": True})
    response = admin_client.post(f"/admin/characters/weapon/{weapon.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Weapon.objects.filter(pk=weapon.pk).exists()
