"""Access to a character: one helper for every page and endpoint.

Members of the character's campaign read it; its owner and the campaign's GMs write it; other
players and viewers get 403 on writes; outsiders and anonymous users get 404. What a write
may change in the character's current state is the services' business (409).
"""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import OuterRef, Subquery
from django.http import Http404
from django.utils.translation import gettext as _

from campaign.models import Membership, PageVersion

from .models import Character, SystemSheet


class _Rights:
    """What a role and ownership allow: shared by the full access and the narrow standing."""

    role: str
    is_owner: bool

    @property
    def is_gm(self) -> bool:
        return self.role == Membership.Role.GM

    @property
    def can_write(self) -> bool:
        return self.is_gm or self.is_owner


@dataclass(frozen=True)
class CharacterAccess(_Rights):
    character: Character
    role: str
    is_owner: bool


@dataclass(frozen=True)
class CharacterStanding(_Rights):
    """Who the viewer is to a character, without loading it: what a cached page needs to know."""

    character_id: int
    campaign_id: int
    state: str
    role: str
    is_owner: bool
    page_version: int  # the campaign's page-cache version, read in the same query


def _viewer_role(user):
    return Subquery(Membership.objects.filter(campaign_id=OuterRef("campaign_id"), user=user).values("role")[:1])


def _decide(user, role: str | None, owner_id: int, write: bool) -> bool:
    """Apply the access rules to a looked-up role; return whether the viewer owns the character."""
    if role is None:
        raise Http404(_("No such character."))
    is_owner = owner_id == user.pk
    if write and not (is_owner or role == Membership.Role.GM):
        raise PermissionDenied(_("Only the character's player and the GM may change this sheet."))
    return is_owner


def _pk(user, character_id) -> int:
    if user is None or not user.is_authenticated:
        raise Http404(_("No such character."))
    try:
        pk = int(character_id)
    except (TypeError, ValueError, OverflowError):
        raise Http404(_("No such character.")) from None
    if not 0 < pk < 2**63:
        raise Http404(_("No such character."))
    return pk


_STANDING_SQL = (
    f"SELECT c.campaign_id, c.owner_id, c.state, m.role, v.version FROM {Character._meta.db_table} c "
    f"LEFT JOIN {Membership._meta.db_table} m ON m.campaign_id = c.campaign_id AND m.user_id = %s "
    f"LEFT JOIN {PageVersion._meta.db_table} v ON v.campaign_id = c.campaign_id WHERE c.id = %s"
)


def character_standing(*, user, character_id, write: bool = False) -> CharacterStanding:
    """The same decision as ``access_character`` from one narrow query (no sheet loaded)."""
    pk = _pk(user, character_id)
    # Asked before every cached read, so one statement written out: building it with the ORM
    # (two subqueries) cost more than running it.
    with connection.cursor() as cursor:
        cursor.execute(_STANDING_SQL, [user.pk, pk])
        row = cursor.fetchone()
    if row is None:
        raise Http404(_("No such character."))
    campaign_id, owner_id, state, role, version = row
    is_owner = _decide(user, role, owner_id, write)
    return CharacterStanding(character_id=pk, campaign_id=campaign_id, state=state, role=role, is_owner=is_owner,
                             page_version=version or 0)


def _owned(model, *, user, row_id, write: bool):
    """A row a player owns in a campaign, with the viewer's role, and whether they own it."""
    pk = _pk(user, row_id)
    # One query: the row, its campaign and owner, and the viewer's role in that campaign.
    row = model.objects.select_related("campaign", "owner").annotate(viewer_role=_viewer_role(user)).filter(pk=pk).first()
    if row is None:
        raise Http404(_("No such character."))
    return row, _decide(user, row.viewer_role, row.owner_id, write)


def access_character(*, user, character_id, write: bool = False) -> CharacterAccess:
    """Return the character with the user's standing towards it, or raise Http404 / PermissionDenied."""
    character, is_owner = _owned(Character, user=user, row_id=character_id, write=write)
    return CharacterAccess(character=character, role=character.viewer_role, is_owner=is_owner)


@dataclass(frozen=True)
class SystemSheetAccess(_Rights):
    sheet: SystemSheet
    role: str
    is_owner: bool


def access_system_sheet(*, user, sheet_id, write: bool = False) -> SystemSheetAccess:
    """A sheet of another rule set, under the same rules as a character: members read, its
    player and the GM write, everyone else 404 (outsiders) or 403 (members who may not write)."""
    sheet, is_owner = _owned(SystemSheet, user=user, row_id=sheet_id, write=write)
    return SystemSheetAccess(sheet=sheet, role=sheet.viewer_role, is_owner=is_owner)
