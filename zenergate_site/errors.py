"""Domain errors shared by the apps, and their HTTP meaning.

Each app raises its own subclass (``CampaignError``, ``CharacterError``, …) from services;
``api_errors.exception_handler`` turns them into responses in one place.
"""


class DomainError(Exception):
    """Bad input the rules or the app refuse: HTTP 400."""

    status_code = 400

    def __init__(self, message: str, *, field: str = "detail"):
        super().__init__(message)
        self.message = message
        self.field = field

    def as_errors(self) -> dict[str, list[str]]:
        return {self.field: [self.message]}


class ConflictError(DomainError):
    """The request is well formed but the current state forbids it: HTTP 409."""

    status_code = 409


class UnavailableError(DomainError):
    """A service the request needs (the job broker) cannot be reached: HTTP 503, nothing changed."""

    status_code = 503


class Busy(ConflictError):
    """A row the write needs stayed locked by another write past ``DB_LOCK_TIMEOUT_MS``: HTTP 409."""

    def __init__(self):
        super().__init__("Someone else is changing this right now; nothing was changed. Try again in a moment.")


def is_lock_timeout(exc: BaseException) -> bool:
    """Whether an error is PostgreSQL's lock_not_available (the lock timeout ran out)."""
    return getattr(exc.__cause__, "sqlstate", None) == "55P03" or getattr(exc, "sqlstate", None) == "55P03"
