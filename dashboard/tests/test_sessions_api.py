"""Game nights through the API, as the pages offer them: start, end with a drafted recap, publish,
notes; who may do what."""

import pytest

pytestmark = pytest.mark.django_db


def test_a_night_through_the_api(personas, api_as):
    campaign = personas["campaign"]
    gm, player, viewer = api_as("gm"), api_as("player"), api_as("viewer")
    url = f"/api/v1/campaigns/{campaign.pk}/sessions/"
    assert player.post(url, {"action": "start"}, format="json").status_code == 403
    started = gm.post(url, {"action": "start"}, format="json")
    assert started.status_code == 201 and started.json()["number"] == 1 and started.json()["ended_at"] is None
    assert gm.post(url, {"action": "start"}, format="json").status_code == 409  # one at a time
    assert gm.get(url).json()["running"] == 1
    ended = gm.post(url, {"action": "end"}, format="json")
    assert ended.status_code == 201 and ended.json()["recap"].startswith("Session 1, ")  # drafted from the night
    assert player.get(url).json()["sessions"] == []  # not published: the GM's
    night = f"{url}1/"
    assert player.get(night).status_code == 404
    assert player.patch(night, {"recap": "Mine now"}, format="json").status_code == 403
    published = gm.patch(night, {"recap": "The depot fell.", "publish": True}, format="json")
    assert published.status_code == 200 and published.json()["published_at"] is not None
    assert [s["recap"] for s in player.get(url).json()["sessions"]] == ["The depot fell."]
    note = player.post(f"{night}notes/", {"text": "Mara owes Tomas."}, format="json")
    assert note.status_code == 201 and note.json()["author"] == "player"
    assert viewer.post(f"{night}notes/", {"text": "Me too"}, format="json").status_code == 403
    assert player.post(f"{night}notes/", {"text": "   "}, format="json").status_code == 400
    body = viewer.get(night).json()
    assert body["recap"] == "The depot fell." and [n["text"] for n in body["notes"]] == ["Mara owes Tomas."]
    redrafted = gm.patch(night, {"redraft": True}, format="json")
    assert redrafted.status_code == 200 and redrafted.json()["recap"].startswith("Session 1, ")
    both = gm.patch(night, {"redraft": True, "recap": "x"}, format="json")
    assert both.status_code == 400
