"""Access to a campaign: one helper, used by every page and endpoint.

Anyone outside a campaign gets 404 for all of it, so its existence is not revealed; members
who may read but not write get 403.
"""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404
from django.utils.translation import gettext as _

from .models import Campaign, Membership, PageVersion


@dataclass(frozen=True)
class CampaignAccess:
    campaign: Campaign
    role: str

    @property
    def is_gm(self) -> bool:
        return self.role == Membership.Role.GM

    @property
    def is_player(self) -> bool:
        return self.role == Membership.Role.PLAYER


def access_campaign(*, user, campaign_id, write: bool = False) -> CampaignAccess:
    """Return the campaign and the user's role in it, or raise.

    ``write=True`` asks for GM rights (settings, members, awards). Non-members and anonymous
    users get ``Http404``; members without the right get ``PermissionDenied``.
    """
    membership = _membership(Membership.objects.select_related("campaign"), user, campaign_id, write)
    return CampaignAccess(campaign=membership.campaign, role=membership.role)


def access_to(*, campaign: Campaign, user, write: bool = False) -> CampaignAccess:
    """The same decision as ``access_campaign`` for a campaign already loaded (one narrow query)."""
    if user is None or not user.is_authenticated:
        raise Http404("No such campaign.")
    role = Membership.objects.filter(campaign_id=campaign.pk, user=user).values_list("role", flat=True).first()
    if role is None:
        raise Http404("No such campaign.")
    if write and role != Membership.Role.GM:
        raise PermissionDenied(_("Only the campaign's GM may do that."))
    return CampaignAccess(campaign=campaign, role=role)


@dataclass(frozen=True)
class CampaignStanding:
    """The viewer's role and the campaign's page-cache version: what a cached page needs."""

    role: str
    page_version: int


def campaign_standing(*, user, campaign_id, write: bool = False) -> CampaignStanding:
    """The same decision as ``access_campaign`` from one narrow query (no campaign loaded)."""
    if user is None or not user.is_authenticated:
        raise Http404("No such campaign.")
    try:
        campaign_id = int(campaign_id)
    except (TypeError, ValueError, OverflowError):
        raise Http404("No such campaign.") from None
    row = None
    if 0 < campaign_id < 2**63:
        # Asked before every cached read: one statement written out, cheaper than building it.
        with connection.cursor() as cursor:
            cursor.execute(_STANDING_SQL, [campaign_id, user.pk])
            row = cursor.fetchone()
    if row is None:
        raise Http404("No such campaign.")
    role, version = row
    if write and role != Membership.Role.GM:
        raise PermissionDenied(_("Only the campaign's GM may do that."))
    return CampaignStanding(role=role, page_version=version or 0)


_STANDING_SQL = (
    f"SELECT m.role, v.version FROM {Membership._meta.db_table} m "
    f"LEFT JOIN {PageVersion._meta.db_table} v ON v.campaign_id = m.campaign_id "
    f"WHERE m.campaign_id = %s AND m.user_id = %s"
)


def _membership(memberships, user, campaign_id, write: bool) -> Membership:
    if user is None or not user.is_authenticated:
        raise Http404("No such campaign.")
    try:
        membership = memberships.get(campaign_id=int(campaign_id), user=user)
    except (Membership.DoesNotExist, TypeError, ValueError, OverflowError):
        raise Http404("No such campaign.") from None
    if write and membership.role != Membership.Role.GM:
        raise PermissionDenied(_("Only the campaign's GM may do that."))
    return membership


#: The dice of a player's own attack: the check and the damage. The target's dice (shock, save,
#: out cold) and the hit location's stay with the app or the GM unless the campaign says "all".
OWN_ATTACK_SLOTS = frozenset({"attack", "damage"})


def typed_dice_check(campaign: Campaign | int, *, is_gm: bool, dice, own_slots=None) -> None:
    """Refuse dice a player typed that the campaign's ``typed_dice`` setting keeps from them.

    ``dice`` is a list of faces (one check) or ``{slot: faces}``; ``own_slots`` names the slots
    that are the player's own (an attack's ``OWN_ATTACK_SLOTS``); without it, every die is.
    The GM may type any die. ``campaign`` may be an id: it is read only when a player typed dice.
    """
    from .errors import CampaignError

    if is_gm or not dice:
        return
    setting = campaign.typed_dice if isinstance(campaign, Campaign) else \
        Campaign.objects.values_list("typed_dice", flat=True).get(pk=campaign)
    if setting == Campaign.TypedDice.ALL:
        return
    if setting == Campaign.TypedDice.NONE:
        raise CampaignError(_("In this campaign the app rolls the players' dice: leave the dice empty."), field="dice")
    if own_slots is not None and isinstance(dice, dict):
        others = sorted(slot for slot, faces in dice.items() if faces and slot not in own_slots)
        if others:
            raise CampaignError(_("You type your own %(own)s dice only; the %(others)s dice are the GM's or the app's "
                                  "in this campaign.") % {"own": " and ".join(sorted(own_slots)),
                                                          "others": ", ".join(others)}, field="dice")
