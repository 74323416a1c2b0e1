"""The combat app's domain errors."""

from zenergate_site.errors import ConflictError, DomainError


class CombatError(DomainError):
    """Bad input for the tracker (HTTP 400)."""


class CombatConflict(ConflictError):
    """An action the encounter's state forbids now (HTTP 409)."""
