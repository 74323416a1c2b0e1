"""The demo data: complete, approved characters, and loading it twice changes nothing."""

import pytest
from django.core.management import call_command

from campaign.models import Campaign, LogEntry
from characters.models import Character
from characters.selectors import character_with_sheet
from characters.sheet import compute_sheet
from economy.models import KarmaEntry, MacGuffin

pytestmark = pytest.mark.django_db


def test_seed_demo_is_idempotent_and_complete():
    call_command("seed_demo")
    counts = (Campaign.objects.count(), Character.objects.count(), KarmaEntry.objects.count(),
              LogEntry.objects.count(), MacGuffin.objects.count())
    call_command("seed_demo")
    assert counts == (Campaign.objects.count(), Character.objects.count(), KarmaEntry.objects.count(),
                      LogEntry.objects.count(), MacGuffin.objects.count())
    characters = {c.owner.username: c for c in Character.objects.select_related("owner")}
    assert set(characters) == {"alice", "bob"}
    for character in characters.values():
        assert character.state == Character.State.ACTIVE
        sheet = compute_sheet(character_with_sheet(character_id=character.pk))
        assert not sheet.budget.overspent and sheet.budget.pending == 0
        assert sheet.skill_checks and all(0 < line.probability < 1 for line in sheet.skill_checks.values())
    mara = characters["alice"]
    # Mara: INT (15+14+13+12)/4 → 13, +4 −2 = 15; HP 2·14 + 13 + 15 = 56; SHK ⌈56/5⌉ = 12.
    assert (mara.intelligence, mara.hit_points, mara.shock_threshold, mara.endurance_max) == (15, 56, 12, 14)
    # Starting Karma 10, less the 3 she gave to the crystal radio set.
    assert (mara.starting_karma, mara.karma) == (10, 7)
    radio = MacGuffin.objects.get(name="Crystal radio set")
    assert radio.progress == 5 and radio.status == MacGuffin.Status.FUNDING
