"""The characters app's domain errors."""

from zenergate_site.errors import ConflictError, DomainError


class CharacterError(DomainError):
    """Bad input for a sheet (HTTP 400)."""


class CharacterConflict(ConflictError):
    """A sheet change the character's state forbids (HTTP 409)."""
