"""An imported sheet goes back to its player when they join the campaign.

An import never makes anyone else an owner (transfer.importing): a sheet whose player has no
account in the copy is held by the importer, with the player's name in ``imported_owner``. When
a player or GM of that name joins by invitation, their sheets become theirs again, in the same
write as the joining.
"""

from django.dispatch import receiver

from campaign.models import Membership
from campaign.signals import member_joined

from .models import Character


@receiver(member_joined, dispatch_uid="characters.handback")
def hand_back(sender, *, campaign, user, membership, changes, **kwargs) -> list[Character]:
    if membership.role == Membership.Role.VIEWER:  # a viewer plays no sheet
        return []
    sheets = list(Character.objects.select_for_update(no_key=True)
                  .filter(campaign=campaign, imported_owner__iexact=user.username).order_by("pk"))
    for sheet in sheets:
        sheet.owner, sheet.imported_owner = user, ""
        sheet.save(update_fields=["owner", "imported_owner", "updated_at"])
    if sheets:
        names = ", ".join(sheet.name for sheet in sheets)
        changes.audit("character.handed_back", f"{names} {'is' if len(sheets) == 1 else 'are'} {user}'s again",
                      data={"characters": [sheet.pk for sheet in sheets], "user": user.pk})
    return sheets
