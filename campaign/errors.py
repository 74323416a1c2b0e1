"""The campaign app's domain errors."""

from zenergate_site.errors import ConflictError, DomainError


class CampaignError(DomainError):
    """Bad input for a campaign write (HTTP 400)."""


class CampaignConflict(ConflictError):
    """A campaign write the current state forbids (HTTP 409)."""
