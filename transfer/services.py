"""Export a campaign as one document, and import a document as a new campaign (see ``document``)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models.functions import Lower
from django.db import DataError, IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from campaign.changes import change_set
from campaign.errors import CampaignConflict, CampaignError
from campaign.models import Campaign, LogEntry, Membership
from campaign.services import ensure_may_make_campaigns, invitations_by_name
from rulebook.words import said
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

    A document acts for no one else: nobody it names is added or invited, whatever role it gives
    them; ``import_report`` says who is on this server, and ``import_invite`` invites, as players,
    those the importer confirms. The characters they owned go to ``user`` until they join, and
    the entries, rolls and history they wrote keep no link to an account here. The copy is named
    "<name> (imported <date>)" until the GM renames it. Ledger balances are rebuilt from the
    entries.

    Raises:
        TransferError: the document is not one this server can import; its ``errors`` name
            every problem by its path in the document. Nothing is written.
    """
    ensure_may_make_campaigns(user)
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
        raise TransferError({"detail": [_("The document breaks a rule of the database (%(rule)s).") % {"rule": rule}]}
                            ) from None
    named = importer.named
    # The record of whom the document named: what the importer may confirm invitations from.
    # The usernames as one value, cut where the log line is cut (a document may name many).
    change_set(campaign=campaign, by=user).audit(
        IMPORT_ACTION, said("%(by)s imported the campaign from a document; it names %(names)s: none invited until "
                            "the GM confirms", by=str(user), names=", ".join(named)[:300]) if named else
        said("%(by)s imported the campaign from a document", by=str(user)),
        data={"exported_at": document.get("exported_at"), "named": named,
              "held": [list(pair) for pair in importer.held]})
    return campaign


def _on_server(usernames) -> dict[str, str]:
    """Each name with an account here (matched without regard to case, as hand-back does) → the
    account's own spelling."""
    lowered = {name.lower() for name in usernames}
    found = get_user_model().objects.annotate(low=Lower("username")).filter(low__in=lowered)
    accounts = {low: username for low, username in found.values_list("low", "username")}
    return {name: accounts[name.lower()] for name in usernames if name.lower() in accounts}


#: What happened to each person an import names, as its page (translated there) and the API say it.
MEMBER, INVITED, NOT_INVITED, NOT_HERE = (gettext_noop("joined"), gettext_noop("invited as player"),
                                          gettext_noop("on this server, not invited"), gettext_noop("not on this server"))


def import_report(campaign: Campaign) -> dict | None:
    """What an imported campaign's document named and what became of each: the people (joined,
    invited as player, on this server but not invited, not on this server) and the characters held
    for them. None for a campaign that was not imported."""
    entry = (LogEntry.objects.filter(campaign=campaign, action=IMPORT_ACTION).order_by("created_at", "id").first())
    if entry is None:
        return None
    named = [name for name in entry.data.get("named", []) if isinstance(name, str)]
    accounts = _on_server(named)
    members = {name.lower() for name in campaign.memberships.values_list("user__username", flat=True)}
    invited = {name.lower() for name in campaign.invitations.filter(revoked_at__isnull=True)
               .exclude(username="").values_list("username", flat=True)}
    people = []
    for name in named:
        outcome = (MEMBER if name.lower() in members else INVITED if name.lower() in invited
                   else NOT_INVITED if name in accounts else NOT_HERE)
        people.append({"username": name, "on_server": name in accounts, "outcome": outcome})
    held = dict(campaign.characters.exclude(imported_owner="").values_list("name", "imported_owner"))
    characters = [{"name": name, "owner": owner, "held_for": held.get(name, "")}
                  for name, owner in entry.data.get("held", []) if isinstance(name, str)]
    return {"people": people, "characters": characters}


@transaction.atomic
def import_invite(*, campaign: Campaign, by, usernames: list[str]) -> dict:
    """Invite, as players, people the imported document named and this server knows, as the GM
    confirmed them; the GM promotes whom they choose once they have joined."""
    report = import_report(campaign)
    if report is None:
        raise CampaignConflict(_("This campaign was not imported: invite people from its settings."), field="usernames")
    outcomes = {p["username"]: p["outcome"] for p in report["people"]}
    unknown = [name for name in usernames if name not in outcomes]
    if unknown:
        raise CampaignError(_("Not named in the imported document: %(names)s.") % {"names": ", ".join(unknown)},
                            field="usernames")
    absent = [name for name in usernames if outcomes[name] == NOT_HERE]
    if absent:
        raise CampaignError(_("Not on this server: %(names)s; they cannot be invited by name.")
                            % {"names": ", ".join(absent)}, field="usernames")
    chosen = [name for name in dict.fromkeys(usernames) if outcomes[name] == NOT_INVITED]
    if chosen:
        invitations_by_name(campaign=campaign, by=by, invited=[(name, Membership.Role.PLAYER) for name in chosen])
        change_set(campaign=campaign, by=by).audit(
            "campaign.import_invite", said("%(by)s invited as players, from the imported document: %(names)s",
                                           by=str(by), names=", ".join(chosen)[:300]),
            data={"usernames": chosen})
    return import_report(campaign)
