"""Counting requests per subject in a window (the cache, Redis): joining through a link per
address, password-reset mails per account and per address. The log-in guard
(zenergate_site/login_guard.py) keeps its own lockouts.

If the cache cannot be reached, requests go on uncounted and a warning is logged: a broken cache
must not keep everybody out (the same choice as the log-in guard's).
"""

from __future__ import annotations

import hashlib
import logging

from django.core.cache import cache

logger = logging.getLogger(__name__)


def spend(scope: str, subject: str, *, limit: int, window: int) -> bool:
    """Count one more for ``subject`` in ``scope``; False once more than ``limit`` were counted in
    the last ``window`` seconds (from the first one). A limit of 0 counts nothing."""
    if limit <= 0:
        return True
    key = f"rate:{scope}:{hashlib.sha256(str(subject).encode('utf-8', 'surrogatepass')).hexdigest()[:32]}"
    try:
        cache.add(key, 0, timeout=window)  # creates it with its expiry, unless it exists
        count = cache.incr(key)
    except Exception:  # Redis down, a timeout: let it through, and say so
        logger.warning("Rate limit %s skipped: the cache is unavailable", scope, exc_info=True)
        return True
    return count <= limit
