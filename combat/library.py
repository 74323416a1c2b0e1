"""The GM's NPC library: casts of NPCs saved from a fight, to start the next fight from, and a
fight run again with the same cast.

A set-up keeps each NPC's stat block, weapons and whether it is hidden, never its wounds: a fight
started from it begins fresh. Set-ups are the GM's alone (they name hidden NPCs).
"""

from __future__ import annotations

import re

from django.db import transaction
from django.utils.translation import gettext as _

from campaign.audience import GM_ONLY
from campaign.changes import change_set
from characters.models import Character
from rulebook.words import said, said_plural
from zenergate_site import limits
from zenergate_site.text import with_suffix

from .errors import CombatConflict, CombatError
from .models import Combatant, Encounter, NpcSetup
from .services import NPC_FIELDS, combatant_add, encounter_create


def _stat_block(combatant: Combatant) -> dict:
    return {name: getattr(combatant, name) for name in NPC_FIELDS}


def _name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise CombatError(_("Give the set-up a name."), field="name")
    return name


@transaction.atomic
def setup_save(*, encounter: Encounter, by, name: str) -> tuple[NpcSetup, bool]:
    """Save the fight's NPCs as a set-up; a set-up of the same name is replaced. Return
    (set-up, created)."""
    write = change_set(campaign=encounter.campaign_id, by=by)
    name = _name(name)
    npcs = [_stat_block(c) for c in encounter.combatants.filter(character__isnull=True).order_by("position", "id")]
    if not npcs:
        raise CombatConflict(_("This fight has no NPCs to save."), field="encounter")
    setup, created = NpcSetup.objects.update_or_create(
        campaign_id=encounter.campaign_id, name=name, defaults={"npcs": npcs, "gm_notes": encounter.gm_notes})
    values = {"by": str(by), "name": name, "count": len(npcs)}
    write.audit("combat.setup", said_plural("%(by)s saved the NPC set-up %(name)s (%(count)s NPC)",
                                            "%(by)s saved the NPC set-up %(name)s (%(count)s NPCs)", len(npcs), **values)
                if created else said_plural("%(by)s saved again the NPC set-up %(name)s (%(count)s NPC)",
                                            "%(by)s saved again the NPC set-up %(name)s (%(count)s NPCs)", len(npcs),
                                            **values), data={"setup": setup.pk}, seen=GM_ONLY)
    return setup, created


@transaction.atomic
def setup_delete(*, setup: NpcSetup, by) -> None:
    write = change_set(campaign=setup.campaign_id, by=by)
    write.audit("combat.setup", said("%(by)s deleted the NPC set-up %(name)s", by=str(by), name=setup.name),
                data={"setup": setup.pk},
                seen=GM_ONLY)
    setup.delete()


def _next_name(campaign_id: int, name: str) -> str:
    """"The customs house" → "The customs house · 2", then "· 3": the fights stay apart in the list."""
    base = re.sub(r" · \d+$", "", name)
    taken = Encounter.objects.filter(campaign_id=campaign_id, name__startswith=base).count()
    return base if not taken else with_suffix(base, f" · {taken + 1}", limits.ENCOUNTER_NAME)


def _characters_in_play(campaign_id: int) -> list[int]:
    return list(Character.objects.filter(campaign_id=campaign_id, state=Character.State.ACTIVE)
                .order_by("name", "id").values_list("pk", flat=True))


@transaction.atomic
def fight_from_setup(*, setup: NpcSetup, by, name: str = "", characters: bool = True) -> Encounter:
    """Start a new fight with the set-up's NPCs (hidden ones hidden), and with every character in
    play unless ``characters`` is off."""
    change_set(campaign=setup.campaign_id, by=by)
    encounter = encounter_create(campaign=setup.campaign, by=by, gm_notes=setup.gm_notes,
                                 name=_next_name(setup.campaign_id, (name or "").strip() or setup.name))
    if characters:
        for character_id in _characters_in_play(setup.campaign_id):
            combatant_add(encounter=encounter, by=by, character_id=character_id)
    for npc in setup.npcs:
        combatant_add(encounter=encounter, by=by, npc=dict(npc))
    return encounter


@transaction.atomic
def fight_again(*, encounter: Encounter, by) -> Encounter:
    """Start the same fight afresh: the same characters (those still in play), the same NPCs
    unhurt, the same settings; the old fight and its log stay as they were."""
    change_set(campaign=encounter.campaign_id, by=by)
    in_play = set(_characters_in_play(encounter.campaign_id))
    again = encounter_create(campaign=encounter.campaign, by=by, name=_next_name(encounter.campaign_id, encounter.name),
                             gm_notes=encounter.gm_notes, initiative_stat=encounter.initiative_stat,
                             round_seconds=encounter.round_seconds)
    for combatant in encounter.combatants.order_by("position", "id"):
        if combatant.character_id is None:
            combatant_add(encounter=again, by=by, npc=_stat_block(combatant))
        elif combatant.character_id in in_play:
            combatant_add(encounter=again, by=by, character_id=combatant.character_id)
    return again


