"""The campaign's live event stream: what a write publishes, and who reads what after an id."""

import pytest
from django.db import transaction

from campaign.audience import GM_ONLY, owner_and_gm
from campaign.changes import change_set
from campaign.models import Event
from characters.events import WoundsChanged
from rolls.events import RollMade

pytestmark = pytest.mark.django_db


def _events(api, campaign, after=0):
    return api.get(f"/api/v1/campaigns/{campaign.pk}/events/", {"after": after})


def _wound(api, character, trauma=2):
    response = api.post(f"/api/v1/characters/{character.pk}/wounds/", {"trauma": trauma, "reason": "a fall"},
                        format="json")
    assert response.status_code == 201, response.content


@pytest.fixture
def alice(make_character):
    return make_character("player", name="Alice")


def test_a_recorded_wound_is_published_and_read_once(personas, api_as, alice):
    gm, campaign = api_as("gm"), personas["campaign"]
    _wound(gm, alice)

    response = _events(gm, campaign)

    assert response.status_code == 200, response.content
    body = response.json()
    wounds = [e for e in body["events"] if e["kind"] == "wounds"]
    assert len(wounds) == 1 and wounds[0]["data"] == {"characters": [alice.pk]}
    assert set(wounds[0]) == {"id", "kind", "data", "at"}
    assert body["last"] == body["events"][-1]["id"] == wounds[0]["id"]
    assert Event.objects.get(pk=wounds[0]["id"]).campaign == campaign
    # Before it, what the write changed, as data keys (campaign.keys): the sheet and the party.
    keys = [e for e in body["events"] if e["kind"] == "changed"]
    assert keys[-1]["id"] == wounds[0]["id"] - 1
    assert {f"character:{alice.pk}", f"campaign:{campaign.pk}/characters"} <= set(keys[-1]["data"]["keys"])

    nothing_new = _events(gm, campaign, after=body["last"]).json()
    assert nothing_new == {"events": [], "last": body["last"]}


def test_ids_increase_and_after_skips_what_was_seen(personas, api_as, alice, make_character):
    gm, campaign = api_as("gm"), personas["campaign"]
    bob = make_character("other_player", name="Bob")
    start = _events(gm, campaign).json()["last"]
    _wound(gm, alice)
    _wound(gm, bob)
    _wound(gm, alice, trauma=1)

    body = _events(gm, campaign, after=start).json()

    wounds = [e for e in body["events"] if e["kind"] == "wounds"]
    ids = [e["id"] for e in body["events"]]
    assert ids == sorted(ids) and len(set(ids)) == 6  # each write: its keys, then its wounds event
    assert [e["data"]["characters"] for e in wounds] == [[alice.pk], [bob.pk], [alice.pk]]
    later = _events(gm, campaign, after=wounds[0]["id"]).json()
    assert [e["id"] for e in later["events"]] == ids[2:]
    assert later["last"] == ids[-1]


def test_events_of_another_campaign_stay_there(personas, api_as, alice, elsewhere):
    with transaction.atomic():
        change_set(campaign=elsewhere).publish(WoundsChanged(characters=[1]))
    body = _events(api_as("gm"), personas["campaign"]).json()
    assert all(Event.objects.get(pk=e["id"]).campaign_id == personas["campaign"].pk for e in body["events"])
    assert _events(api_as("gm"), elsewhere).status_code == 404


@pytest.mark.parametrize("persona", ["gm", "player", "other_player", "viewer"])
def test_every_member_reads_the_public_events(personas, api_as, alice, persona):
    _wound(api_as("gm"), alice)
    response = _events(api_as(persona), personas["campaign"])
    assert response.status_code == 200
    assert [e["data"] for e in response.json()["events"] if e["kind"] == "wounds"] == [{"characters": [alice.pk]}]


@pytest.mark.parametrize("persona, status", [("outsider", 404), (None, 401)])
def test_strangers_read_no_events(personas, api_as, alice, persona, status):
    _wound(api_as("gm"), alice)
    assert _events(api_as(persona), personas["campaign"]).status_code == status


def _publish(campaign, *events) -> list[int]:
    start = Event.objects.order_by("-id").values_list("id", flat=True).first() or 0
    with transaction.atomic():
        change_set(campaign=campaign).publish(*events)
    return list(Event.objects.filter(id__gt=start).order_by("id").values_list("id", flat=True))


def test_gm_only_events_are_shown_to_the_gm_alone(personas, api_as):
    campaign = personas["campaign"]
    public, secret = _publish(campaign, RollMade(roll=1), RollMade(roll=2, seen=GM_ONLY))
    assert secret > public

    seen_by_gm = [e["id"] for e in _events(api_as("gm"), campaign, after=public - 1).json()["events"]]
    assert seen_by_gm == [public, secret]
    for persona in ("player", "other_player", "viewer"):
        body = _events(api_as(persona), campaign, after=public - 1).json()
        assert [e["id"] for e in body["events"]] == [public], persona
        assert body["last"] == public


def test_an_owner_event_reaches_the_owner_and_the_gm_alone(personas, api_as):
    campaign = personas["campaign"]
    [mine] = _publish(campaign, RollMade(roll=7, seen=owner_and_gm(personas["player"].pk)))
    for persona, sees in (("gm", True), ("player", True), ("other_player", False), ("viewer", False)):
        ids = [e["id"] for e in _events(api_as(persona), campaign, after=mine - 1).json()["events"]]
        assert (mine in ids) == sees, persona


def test_an_event_kind_refuses_fields_it_does_not_declare():
    with pytest.raises(TypeError):
        WoundsChanged(characters=[1], secret="the GM's plan")


def test_a_change_set_outside_a_transaction_is_refused(personas):
    """The stream's order depends on publishing inside the write's transaction (campaign.changes)."""
    from django.db import connection

    before = Event.objects.count()
    atomic = connection.in_atomic_block
    connection.in_atomic_block = False
    try:
        with pytest.raises(RuntimeError):
            change_set(campaign=personas["campaign"])
    finally:
        connection.in_atomic_block = atomic
    assert Event.objects.count() == before


@pytest.mark.parametrize("after", ["x", "-1", "1.5", str(2**63)])
def test_a_bad_after_is_400(personas, api_as, after):
    response = _events(api_as("gm"), personas["campaign"], after=after)
    assert response.status_code == 400, response.content
    assert "after" in response.json()["errors"]


def test_after_defaults_to_the_beginning(personas, api_as, alice):
    _wound(api_as("gm"), alice)
    response = api_as("player").get(f"/api/v1/campaigns/{personas['campaign'].pk}/events/")
    assert response.status_code == 200
    assert any(e["kind"] == "wounds" for e in response.json()["events"])
