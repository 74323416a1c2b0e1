"""What the economy's pages share: errors beside their fields, the characters in play."""

from __future__ import annotations

from characters.models import Character
from zenergate_site.errors import DomainError

Active = Character.State.ACTIVE


def attach_error(form, exc: DomainError, aliases: dict | None = None, shown: set | None = None) -> int:
    """Put a service's message next to its field (or above the form); return the HTTP status.

    ``shown`` names the fields on screen when some are hidden (the spend form shows only the
    chosen kind's): a message for a hidden field goes above the form instead.
    """
    field = (aliases or {}).get(exc.field, exc.field)
    visible = field in form.fields and field != "idempotency_key" and (shown is None or field in shown)
    form.add_error(field if visible else None, exc.message)
    return exc.status_code


def active_characters(campaign):
    return list(campaign.characters.filter(state=Active).select_related("owner").order_by("name", "id"))
