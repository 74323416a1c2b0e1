"""Query counts of the live fragments: the parts of a page fetched again when a live event arrives.

Every open page fetches its fragment on every event, so a fragment that costs a query per
combatant, roll, pool or character multiplies the whole table's load as the campaign grows.
Each test measures one refresh in a small world, grows the world, and wants the same count.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from characters import wounds
from characters.tests.factories import SkillFactory, WeaponFactory, fill_sheet
from combat import services as combat
from combat.models import Combatant
from downtime import services as downtime
from economy import services as economy
from economy.tests.conftest import make_character  # noqa: F401  (a fixture)
from rolls import services as rolls

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}  # htmx sends it with every fragment it fetches
#: An NPC with a weapon, revealed so that players see it (and pay for it) too.
GOON = {"weapons": [{"name": "Club", "damage_points": 3, "melee": True, "ranks": 1}], "revealed": True}


def _refresh(client, url: str, params: dict | None = None) -> tuple[list[str], str]:
    """Fetch a fragment as htmx does; return the SQL it ran and the HTML it sent."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, params or {}, **HTMX)
    assert response.status_code == 200, response.content[:500]
    return [q["sql"] for q in queries.captured_queries], response.content.decode()


def _what_grew(small: list[str], grown: list[str]) -> str:
    """Say which statements the grown world ran more (or fewer) times, numbers blurred."""
    def shape(sql: str) -> str:  # the columns are long and alike: keep the table and the WHERE
        sql = re.sub(r"\b\d+\b", "N", sql)
        return sql if len(sql) <= 300 else f"{sql[:100]} … {sql[-200:]}"

    def shapes(statements):
        return Counter(map(shape, statements))

    more, fewer = shapes(grown) - shapes(small), shapes(small) - shapes(grown)
    lines = [f"{len(small)} queries in the small world, {len(grown)} in the grown one"]
    lines += [f"  +{n}× {sql}" for sql, n in more.items()] + [f"  -{n}× {sql}" for sql, n in fewer.items()]
    return "\n".join(lines)


def _wound(character, by, **damage):
    wounds.wounds_record(character=character, by=by, reason="Test set-up: a fight", **damage)


# --- The encounter tracker ---------------------------------------------------------------
@pytest.mark.parametrize("persona", ["gm", "player"])
def test_the_encounter_fragment_does_not_grow_with_the_combatants(client, personas, make_character, persona):
    gm, campaign = personas["gm"], personas["campaign"]
    encounter = combat.encounter_create(campaign=campaign, by=gm, name="Depot")
    alice = make_character("player", name="Alice")

    def join(*characters, npcs=()):
        for character in characters:
            WeaponFactory(character=character)  # the tracker lists every fighter's weapons
            combat.combatant_add(encounter=encounter, by=gm, character_id=character.pk)
        for name in npcs:
            combat.combatant_add(encounter=encounter, by=gm, npc={**GOON, "name": name})
        # Alice first, so the player gets the attack form too; a new round also lengthens the log.
        first = Combatant.objects.get(encounter=encounter, character=alice).pk
        combat.initiative_roll(encounter=encounter, by=gm, dice={
            c.pk: [6 if c.pk == first else 1] for c in Combatant.objects.filter(encounter=encounter)})

    join(alice, make_character("other_player", name="Bob"), npcs=["Goon 1"])
    client.force_login(personas[persona])
    url = reverse("encounter-live", args=[encounter.pk])
    small, html = _refresh(client, url)
    assert "Roll the attack" in html and "Goon 1" in html

    join(make_character("player", name="Carla"), make_character("other_player", name="Dmitri"), npcs=["Goon 2"])
    _wound(Combatant.objects.get(encounter=encounter, name="Dmitri").character, gm, trauma=4, shock=2)
    grown, html = _refresh(client, url)
    assert "Roll the attack" in html and all(name in html for name in ("Carla", "Dmitri", "Goon 2"))
    assert len(grown) == len(small), _what_grew(small, grown)


# --- MacGuffin pools -------------------------------------------------------------------------
@pytest.mark.parametrize("persona", ["gm", "player"])
def test_the_pools_fragment_does_not_grow_with_pools_or_contributions(client, personas, make_character, persona):
    gm, campaign = personas["gm"], personas["campaign"]
    givers = [make_character("player", name="Alice"), make_character("other_player", name="Bob")]

    def pool(name: str, *, gifts: int):
        opened = economy.macguffin_create(campaign=campaign, name=name, limitation="", target=50, upgrade="", by=gm)
        for n, giver in enumerate(givers[:gifts]):
            economy.macguffin_contribute(macguffin=opened, character=giver, amount=1, idempotency_key=f"{name}-{n}",
                                         by=gm)

    pool("Crystal radio set", gifts=1)
    client.force_login(personas[persona])
    url = reverse("campaign-macguffins-live", args=[campaign.pk])
    small, html = _refresh(client, url)
    assert "Crystal radio set" in html

    givers += [make_character("player", name="Carla"), make_character("other_player", name="Dmitri")]
    for name in ("Meitner lattice", "Brass astrolabe", "Lead-lined trunk"):
        pool(name, gifts=len(givers))
    grown, html = _refresh(client, url)
    assert "Lead-lined trunk" in html and "Dmitri 1" in html
    assert len(grown) == len(small), _what_grew(small, grown)


