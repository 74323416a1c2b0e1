"""The one write path: every write to a campaign goes through a change set.

A service opens the change set of the campaign it writes to as the first step of its
transaction, then declares and changes rows, says what it did and whom to tell::

    @transaction.atomic
    def karma_spend(*, character, by, ...):
        changes = change_set(campaign=character.campaign_id, by=by)
        character = changes.lock(Character.objects.filter(pk=character.pk))[0]
        ...                                              # apply the change
        changes.audit("karma.reroll", said("%(name)s: −1 Karma (reroll)", name=character.name), data={...})
        changes.publish(RollMade(roll=roll.pk))       # only where page logic needs the kind

A change set belongs to the transaction (or savepoint) it was opened in: a service called by
another joins the caller's change set, and the change set ends with its block. Its audit lines
are written at once and its typed events as the write ends, in the write's transaction (so a
rollback takes them back); the move of the campaign's page-cache version is registered for the moment the whole
transaction commits.

What the write changed on screens is derived, not listed: every row it saves or deletes (and
every row it ``watch``es or names with ``changed``) is mapped to its data keys
(campaign.keys), and just before the write commits the change set publishes them as one
``KeysChanged`` event per audience. Open pages refresh exactly the parts that show those keys. Writers therefore cannot forget a step, and a model of a campaign saved
with no change set open is refused (``connect_guard``), in tests and in production.

Locks wait at most ``DB_LOCK_TIMEOUT_MS`` (settings, set on every database connection); a lock
not granted by then answers 409 "busy, try again" with nothing changed (``Busy``, raised where
the API and the pages turn errors into answers, zenergate_site.errors).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from django.db import connection, transaction
from django.db.models.signals import post_delete, post_save, pre_delete, pre_save
from django.utils import timezone
from django.utils.translation import gettext as _

from rulebook.words import Said

from . import keys as data_keys
from . import pagecache
from .audience import EVERYONE, Audience, Seen
from .errors import CampaignConflict
from .events import KeysChanged, LiveEvent
from .models import Account, Campaign, Event, LogEntry, OneTimePassword, PageVersion
from .wakeup import CHANNEL as STREAM_CHANNEL

#: Apps whose models belong to a campaign: saving one needs an open change set.
CAMPAIGN_APPS = ("campaign", "characters", "economy", "combat", "downtime", "rolls", "transfer")
#: Rows the change set writes itself, and a user's one-time password, which belongs to the
#: account, not to a campaign (a password change on the account page touches no campaign), and
#: what the site keeps about an account.
OWN_MODELS = (Event, LogEntry, PageVersion, OneTimePassword, Account)
# Keeps the advisory-lock key space of the event stream apart from any other use of such locks.
_LOCK_SPACE = 0x5A47


class NoChangeSet(RuntimeError):
    """A model of a campaign was saved outside a change set (a bug in the writer)."""


class ChangeSet:
    """What one write changes in one campaign; see the module docstring."""

    def __init__(self, campaign_id: int | None, by, savepoints: tuple[str, ...]) -> None:
        self.campaign_id = campaign_id
        self.by = by if getattr(by, "is_authenticated", False) else None
        self.savepoints = savepoints
        self.campaigns: set[int] = set() if campaign_id is None else {campaign_id}
        self.stream_locked: set[int] = set()
        self.before: dict[tuple[str, int], dict] = {}
        self.watched: dict[tuple[str, int], tuple[object, tuple[str, ...]]] = {}
        # The data keys this write changed, each with who may learn of it, and its typed events,
        # until they are written just before it commits (``flush``).
        self.dirty: dict[str, set[Seen]] = {}
        self.events: list[LiveEvent] = []
        self.deleted = False

    def is_open(self) -> bool:
        """Open while the block it was opened in is (its savepoints are still the current ones)."""
        return tuple(connection.savepoint_ids[:len(self.savepoints)]) == self.savepoints

    def bind(self, campaign: Campaign) -> None:
        """Name the campaign of a change set opened before it existed (creating a campaign)."""
        self.campaign_id = campaign.pk
        self.campaigns.add(campaign.pk)

    def _campaign(self) -> int:
        if self.campaign_id is None:
            raise RuntimeError("bind the change set to its campaign first")
        return self.campaign_id

    # --- Declaring the rows -----------------------------------------------------------------------
    @staticmethod
    def lock(rows) -> list:
        """Lock ``rows`` (a queryset) for this write, in id order, and return them fresh."""
        return list(rows.select_for_update(no_key=True).order_by("pk"))

    def touches(self, campaign_id: int) -> None:
        """Declare another campaign this write changes (its pages are read afresh after it)."""
        self.campaigns.add(campaign_id)

    def watch(self, obj, names: tuple[str, ...]) -> None:
        """Remember ``names`` of ``obj`` as they were before this write (the first look wins)."""
        key = (obj._meta.label, obj.pk)
        if key not in self.before:
            self.before[key] = {name: getattr(obj, name) for name in names}
        self.watched[key] = (obj, names)
        self.changed(obj)

    def changed(self, *rows, fields=None) -> None:
        """Name rows this write changes without saving them one by one (``update()``, ``bulk_create``);
        ``fields``: the ones it changed, where it knows (None: any)."""
        for row in rows:
            for key, seen in data_keys.of(row, self.campaign_id, fields):
                self.dirty.setdefault(key, set()).add(seen)

    def _keys_events(self) -> list[KeysChanged]:
        by_audience: dict[Seen, list[str]] = {}
        for key, seens in self.dirty.items():
            # The widest audience wins: a key everyone sees changed is everyone's news.
            audiences = [EVERYONE] if any(s.audience == Audience.EVERYONE for s in seens) else sorted(
                seens, key=lambda s: (s.audience, s.user_id or 0))
            for seen in audiences:
                by_audience.setdefault(seen, []).append(key)
        return [KeysChanged(keys=sorted(found), seen=seen) for seen, found in by_audience.items()]

    def flush(self) -> None:
        """Write what this write tells the stream, in one statement, just before it commits: the
        keys it changed (one event per audience), then the typed events it published."""
        if self.campaign_id is None or self.deleted or not (self.dirty or self.events):
            return
        events = [*self._keys_events(), *self.events]
        self.dirty, self.events = {}, []
        if self.campaign_id not in self.stream_locked:
            _lock_stream(self.campaign_id)
            self.stream_locked.add(self.campaign_id)
        Event.objects.bulk_create(Event(campaign_id=self.campaign_id, kind=event.kind, data=event.data(),
                                        **event.seen.columns()) for event in events)

    def record(self) -> dict:
        """Before and after of every watched row: ``{"Label:pk": {"before": {...}, "after": {...}}}``."""
        return {f"{label}:{pk}": {"before": self.before[(label, pk)],
                                  "after": {name: getattr(obj, name) for name in names}}
                for (label, pk), (obj, names) in self.watched.items()}

    # --- Telling ------------------------------------------------------------------------------------
    def audit(self, action: str, summary: Said, *, data: dict | None = None, seen: Seen = EVERYONE) -> LogEntry:
        """Write the audit line of this write: who did what, and why, and who may read it.

        The line is a Said (rulebook.words): kept as its message and values, it reads in each
        reader's language; its English is kept beside it as the line's plain text."""
        if not isinstance(summary, Said):
            raise TypeError("an audit line is a Said, so that each reader reads it in their language")
        entry = LogEntry.objects.create(campaign_id=self._campaign(), actor=self.by, action=action[:64],
                                        summary=summary.english()[:300], said=summary.as_data(), data=data or {},
                                        **seen.columns())
        self.changed(entry)
        return entry

    def publish(self, *events: LiveEvent) -> None:
        """Append typed events to the live stream (written as the write ends; readers see them
        once it commits)."""
        self._campaign()
        if any(not isinstance(event, LiveEvent) for event in events):
            raise TypeError("publish LiveEvent subclasses")
        self.events.extend(events)


def _lock_stream(campaign_id: int) -> None:
    """Queue behind any earlier writer of the campaign's stream until it commits, and wake its readers.

    Ids come from a sequence when the rows are inserted, but transactions commit in their own
    order: a reader could see id 12 before a slower transaction commits id 11 and then never
    ask for 11 again. The transaction-scoped advisory lock makes publishers in one campaign
    queue up until the earlier one commits, so ids become visible in order.
    """
    with connection.cursor() as cursor:
        # And wake the campaign's open streams when (only if) this transaction commits
        # (campaign/wakeup.py); PostgreSQL sends one notification however many events follow.
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s), pg_notify(%s, %s)",
                       [_LOCK_SPACE, campaign_id, STREAM_CHANNEL, str(campaign_id)])


# --- Opening -----------------------------------------------------------------------------------------
def _open_change_sets() -> list[ChangeSet]:
    sets = (getattr(func, "change_set", None) for _, func, *_ in connection.run_on_commit)
    return [cs for cs in sets if cs is not None and cs.is_open()]


def current() -> ChangeSet | None:
    """The innermost change set open on this connection, if any."""
    sets = _open_change_sets()
    return sets[-1] if sets else None


def change_set(*, campaign: Campaign | int | None, by=None, archived_ok: bool = False) -> ChangeSet:
    """Open the change set of this write to ``campaign``, or join the one already open.

    Call it first thing inside the write's transaction (``campaign=None`` while creating the
    campaign, then ``bind``). An archived campaign is read-only: opening a change set for it is
    refused (409), but for the writes that restore or delete it (``archived_ok``).
    """
    if not connection.in_atomic_block:
        raise RuntimeError("open a change set inside the write's transaction")
    campaign_id = campaign.pk if isinstance(campaign, Campaign) else campaign
    for changes in _open_change_sets():
        if changes.campaign_id == campaign_id:
            if changes.by is None and getattr(by, "is_authenticated", False):
                changes.by = by
            return changes
    if campaign_id is not None and not archived_ok and Campaign.objects.filter(
            pk=campaign_id, archived_at__isnull=False).exists():
        raise CampaignConflict(_("This campaign is archived, so it is read-only: its GM restores it from the "
                                 "campaigns page to change anything."), field="campaign")
    changes = ChangeSet(campaign_id, by, tuple(connection.savepoint_ids))
    committed = partial(_committed, changes)
    committed.change_set = changes
    transaction.on_commit(committed)
    return changes


# --- Undo -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Recorded:
    """One row as a write left it: the fields it changed, before and after."""

    model: type
    pk: int
    before: dict
    after: dict


def undo(recorded: list[Recorded], *, refuse: Callable[[list[str]], Exception],
         name: Callable[[object], str] = str) -> list:
    """Put every recorded row back as it was before its write: the one undo of the app.

    All or nothing: each row is locked (model by model, in id order) and compared with what the
    write left; if any changed since, ``refuse(names)`` is raised and nothing is restored. Rows
    deleted since are passed over. Runs in the caller's change set; returns the rows found.
    """
    if current() is None:
        raise RuntimeError("undo runs inside the undoing write's change set")
    models: dict[type, list[Recorded]] = {}
    for record in recorded:
        models.setdefault(record.model, []).append(record)
    found, changed = [], []
    for model, records in models.items():
        rows = {row.pk: row for row in model.objects.select_for_update(no_key=True)
                .filter(pk__in=[r.pk for r in records]).order_by("pk")}
        for record in records:
            row = rows.get(record.pk)
            if row is None:
                continue
            found.append((row, record))
            if {field: getattr(row, field) for field in record.after} != record.after:
                changed.append(name(row))
    if changed:
        raise refuse(changed)
    stamp = timezone.now()
    changes = current()
    for row, record in found:
        stamped = {"updated_at": stamp} if any(f.name == "updated_at" for f in row._meta.concrete_fields) else {}
        type(row).objects.filter(pk=row.pk).update(**record.before, **stamped)
        for field, value in record.before.items():
            setattr(row, field, value)
        changes.changed(row)
    return [row for row, _ in found]


def before_commit(connection_, sid: str | None) -> None:
    """Every change set ending with this commit (``sid`` None) or savepoint publishes its keys."""
    for _, func, *_ in list(connection_.run_on_commit):
        changes = getattr(func, "change_set", None)
        if changes is not None and (changes.dirty or changes.events) and (sid is None or sid in changes.savepoints):
            changes.flush()


def _committed(changes: ChangeSet) -> None:
    for campaign_id in sorted(changes.campaigns):
        pagecache.move_version(campaign_id)


# --- The guard --------------------------------------------------------------------------------------
def _guard(sender, instance, **kwargs) -> None:
    if kwargs.get("raw") or sender in OWN_MODELS or (connection.in_atomic_block and _open_change_sets()):
        return
    raise NoChangeSet(f"{sender._meta.label} was written outside a change set: open one with "
                      "campaign.changes.change_set() in the service that writes it.")


def _changed(sender, instance, **kwargs) -> None:
    if kwargs.get("raw"):
        return
    changes = current()
    if changes is None:
        return
    if sender is Campaign and "origin" in kwargs and instance.pk == changes.campaign_id:
        changes.deleted = True  # the campaign goes, and its stream with it: nobody is told
    changes.changed(instance, fields=kwargs.get("update_fields"))


def campaign_models() -> list[type]:
    """The models whose rows belong to a campaign (and so to a change set)."""
    from django.apps import apps

    return [model for model in apps.get_models(include_auto_created=False)
            if model._meta.app_label in CAMPAIGN_APPS and model not in OWN_MODELS]


def connect_guard() -> None:
    """Refuse writes to the campaign's models outside a change set, and collect the data keys of
    every row written inside one (called from CampaignConfig.ready)."""
    from zenergate_site.db.base import BEFORE_COMMIT

    if before_commit not in BEFORE_COMMIT:
        BEFORE_COMMIT.append(before_commit)
    for model in campaign_models():
        uid = f"changes:{model._meta.label}"
        pre_save.connect(_guard, sender=model, dispatch_uid=uid + ":save", weak=False)
        pre_delete.connect(_guard, sender=model, dispatch_uid=uid + ":delete", weak=False)
        post_save.connect(_changed, sender=model, dispatch_uid=uid + ":saved", weak=False)
        post_delete.connect(_changed, sender=model, dispatch_uid=uid + ":deleted", weak=False)
