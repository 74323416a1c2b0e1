"""Helpers shared by the downtime tests."""


def stored_wounds(character) -> dict:
    """Return a character's stored wound columns as they are in the database now."""
    from characters.models import Character
    from characters.wounds import WOUND_COLUMNS

    row = Character.objects.get(pk=character.pk)
    return {name: getattr(row, name) for name in WOUND_COLUMNS}


def all_wounds() -> dict:
    """Return every character's stored wound columns, by id."""
    from characters.models import Character
    from characters.wounds import WOUND_COLUMNS

    return {c.pk: {name: getattr(c, name) for name in WOUND_COLUMNS} for c in Character.objects.all()}
