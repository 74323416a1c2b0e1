"""Refuse log-ins for a while after too many failures, per account and per client address.

Every place that checks a password (the log-in page, the admin's, the token endpoint) first
claims an attempt with ``reserve``, and only then looks at the password; it reports the outcome
with ``record_failure``, ``record_success`` or ``release`` (no password was judged). The claim
is one atomic Redis increment per counter (the account's and the address's), so however many
guesses arrive at once, at most the limit of them get a password checked: the claim that would
pass the limit is refused and given back. A counter lives ``LOGIN_LOCKOUT_SECONDS`` from its
first claim; it holds the failures plus the attempts still being checked.

The failure that reaches the limit locks the account (or the address) for
``LOGIN_LOCKOUT_SECONDS``: until then every attempt is refused without looking at the password,
the right one included. A lock stores the moment it ends, so the refusal can say how long to wait.

If the cache cannot be reached, log-ins go on unguarded and a warning is logged: a broken
cache must not keep everybody out.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext, ngettext

logger = logging.getLogger(__name__)

PREFIX = "login-guard"
#: Seconds to wait when the limit's worth of attempts are being checked at this moment.
CROWDED_WAIT = 5
ACCOUNT = "account"
ADDRESS = "address"


@dataclass(frozen=True)
class Lockout:
    """A refusal: whose failures caused it (``account`` or ``address``) and when it ends.
    ``crowded``: no lock yet, but the limit's worth of attempts are being checked right now."""

    scope: str
    until: float
    crowded: bool = False

    @property
    def seconds(self) -> int:
        """Seconds left to wait (at least 1), for a Retry-After header."""
        return max(1, math.ceil(self.until - time.time()))

    @property
    def message(self) -> str:
        minutes = math.ceil(self.seconds / 60)
        if self.crowded:
            if self.scope == ACCOUNT:
                return gettext("Too many log-ins at once for this account. Try again in a few seconds.")
            return gettext("Too many log-ins at once from your network address. Try again in a few seconds.")
        if self.scope == ACCOUNT:
            return ngettext("Too many failed log-ins for this account. Try again in %(n)d minute.",
                            "Too many failed log-ins for this account. Try again in %(n)d minutes.", minutes) % {
                "n": minutes}
        return ngettext("Too many failed log-ins from your network address. Try again in %(n)d minute.",
                        "Too many failed log-ins from your network address. Try again in %(n)d minutes.", minutes) % {
            "n": minutes}


def client_address(request) -> str:
    """The client's address: REMOTE_ADDR, or the entry that the trusted proxies added to
    X-Forwarded-For (``LOGIN_TRUSTED_PROXIES`` of them append to it in front of the app)."""
    proxies = settings.LOGIN_TRUSTED_PROXIES
    if proxies > 0:
        hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
        if len(hops) >= proxies:
            return hops[-proxies]
    return request.META.get("REMOTE_ADDR") or "unknown"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _subjects(*, username: str, address: str) -> list[tuple[str, str, int]]:
    """(scope, cache-key suffix, limit) for the account and the address, where a limit is set."""
    subjects = []
    if username and settings.LOGIN_FAILURE_LIMIT > 0:
        # Case-insensitive, so "GM" and "gm" share one counter.
        subjects.append((ACCOUNT, f"{ACCOUNT}:{_digest(username.strip().casefold())}", settings.LOGIN_FAILURE_LIMIT))
    if address and settings.LOGIN_ADDRESS_FAILURE_LIMIT > 0:
        subjects.append((ADDRESS, f"{ADDRESS}:{_digest(address)}", settings.LOGIN_ADDRESS_FAILURE_LIMIT))
    return subjects


def _subjects_of(request, username: str) -> list[tuple[str, str, int]]:
    return _subjects(username=username, address=client_address(request))


def lock_key(subject: str) -> str:
    return f"{PREFIX}:lock:{subject}"


def failures_key(subject: str) -> str:
    return f"{PREFIX}:failures:{subject}"


def _fail_open(default=None):
    """Run a cache operation; if the cache fails, log it and let the log-in proceed unguarded."""
    def decorate(function):
        @functools.wraps(function)
        def guarded(*args, **kwargs):
            try:
                return function(*args, **kwargs)
            except Exception:  # any cache failure: Redis down, a timeout, a full disk
                logger.warning("Log-in guard skipped: the cache is unavailable, so log-ins are not "
                               "throttled", exc_info=True)
                return default
        return guarded
    return decorate


