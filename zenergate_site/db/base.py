"""PostgreSQL, with one addition: code can run just before a transaction commits.

A write's change set (campaign.changes) learns which data keys it changed as the write saves its
rows, and must publish them in the same transaction, after the last row. Django has no hook
"before commit", so the connection provides one: before a transaction commits, or a savepoint
is released, each function in ``BEFORE_COMMIT`` is called with the connection and the savepoint
(None for the transaction). A savepoint rolled back takes its writes with it, so nothing runs for
a write that did not happen. The table's layer registers its hook (campaign.changes); this
module, at the bottom, imports nothing of the apps.
"""

from collections.abc import Callable

from django.db.backends.postgresql import base

#: Called as ``hook(connection, savepoint_id_or_None)`` before each commit or savepoint release.
BEFORE_COMMIT: list[Callable] = []


class DatabaseWrapper(base.DatabaseWrapper):
    def commit(self):
        if self.connection is not None and not self.needs_rollback:
            for hook in BEFORE_COMMIT:
                hook(self, None)
        super().commit()

    def savepoint_commit(self, sid):
        if not self.needs_rollback:
            for hook in BEFORE_COMMIT:
                hook(self, sid)
        super().savepoint_commit(sid)
