"""Access to an encounter: one helper for every page and endpoint.

Members of the campaign read it (players see what the GM has revealed); the GM runs it; a
player may act only with their own character, on its turn. Outsiders and anonymous users get 404.
"""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from campaign.permissions import CampaignAccess, access_to

from .errors import CombatError
from .models import Combatant, Encounter, NpcSetup, SystemFight
from .services import hidden


@dataclass(frozen=True)
class EncounterAccess:
    encounter: Encounter
    campaign_access: CampaignAccess
    user: object

    @property
    def is_gm(self) -> bool:
        return self.campaign_access.is_gm

    def combatant(self, pk: int, *, field: str = "combatant") -> Combatant:
        """A combatant of this encounter as this viewer may name it. For a player an NPC the GM
        has not revealed does not exist: the same error, word for word, as an id never used, so
        probing ids finds nothing (combat.attacks answers the same for the target)."""
        found = Combatant.objects.select_related("character").filter(encounter=self.encounter, pk=pk).first()
        if found is None or (not self.is_gm and hidden(found)):
            raise CombatError(_("Combatant %(id)s is not in this encounter.") % {"id": pk}, field=field)
        return found

    def may_act_with(self, combatant: Combatant) -> bool:
        """The GM acts for anyone; a player only with their own character."""
        return self.is_gm or (combatant.character is not None and combatant.character.owner_id == self.user.pk)


def _found(model, pk, missing: str):
    """The row of a campaign's ``model`` with its campaign, or Http404 (an id that is no number too)."""
    try:
        row = model.objects.select_related("campaign").filter(pk=int(pk)).first()
    except (TypeError, ValueError, OverflowError):
        row = None
    if row is None:
        raise Http404(missing)
    return row


def access_encounter(*, user, encounter_id, write: bool = False) -> EncounterAccess:
    """Return the encounter with the user's standing, or raise Http404 / PermissionDenied.

    ``write=True`` asks for the GM's rights (set-up, initiative, turns, undo).
    """
    encounter = _found(Encounter, encounter_id, _("No such encounter."))
    access = access_to(campaign=encounter.campaign, user=user)
    if write and not access.is_gm:
        raise PermissionDenied(_("Only the campaign's GM runs the encounter."))
    return EncounterAccess(encounter, access, user)


def access_npc_setup(*, user, setup_id) -> tuple[NpcSetup, CampaignAccess]:
    """Return a set-up of the GM's NPC library with the GM's standing, or raise Http404: for
    everyone but the GM a set-up (which names hidden NPCs) does not exist, word for word as an id
    never used, so probing ids tells a player nothing."""
    setup = _found(NpcSetup, setup_id, _("No such set-up."))
    try:
        access = access_to(campaign=setup.campaign, user=user)
    except Http404:
        access = None
    if access is None or not access.is_gm:
        raise Http404(_("No such set-up."))
    return setup, access


def access_system_fight(*, user, fight_id, act: bool = False) -> tuple[SystemFight, CampaignAccess]:
    """Return a fight of another rule set with the user's standing. Members read; ``act=True``
    lets the GM and the players through (what a player may do is the service's to say), and
    stops viewers with PermissionDenied."""
    fight = _found(SystemFight, fight_id, _("No such fight."))
    access = access_to(campaign=fight.campaign, user=user)
    if act and not (access.is_gm or access.is_player):
        raise PermissionDenied(_("Viewers watch the fight."))
    return fight, access