@_fail_open()
def lockout_for(request, username: str) -> Lockout | None:
    """The lockout in force for this username or this client, if any."""
    subjects = _subjects_of(request, username)
    locks = cache.get_many([lock_key(key) for _, key, _ in subjects])
    for scope, key, _ in subjects:
        until = locks.get(lock_key(key))
        if until is not None and until > time.time():
            return Lockout(scope, until)
    return None


def _count(key: str, window: int) -> int:
    """Add one to a counter that lives ``window`` seconds from its first increment."""
    for _ in range(3):
        cache.add(key, 0, timeout=window)  # creates it with its expiry, unless it exists
        try:
            return cache.incr(key)
        except ValueError:  # it expired between the two calls: start it again
            continue
    return 1


def _give_back(key: str) -> None:
    try:
        cache.decr(key)
    except ValueError:  # expired (or cleared by a success) meanwhile: nothing to give back
        pass


@_fail_open()
def reserve(request, username: str) -> Lockout | None:
    """Claim one attempt for this username and client before its password is checked.

    Returns the lockout that refuses it, if any; then nothing is claimed. Otherwise the caller
    checks the password and reports with ``record_failure``, ``record_success`` or ``release``.
    """
    lockout = lockout_for(request, username)
    if lockout is not None:
        return lockout
    window = settings.LOGIN_LOCKOUT_SECONDS
    claimed = []
    for scope, key, limit in _subjects_of(request, username):
        claimed.append(failures_key(key))
        if _count(failures_key(key), window) > limit:
            # The limit's worth of attempts are failures or being checked right now.
            for taken in claimed:
                _give_back(taken)
            return Lockout(scope, time.time() + CROWDED_WAIT, crowded=True)
    return None


@_fail_open()
def record_failure(request, username: str) -> Lockout | None:
    """A claimed attempt had a wrong password; return the lockout it started, if it reached a limit."""
    window = settings.LOGIN_LOCKOUT_SECONDS
    started = None
    subjects = _subjects_of(request, username)
    counts = cache.get_many([failures_key(key) for _, key, _ in subjects])
    for scope, key, limit in subjects:
        if counts.get(failures_key(key), 0) >= limit:
            until = time.time() + window
            cache.set(lock_key(key), until, timeout=window)
            # The count ends with the lock, so after the wait the full number of attempts is back;
            # kept until then, it still refuses claims made before the lock was seen.
            cache.touch(failures_key(key), window)
            logger.warning("Log-ins locked for %d s after %d failures", window, limit,
                           extra={"scope": scope, "client": client_address(request)})
            started = started or Lockout(scope, until)
    return started


@_fail_open()
def record_success(request, username: str) -> None:
    """A claimed attempt had the right password: forget the account's failures. The address
    only gets its claim back: one good account must not let a client reset its count while
    it tries others."""
    for _, key, _ in _subjects(username=username, address=""):
        cache.delete(failures_key(key))
    for _, key, _ in _subjects(username="", address=client_address(request)):
        _give_back(failures_key(key))


@_fail_open()
def release(request, username: str) -> None:
    """A claimed attempt judged no password (an inactive account, say): give the claim back."""
    for _, key, _ in _subjects_of(request, username):
        _give_back(failures_key(key))


def subject_keys(*, username: str = "", address: str = "") -> list[str]:
    """The key suffixes of an account and/or an address, for ``lock_key`` and ``failures_key``."""
    return [key for _, key, _ in _subjects(username=username, address=address)]


def unlock(*, username: str = "", address: str = "") -> None:
    """Lift the lock and forget the failures of an account and/or an address before the wait ends."""
    keys = subject_keys(username=username, address=address)
    cache.delete_many([lock_key(key) for key in keys] + [failures_key(key) for key in keys])


def unlock_all() -> None:
    """Lift every lock and forget every failure (an operator after an attack; tests)."""
    client = getattr(getattr(cache, "_cache", None), "get_client", None)
    if client is None:  # not Redis: nothing to scan, so the whole cache goes
        cache.clear()
        return
    redis = client(write=True)
    keys = list(redis.scan_iter(match=cache.make_key(f"{PREFIX}:*"), count=1000))
    if keys:
        redis.delete(*keys)

