"""An imported sheet goes back to its player when they join the campaign.

An import never makes anyone else an owner (transfer.importing): a sheet whose player has no
account in the copy is held by the importer, with the player's name in ``imported_owner``. When
a player or GM of that name joins by invitation, their sheets become theirs again, in the same
write as the joining.
"""

from django.dispatch import receiver

from campaign.models import Membership
from campaign.signals import member_joined
from rulebook.words import said_plural

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
        # The names typed by people, as one value (the line is cut at 300 characters anyway).
        names = ", ".join(sheet.name for sheet in sheets)[:300]
        changes.audit("character.handed_back",
                      said_plural("%(names)s is %(user)s's again", "%(names)s are %(user)s's again", len(sheets),
                                  names=names, user=str(user)),
                      data={"characters": [sheet.pk for sheet in sheets], "user": user.pk})
    return sheets
