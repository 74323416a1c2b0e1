"""Access to a character: one helper for every page and endpoint.

Members of the character's campaign read it; its owner and the campaign's GMs write it; other
players and viewers get 403 on writes; outsiders and anonymous users get 404. What a write
may change in the character's current state is the services' business (409).
"""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Subquery
from django.http import Http404

from campaign.models import Membership

from .models import Character


@dataclass(frozen=True)
class CharacterAccess:
    character: Character
    role: str
    is_owner: bool

    @property
    def is_gm(self) -> bool:
        return self.role == Membership.Role.GM

    @property
    def can_write(self) -> bool:
        return self.is_gm or self.is_owner


def access_character(*, user, character_id, write: bool = False) -> CharacterAccess:
    """Return the character with the user's standing towards it, or raise Http404 / PermissionDenied."""
    if user is None or not user.is_authenticated:
        raise Http404("No such character.")
    # One query: the character, its campaign and owner, and the viewer's role in that campaign.
    viewer_role = Membership.objects.filter(campaign_id=OuterRef("campaign_id"), user=user).values("role")[:1]
    try:
        character = (Character.objects.select_related("campaign", "owner").annotate(viewer_role=Subquery(viewer_role))
                     .get(pk=int(character_id)))
    except (Character.DoesNotExist, TypeError, ValueError, OverflowError):
        raise Http404("No such character.") from None
    role = character.viewer_role
    if role is None:
        raise Http404("No such character.")
    access = CharacterAccess(character=character, role=role, is_owner=character.owner_id == user.pk)
    if write and not access.can_write:
        raise PermissionDenied("Only the character's player and the GM may change this sheet.")
    return access
