"""For tests: arrange rows directly, as a write of its own, without a service.

A test that sets up a state no service reaches in one step (a job half done, a balance the
database must refuse) still writes through a change set, so the guard that refuses writes
outside one keeps watching every service the test calls afterwards::

    with arranged(campaign):
        Job.objects.create(campaign=campaign, ...)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction

from .changes import ChangeSet, change_set


@contextmanager
def arranged(campaign=None) -> Iterator[ChangeSet]:
    """A transaction with a change set open for ``campaign`` (a Campaign, an id, or None)."""
    with transaction.atomic():
        yield change_set(campaign=campaign)
