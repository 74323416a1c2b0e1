"""Downtime tests reuse the campaign's fixtures: personas and approved characters."""

import pytest

from economy.tests.conftest import elsewhere, make_character  # noqa: F401  (fixtures)


@pytest.fixture
def wounded(make_character):
    """Return ``wound(owner, **wounds)``: an approved character with wounds stored as given.

    The wounds go through the wounds service, as a GM recording them at the table would.
    """
    from characters import wounds
    from economy.tests.conftest import campaign_gm

    def wound(owner, *, trauma=0, shock=0, end=0, stat_damage=None, **kwargs):
        character = make_character(owner, **kwargs)
        if trauma or shock or end or stat_damage:
            wounds.wounds_record(character=character, by=campaign_gm(character.campaign), reason="test set-up",
                                 trauma=trauma, shock=shock, end=end, stat_damage=stat_damage)
        character.refresh_from_db()
        return character

    return wound

