"""The GM moves long-term CON loss from radiation to another stat.

Article, "Radiation Damage": the GM may move long-term CON loss to another stat; the moved loss
still heals on the recovery track (``rulebook.radiation.transfer_long_term_loss``).
"""

import pytest
from django.db import transaction

from campaign.changes import change_set
from characters.models import Character
from characters.selectors import character_with_sheet
from characters.sheet import current_stats
from economy.tests.conftest import make_character  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def irradiated(make_character):  # noqa: F811
    character = make_character("player", name="Glow")
    with transaction.atomic():
        change_set(campaign=character.campaign_id)
        Character.objects.filter(pk=character.pk).update(
            long_term_con_damage=3, radiation_track={"damage": {"CON": 3}, "step": 0, "transitions": 1})
    return character


def test_the_gm_moves_two_points_of_con_loss_to_str(irradiated, api_as):
    before = current_stats(character_with_sheet(character_id=irradiated.pk))
    response = api_as("gm").post(f"/api/v1/characters/{irradiated.pk}/wounds/",
                                 {"con_loss_points": 2, "con_loss_to": "STR"}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["radiation"]["damage"] == {"CON": 1, "STR": 2}
    after = current_stats(character_with_sheet(character_id=irradiated.pk))
    assert after["CON"] == before["CON"] + 2 and after["STR"] == before["STR"] - 2
    assert Character.objects.get(pk=irradiated.pk).long_term_con_damage == 1


@pytest.mark.parametrize("body, field", [
    ({"con_loss_points": 4, "con_loss_to": "STR"}, "con_loss_points"),  # only 3 to move
    ({"con_loss_points": 1}, "con_loss_to"),
])
def test_a_transfer_the_track_cannot_make_changes_nothing(irradiated, api_as, body, field):
    response = api_as("gm").post(f"/api/v1/characters/{irradiated.pk}/wounds/", body, format="json")
    assert response.status_code == 400 and field in response.json()["errors"], response.json()
    assert Character.objects.get(pk=irradiated.pk).radiation_track["damage"] == {"CON": 3}


def test_players_do_not_move_their_own_loss(irradiated, api_as):
    response = api_as("player").post(f"/api/v1/characters/{irradiated.pk}/wounds/",
                                     {"con_loss_points": 1, "con_loss_to": "STR"}, format="json")
    assert response.status_code == 403
