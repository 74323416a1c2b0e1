"""Live parts pushed rendered once per audience (campaign/parts.py, campaign/stream.py).

A page names the parts it shows (``?parts=``); after the events that change them the stream
sends each one rendered for the viewer's audience: once for the players however many watch,
once for the GM. Forms inside get each page's own CSRF token.
"""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async

from campaign import parts
from campaign.tests.test_stream import Reader, _labels, _roll, run
from combat import services as combat

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


async def _open_parts(user, campaign, asked: str, **headers):
    from django.test import AsyncClient

    client = AsyncClient()
    await client.aforce_login(user)
    return await client.get(f"/campaigns/{campaign.pk}/stream/?parts={asked}", headers=headers)


def _parts_of(frames) -> list[dict]:
    return [data for kind, _, data in frames if kind == "part"]


def test_a_part_is_rendered_once_per_audience_however_many_players_watch(personas, make_user):
    from campaign import services as campaign_services

    campaign, gm = personas["campaign"], personas["gm"]
    players = [personas["player"], personas["other_player"]]
    for n in range(8):
        players.append(make_user(f"watcher{n}"))
        campaign_services.membership_add(campaign=campaign, username=f"watcher{n}", role="player", by=gm)

    async def body():
        readers = [Reader(await _open_parts(user, campaign, "roll-feed")) for user in [gm, *players]]
        for reader in readers:
            await reader.frames(0.3)
        parts.RENDERS.clear()

        await sync_to_async(_roll)(campaign, gm, "for everyone")
        got = [await reader.frames(1.5) for reader in readers]
        for frames in got:
            assert await sync_to_async(_labels)(frames) == ["for everyone"]
            (feed,) = _parts_of(frames)  # right after the event, rendered
            assert feed["part"] == "roll-feed" and feed["key"] is None and "for everyone" in feed["html"]
            kinds = [kind for kind, _, _ in frames]
            assert kinds.index("zg") < kinds.index("part")
        # Ten players and the GM watched: two renders.
        assert parts.RENDERS == {("roll-feed", "players"): 1, ("roll-feed", "gm"): 1}

        await sync_to_async(_roll)(campaign, gm, "for the GM", private=True)
        gm_frames = await readers[0].frames(1.5)
        assert "for the GM" in _parts_of(gm_frames)[0]["html"]
        for reader in readers[1:]:
            frames = await reader.frames(0.2)
            assert [kind for kind, _, _ in frames if kind != "ping"] == []  # nothing for them: no event, no part
        assert parts.RENDERS == {("roll-feed", "players"): 1, ("roll-feed", "gm"): 2}
        for reader in readers:
            await reader.close()

    run(body)


def test_the_players_copy_never_holds_what_only_the_gm_sees(personas, make_character):
    campaign, gm, player = personas["campaign"], personas["gm"], personas["player"]
    alice = make_character("player", name="Alice")
    encounter = combat.encounter_create(campaign=campaign, by=gm, name="Docks")
    combat.combatant_add(encounter=encounter, by=gm, character_id=alice.pk)

    async def body():
        theirs = Reader(await _open_parts(player, campaign, f"encounter:{encounter.pk}"))
        mine = Reader(await _open_parts(gm, campaign, f"encounter:{encounter.pk}"))
        await theirs.frames(0.3)
        await mine.frames(0.3)
        await sync_to_async(combat.combatant_add)(encounter=encounter, by=gm,
                                                  npc={"name": "Hidden Sniper", "stats": {"AWA": 9}})
        await sync_to_async(combat.combatant_add)(encounter=encounter, by=gm,
                                                  npc={"name": "Open Brawler", "stats": {"AWA": 9}, "revealed": True})
        gm_parts = _parts_of(await mine.frames(1.5))
        player_parts = _parts_of(await theirs.frames(1.5))
        assert "Hidden Sniper" in gm_parts[-1]["html"] and "Open Brawler" in gm_parts[-1]["html"]
        assert "Open Brawler" in player_parts[-1]["html"]
        assert all("Hidden Sniper" not in part["html"] for part in player_parts)
        await theirs.close()
        await mine.close()

    run(body)


def test_each_page_gets_its_own_token_in_a_pushed_form_and_it_works(personas, make_character, client):
    """The GM's tracker carries forms; the copy is shared, the CSRF token is the page's own."""
    campaign, gm = personas["campaign"], personas["gm"]
    alice = make_character("player", name="Alice")
    encounter = combat.encounter_create(campaign=campaign, by=gm, name="Docks")
    client.force_login(gm)
    client.get(f"/campaigns/{campaign.pk}/")  # the CSRF cookie, as a browser has it
    after = 0
    combat.combatant_add(encounter=encounter, by=gm, character_id=alice.pk)
    npc = combat.combatant_add(encounter=encounter, by=gm, npc={"name": "Lurker", "stats": {"AWA": 9}})
    # Through a WSGI server the stream answers once, with the parts too.
    body = client.get(f"/campaigns/{campaign.pk}/stream/?after={after}&parts=encounter:{encounter.pk}").content.decode()
    assert "event: part" in body and "zg-csrf-token-here" not in body
    token = re.search(r'name=\\"csrfmiddlewaretoken\\" value=\\"(\w+)\\"', body)[1]
    client.enforce_csrf_checks = True
    client.handler.enforce_csrf_checks = True
    answer = client.post(f"/encounters/{encounter.pk}/act/", {"action": "reveal", "combatant": npc.pk,
                                                              "csrfmiddlewaretoken": token})
    assert answer.status_code == 302  # accepted: the token in the pushed copy is this page's
    npc.refresh_from_db()
    assert npc.revealed


@pytest.mark.parametrize("raw, asked", [
    ("roll-feed", [("roll-feed", None)]),
    ("roll-feed,encounter:3,pools", [("roll-feed", None), ("encounter", 3), ("pools", None)]),
    ("roll-feed,roll-feed", [("roll-feed", None)]),
    ("encounter", []),                 # a part of one encounter needs its id
    ("roll-feed:3", []),               # and a part of the campaign takes none
    ("encounter:-1,encounter:x,encounter:99999999999999999999", []),
    ("nonsense,<script>", []),
    ("", []),
])
def test_a_page_asks_for_known_parts_only(raw, asked):
    assert [(part.name, key) for part, key in parts.wanted(raw)] == asked


def test_a_part_of_another_campaigns_encounter_renders_nothing(personas, elsewhere):
    from django.contrib.auth import get_user_model

    from campaign.models import Campaign

    other = combat.encounter_create(campaign=elsewhere, by=get_user_model().objects.get(username="gm2"),
                                    name="Not yours")
    tracker = parts.PARTS["encounter"]
    campaign = Campaign.objects.get(pk=personas["campaign"].pk)
    assert tracker.render(campaign, other.pk, False) == ""
    assert tracker.render(campaign, other.pk, True) == ""
