"""References inside JSON columns: where a column's value names other rows, and how to rewrite them.

Some JSON columns hold ids (a combat event's before/after, a job's plans, a log entry's data).
A spec describes where: ``Ref("character")`` is a value naming a character, ``Each`` applies a
spec to every item of a list, ``Keys`` says an object's keys name rows, ``Values`` that its values do, ``Fields`` applies specs
to some fields of an object and leaves the others as they are, ``Drop`` removes a field. The same
spec turns ids into document keys on export and keys back into ids on import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.utils.translation import gettext as _


@dataclass(frozen=True)
class Ref:
    kind: str


@dataclass(frozen=True)
class Each:
    item: object


@dataclass(frozen=True)
class Keys:
    kind: str
    values: object = None


@dataclass(frozen=True)
class Values:
    """An object whose keys are names and whose values name rows (or are null)."""

    kind: str


@dataclass(frozen=True)
class Fields:
    fields: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Drop:
    """A field holding an id the document does not carry (a sheet line's id, a history row's)."""


#: ``resolve(kind, value, path)``: the value rewritten, or None when it names nothing.
Resolve = Callable[[str, object, str], object]
#: ``complain(path, message)``: records a problem (on import); None on export, which is lenient.
Complain = Callable[[str, str], None] | None


def translate(value, spec, resolve: Resolve, path: str, complain: Complain = None):
    """Return ``value`` with every reference ``spec`` describes rewritten by ``resolve``."""
    if spec is None or value is None:
        return value
    if isinstance(spec, Ref):
        return resolve(spec.kind, value, path)
    if isinstance(spec, Each):
        if not isinstance(value, list):
            return _wrong(value, _("Expected a list."), path, complain)
        return [translate(item, spec.item, resolve, f"{path}[{i}]", complain) for i, item in enumerate(value)]
    if not isinstance(value, dict):
        return _wrong(value, _("Expected an object."), path, complain)
    if isinstance(spec, Values):
        return {key: None if item is None else resolve(spec.kind, item, f"{path}.{key}")
                for key, item in value.items()}
    if isinstance(spec, Keys):
        out = {}
        for key, item in value.items():
            where = f"{path}.{key}"
            named = resolve(spec.kind, key, where)
            if named is not None:
                out[str(named)] = translate(item, spec.values, resolve, where, complain)
        return out
    out = dict(value)
    for name, inner in spec.fields.items():
        if name not in out:
            continue
        if isinstance(inner, Drop):
            del out[name]
        else:
            out[name] = translate(out[name], inner, resolve, f"{path}.{name}", complain)
    return out


def _wrong(value, problem: str, path: str, complain: Complain):
    if complain is not None:
        complain(path, problem)
    return value
