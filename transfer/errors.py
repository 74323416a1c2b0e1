"""The transfer app's domain errors."""

from django.utils.translation import gettext as _

from zenergate_site.errors import ConflictError, DomainError


class TransferError(DomainError):
    """A document the import refuses (HTTP 400): every problem found, by its path in the document."""

    def __init__(self, errors: dict[str, list[str]]):
        first = next(iter(errors.items()), ("detail", [_("The document cannot be imported.")]))
        super().__init__(first[1][0], field=first[0])
        self.errors = errors

    def as_errors(self) -> dict[str, list[str]]:
        return self.errors


class TransferConflict(ConflictError):
    """The campaign cannot be exported as it is now (HTTP 409)."""
