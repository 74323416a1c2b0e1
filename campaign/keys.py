"""Data keys: the names of what a write changes and of what a page part shows.

A key names a piece of the game the way a player would point at it: ``character:12`` (the whole
sheet), ``character:12/karma`` (its Karma ledger), ``campaign:3/pools`` (the MacGuffin pools),
``encounter:9`` (a fight), ``session:4/notes``. Keys are hierarchical at the ``/``: a part that
shows ``character:12`` is refreshed by a change to ``character:12/karma``, and a part that shows
only ``character:12/karma`` by a change to the whole ``character:12``.

Each app says once, next to its models, which keys a row of each model belongs to
(``register``); the change set asks for the keys of every row a write saves, deletes or
declares (campaign.changes), so what a write changed is derived from the data, never listed per
view. A key function may say who may learn of the change (``Seen``): a private roll changes
``campaign:3/rolls`` for the GM alone, so the players' stream never hears of it. A key names
things at the granularity every member may see (a fight, not its hidden NPC), so learning that a
key changed gives nothing away.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .audience import EVERYONE, Seen

#: Key functions by model: ``function(row, campaign_id) -> iterable of key or (key, Seen)``, where
#: ``campaign_id`` is the campaign of the write (for rows that do not name theirs).
REGISTRY: dict[type, Callable[[object], Iterable]] = {}


def register(model: type, function: Callable[..., Iterable] | None = None):
    """Say which keys a row of ``model`` belongs to (usable as a decorator). A function that takes
    a third argument is also told which fields the write changed (None: any of them), for rows
    whose fields different parts show."""
    def add(function):
        REGISTRY[model] = function
        return function
    return add(function) if function is not None else add


def keyed(model: type) -> bool:
    return _function(model) is not None


def _function(model: type):
    for klass in model.__mro__:
        if klass in REGISTRY:
            return REGISTRY[klass]
    history = getattr(model, "instance_type", None)  # simple_history's copy of a model
    if history is not None and model is not history:
        return REGISTRY.get(("history", history))
    return None


def register_history(model: type, function: Callable[[object], Iterable]) -> None:
    """Keys of the history rows of ``model`` (simple_history's historical model)."""
    REGISTRY[("history", model)] = function


def of(row, campaign_id: int | None, fields=None) -> list[tuple[str, Seen]]:
    """The keys ``row`` belongs to, each with who may learn of a change to it."""
    function = _function(type(row))
    if function is None:
        raise LookupError(f"{type(row)._meta.label} has no data keys: register them in its app's keys.py")
    found = []
    told = function.__code__.co_argcount >= 3 if hasattr(function, "__code__") else False
    for item in (function(row, campaign_id, frozenset(fields) if fields else None) if told
                 else function(row, campaign_id)):
        if item is None:
            continue
        key, seen = (item, EVERYONE) if isinstance(item, str) else item
        found.append((key, seen))
    return found


def covers(shown: str, changed: str) -> bool:
    """Whether a change to ``changed`` changes what a part showing ``shown`` shows."""
    return shown == changed or changed.startswith(shown + "/") or shown.startswith(changed + "/")


def any_covered(shown: Iterable[str], changed: Iterable[str]) -> bool:
    changed = list(changed)
    return any(covers(s, c) for s in shown for c in changed)


def parse(raw: str) -> list[str]:
    """Keys written in a template or sent by a page: space-separated, well formed only."""
    return [key for key in raw.split() if well_formed(key)]


def well_formed(key: str) -> bool:
    head, _, rest = key.partition("/")
    kind, _, ident = head.partition(":")
    return (0 < len(key) <= 120 and kind.isidentifier() and ident.isdigit()
            and all(part.replace("-", "_").isidentifier() or part.isdigit() for part in rest.split("/") if rest))


# --- The keys of the table itself ---------------------------------------------------------------
def campaign(campaign_id: int, part: str) -> str:
    """A key of a whole campaign's list or setting: ``campaign:3/pools``."""
    return f"campaign:{int(campaign_id)}/{part}"