# --- The roll feed and the roller's check form ----------------------------------------------
def _roll(campaign, by, n: int, *, private: bool = False):
    if n % 2:
        rolls.roll_check(campaign=campaign, by=by, check={"target": 12}, label=f"Check {n}", private=private,
                         rng=random.Random(n))
    else:
        rolls.roll_notation(campaign=campaign, by=by, text="2d6+1", label=f"Dice {n}", private=private,
                            rng=random.Random(n))


@pytest.mark.parametrize("persona", ["gm", "player"])
def test_the_roll_feed_does_not_grow_with_the_rolls(client, personas, persona):
    campaign = personas["campaign"]
    _roll(campaign, personas["player"], 0)
    _roll(campaign, personas["gm"], 1, private=True)
    client.force_login(personas[persona])
    url = reverse("campaign-rolls-feed", args=[campaign.pk])
    small, html = _refresh(client, url)
    assert "Dice 0" in html

    # Rolls by everyone who rolls (the feed names each roller), some behind the GM's screen.
    for n in range(2, 14):
        by = personas[("gm", "player", "other_player")[n % 3]]
        _roll(campaign, by, n, private=by == personas["gm"] and n % 2 == 0)
    grown, html = _refresh(client, url)
    assert "Check 13" in html
    assert len(grown) == len(small), _what_grew(small, grown)


@pytest.mark.parametrize("persona", ["gm", "player"])
def test_the_roller_check_part_does_not_grow_with_characters_or_rolls(client, personas, make_character, persona):
    """The check form is fetched again on every campaign settings event, by every open roller."""
    campaign = personas["campaign"]
    make_character("player", name="Alice")
    client.force_login(personas[persona])
    url = reverse("campaign-roller", args=[campaign.pk])
    small, html = _refresh(client, url, {"part": "check"})
    assert "Roll the check" in html

    for name, owner in (("Bob", "other_player"), ("Carla", "player"), ("Dmitri", "other_player")):
        SkillFactory.create_batch(5, character=make_character(owner, name=name))
    for n in range(6):
        _roll(campaign, personas["player"], n)
    grown, html = _refresh(client, url, {"part": "check"})
    assert "Roll the check" in html
    assert len(grown) == len(small), _what_grew(small, grown)


# --- The sheet's wound panel -------------------------------------------------------------------
@pytest.mark.parametrize("persona", ["gm", "player"])
def test_the_wound_panel_does_not_grow_with_wounds_or_sheet_lines(client, personas, make_character, persona):
    gm = personas["gm"]
    alice = make_character("player", name="Alice")
    _wound(alice, gm, trauma=3)
    client.force_login(personas[persona])
    url = reverse("character-wounds-panel", args=[alice.pk])
    small, html = _refresh(client, url)
    assert "Heals next" in html

    # Every kind of wound the panel lists a line for, and a fuller sheet behind it.
    _wound(alice, gm, shock=4, end=3, stat_damage={"STR": 2})
    _wound(alice, gm, stat_damage={"DEX": 1})
    fill_sheet(alice, skills=8, others=3)
    grown, html = _refresh(client, url)
    assert 'data-stat-damage="DEX"' in html
    assert len(grown) == len(small), _what_grew(small, grown)


# --- A downtime job ----------------------------------------------------------------------------
@pytest.mark.parametrize("persona", ["gm", "player"])
def test_a_finished_jobs_fragment_does_not_grow_with_the_characters_it_covers(client, personas, make_character,
                                                                               persona):
    gm, campaign = personas["gm"], personas["campaign"]

    def finished_job(key: str) -> str:
        job, _ = downtime.downtime_start(campaign=campaign, by=gm,
                                         request={"hours": 24, "rest": "comfortable", "idempotency_key": key})
        downtime.downtime_run(job_id=job.pk)
        return reverse("campaign-job", args=[campaign.pk, job.pk])

    _wound(make_character("player", name="Alice"), gm, trauma=5, shock=2)
    client.force_login(personas[persona])
    small, html = _refresh(client, finished_job("small"))
    assert html.count('class="pc-report"') == 1

    for name, owner in (("Bob", "other_player"), ("Carla", "player"), ("Dmitri", "other_player")):
        _wound(make_character(owner, name=name), gm, trauma=4, end=2, stat_damage={"STR": 1})
    grown, html = _refresh(client, finished_job("grown"))
    assert html.count('class="pc-report"') == 4
    assert len(grown) == len(small), _what_grew(small, grown)
