"""Reads for the characters app, scoped by the viewer."""

from django.db.models import Prefetch, QuerySet

from campaign.models import Membership

from .models import (
    Armour,
    Character,
    Disadvantage,
    Equipment,
    Language,
    Skill,
    Weapon,
)
from .weapons import WEAPON_BREADTHS

SHEET_PREFETCH = (
    Prefetch("skills", queryset=Skill.objects.order_by("position", "id")),
    Prefetch("disadvantages", queryset=Disadvantage.objects.order_by("position", "id")),
    Prefetch("equipment", queryset=Equipment.objects.order_by("position", "id")),
    Prefetch("weapons", queryset=Weapon.objects.order_by("position", "id")),
    Prefetch("armour", queryset=Armour.objects.order_by("position", "id")),
    Prefetch("languages", queryset=Language.objects.order_by("position", "id")),
)


#: The skills a fight reads: the weapon skills give an attacker its ranks.
WEAPON_SKILLS = WEAPON_BREADTHS

#: What a character in a fight needs: stats in play read worn armour, the attack reads weapons
#: and weapon skills. Nothing else of the sheet is loaded for an attack (a character with 30
#: skills and two weapon skills loads two: the tracker loads every combatant's on every render).
COMBAT_PREFETCH = (
    Prefetch("skills", queryset=Skill.objects.filter(breadth__in=WEAPON_SKILLS).order_by("position", "id")),
    *(p for p in SHEET_PREFETCH if p.prefetch_through in ("weapons", "armour")),
)


def character_for_combat(*, character_id: int, lock: bool = False) -> Character:
    """Load a character with what a fight reads (``COMBAT_PREFETCH``), locking its row if asked."""
    rows = Character.objects.select_related("campaign", "owner").prefetch_related(*COMBAT_PREFETCH)
    if lock:
        rows = rows.select_for_update(of=("self",), no_key=True)
    return rows.get(pk=character_id)


def character_with_sheet(*, character_id: int) -> Character:
    """Load a character with every sheet line in a fixed number of queries."""
    return (Character.objects.select_related("campaign", "owner").prefetch_related(*SHEET_PREFETCH)
            .get(pk=character_id))


def character_list(*, viewer, campaign_id: int | None = None) -> QuerySet[Character]:
    """Return the characters in the viewer's campaigns (one campaign when given)."""
    if not viewer.is_authenticated:
        return Character.objects.none()
    campaigns = Membership.objects.filter(user=viewer).values("campaign_id")
    qs = Character.objects.filter(campaign_id__in=campaigns).select_related("campaign", "owner")
    if campaign_id is not None:
        qs = qs.filter(campaign_id=campaign_id)
    return qs.order_by("campaign_id", "name", "id")
