"""Export a campaign as one document, and import a document as a new campaign (see ``document``)."""

from __future__ import annotations

from django.conf import settings
from django.db import DataError, IntegrityError, connection, transaction
from django.utils import timezone

from campaign.changes import change_set
from campaign.models import Campaign
from campaign.services import invitations_by_name
from zenergate_site import limits
from zenergate_site.text import with_suffix

from .document import IMPORT_ACTION
from .errors import TransferError
from .importing import Importer
from .selectors import campaign_document


def document_limit() -> int | None:
    """The largest document an import takes, in bytes: Django's limit on a request body."""
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def export_campaign(campaign: Campaign) -> dict:
    """Return the whole campaign as a ``zenergate-campaign`` document.

    Raises:
        TransferConflict: a downtime is still queued or running; its rows are half written.
    """
    if connection.in_atomic_block:  # the caller's transaction decides what is seen
        return campaign_document(campaign)
    # One snapshot for every table read: a write that commits meanwhile is all in or all out.
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        return campaign_document(campaign)


@transaction.atomic
def import_campaign(document: dict, user) -> Campaign:
    """Create a new campaign from ``document`` with ``user`` as its GM, all or nothing.

    A document acts for no one else: its members are listed in the returned campaign's
    ``skipped_members`` for the GM to add, the characters they owned go to ``user``, and the
    entries, rolls and history they wrote keep no link to an account here. The copy is named
    "<name> (imported <date>)" until the GM renames it. Ledger balances are rebuilt from the
    entries.

    Raises:
        TransferError: the document is not one this server can import; its ``errors`` name
            every problem by its path in the document. Nothing is written.
    """
    importer = Importer(document, user)
    campaign = importer.read()
    campaign.name = with_suffix(campaign.name, f" (imported {timezone.localdate():%Y-%m-%d})", limits.CAMPAIGN_NAME)
    try:
        with transaction.atomic():
            importer.save()
            with connection.cursor() as cursor:  # foreign keys are checked at commit unless asked now
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    except (IntegrityError, DataError) as exc:  # the checks should have named it: say what the database said
        cause = getattr(exc.__cause__, "diag", None)
        rule = getattr(cause, "constraint_name", None) or str(exc).splitlines()[0]
        raise TransferError({"detail": [f"The document breaks a rule of the database ({rule})."]}) from None
    skipped = importer.skipped_members
    invitations_by_name(campaign=campaign, by=user, invited=importer.invited)  # each may join, or not
    change_set(campaign=campaign, by=user).audit(IMPORT_ACTION, f"{user} imported the campaign from a document"
        + (f"; invited by name: {', '.join(skipped)}" if skipped else ""), data={"exported_at": document.get("exported_at"), "skipped_members": skipped})
    campaign.skipped_members = skipped
    return campaign
