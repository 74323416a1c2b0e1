"""Factories for sheets: rows straight into the database, for tests that need many of them.

Tests of behaviour build characters through the services (``services.character_create``);
these factories are for volume (query counts) where only the rows matter.
"""

import factory

from campaign.testing import arranged
from characters.models import (
    STAT_FIELDS,
    Armour,
    Character,
    Disadvantage,
    Equipment,
    Language,
    Skill,
    Weapon,
)

#: A legal set of rolled stats: starting Karma 10 (none ≥ 17 or ≤ 8), INT 13 + 4 − 2 = 15.
STATS = {"STR": 12, "CON": 14, "RES": 13, "NIM": 15, "DEX": 16, "ACC": 12, "MEL": 10,
         "PRAC": 15, "THEO": 14, "ENC": 13, "LAN": 12, "AWA": 16, "PERS": 14}
INT_DICE = [4, 2]


class CharacterFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Character

    name = factory.Sequence(lambda n: f"Character {n}")
    rolled_stats = factory.LazyFunction(lambda: dict(STATS))
    int_plus_d6, int_minus_d6 = INT_DICE

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        for code, field in STAT_FIELDS.items():
            kwargs.setdefault(field, kwargs["rolled_stats"][code])
        with arranged(kwargs.get("campaign")):
            return super()._create(model_class, *args, **kwargs)


class _LineFactory(factory.django.DjangoModelFactory):
    position = factory.Sequence(int)
    classified = True

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        with arranged(kwargs["character"].campaign_id):
            return super()._create(model_class, *args, **kwargs)


class SkillFactory(_LineFactory):
    class Meta:
        model = Skill

    name = factory.Sequence(lambda n: f"Skill {n}")
    breadth = "specific"
    ranks = 1
    stat = "PRAC"


class DisadvantageFactory(_LineFactory):
    class Meta:
        model = Disadvantage

    name = factory.Sequence(lambda n: f"Disadvantage {n}")
    value = 1
    ranks = 1


class EquipmentFactory(_LineFactory):
    class Meta:
        model = Equipment

    name = factory.Sequence(lambda n: f"Equipment {n}")
    breadth = "specific"


class WeaponFactory(_LineFactory):
    class Meta:
        model = Weapon

    name = factory.Sequence(lambda n: f"Weapon {n}")
    damage_points = 3


class ArmourFactory(_LineFactory):
    class Meta:
        model = Armour

    name = factory.Sequence(lambda n: f"Armour {n}")
    hardness = 2
    coverage = 2


class LanguageFactory(_LineFactory):
    class Meta:
        model = Language

    name = factory.Sequence(lambda n: f"Language {n}")
    spoken = heard = written = read = 2


LINE_FACTORIES = {
    "skills": SkillFactory, "disadvantages": DisadvantageFactory, "equipment": EquipmentFactory,
    "weapons": WeaponFactory, "armour": ArmourFactory, "languages": LanguageFactory,
}


def fill_sheet(character, *, skills: int, others: int) -> None:
    """Give a character ``skills`` skills and ``others`` lines of every other kind."""
    for kind, line_factory in LINE_FACTORIES.items():
        line_factory.create_batch(skills if kind == "skills" else others, character=character)


# --- Sheets built through the services, as a player and a GM would ---------------------------
def create_draft(personas, *, owner: str = "player", name: str = "Mara", **extra) -> Character:
    from characters import services

    return services.character_create(campaign=personas["campaign"], owner=personas[owner], name=name,
                                     stats=dict(STATS), int_dice=list(INT_DICE), by=personas[owner], **extra)


def add_line(character, kind: str, by, *, is_gm: bool = False, **data):
    from characters import items

    return items.item_create(character=character, kind_name=kind, data=data, by=by, is_gm=is_gm)


def create_submitted(personas, **kwargs) -> Character:
    """Return a draft with a classified profession, submitted for approval."""
    from characters import lifecycle

    character = create_draft(personas, **kwargs)
    add_line(character, "skills", personas["gm"], is_gm=True, name="Medic", breadth="narrow", ranks=2, stat="PRAC")
    return lifecycle.character_submit(character=character, by=personas["player"])


def create_active(personas, **kwargs) -> Character:
    from characters import lifecycle

    return lifecycle.character_approve(character=create_submitted(personas, **kwargs), by=personas["gm"])


def snapshot(character_id: int | None = None) -> dict:
    """Return everything a write could change, to compare before and after a refused request."""
    from campaign.models import LogEntry
    from characters.items import ITEM_KINDS
    from characters.models import PoolEntry, SystemSheet
    from combat.models import SystemFight
    from economy.models import KarmaEntry

    characters = Character.objects.order_by("pk")
    if character_id is not None:
        characters = characters.filter(pk=character_id)
    state = {
        "characters": [{k: v for k, v in row.items() if k != "updated_at"} for row in characters.values()],
        "log": LogEntry.objects.count(),
        "karma": list(KarmaEntry.objects.values_list("pk", flat=True)),
        "history": Character.history.count(),
        "system_sheets": [{k: v for k, v in row.items() if k != "updated_at"}
                          for row in SystemSheet.objects.order_by("pk").values()],
        "pool_entries": list(PoolEntry.objects.values_list("pk", flat=True)),
        "fights": list(SystemFight.objects.order_by("pk").values()),
    }
    for name, kind in ITEM_KINDS.items():
        state[name] = list(kind.model.objects.order_by("pk").values())
        state[f"{name}_history"] = kind.model.history.count()
    return state
