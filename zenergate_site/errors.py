"""Domain errors shared by the apps, and their HTTP meaning.

Each app raises its own subclass (``CampaignError``, ``CharacterError``, …) from services;
``api_errors.exception_handler`` turns them into responses in one place.
"""

from django.utils.translation import gettext as _


class DomainError(Exception):
    """Bad input the rules or the app refuse: HTTP 400."""

    status_code = 400
    #: Seconds a client should wait before it sends the request again (a Retry-After header).
    retry_after: int | None = None

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
    retry_after = 5  # a restarting broker is back within seconds


class Busy(ConflictError):
    """A row the write needs stayed locked by another write past ``DB_LOCK_TIMEOUT_MS``: HTTP 409."""

    def __init__(self):
        super().__init__(_("Someone else is changing this right now; nothing was changed. Try again in a moment."))


def is_lock_timeout(exc: BaseException) -> bool:
    """Whether an error is PostgreSQL's lock_not_available (the lock timeout ran out)."""
    return getattr(exc.__cause__, "sqlstate", None) == "55P03" or getattr(exc, "sqlstate", None) == "55P03"


#: PostgreSQL's answers that say "not now" rather than "wrong": too many connections, out of
#: resources, shutting down or starting up, and the connection exceptions.
UNAVAILABLE_SQLSTATES = frozenset({"53300", "53400", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08004",
                                   "08006"})


def is_database_unavailable(exc: BaseException | None) -> bool:
    """Whether an error is the database not answering (no connection to be had, too many clients,
    a restart), as opposed to a query it refused: the request may be tried again in a moment."""
    from django.db.utils import OperationalError

    if not isinstance(exc, OperationalError) or is_lock_timeout(exc):
        return False
    cause = exc.__cause__
    state = getattr(cause, "sqlstate", None)
    if state in UNAVAILABLE_SQLSTATES:
        return True
    # A failed connect (refused, "too many clients" before the session starts) carries no sqlstate.
    return state is None and cause is not None
