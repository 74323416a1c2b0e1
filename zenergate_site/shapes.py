"""The shape of a JSON value a column holds, defined once.

A JSON column (an NPC's stats and weapons, the recovery clock in ``wounds_detail``) takes any JSON
the database will store; the game does not. Each such column names its shape here, next to the
limits of zenergate_site.limits and the rulebook's ranges, and carries it as a model validator
(``validators=[NPC_WEAPONS]``): the services, the API's serializers and the campaign importer all
reach that one validator, so a value valid in one path is valid in every path. A broken value is
refused with the path of the first bad part (``[1].damage_points``), which the importer appends to
the document's own path.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext as _

# A text column's cap as a CHECK: ``Q(description__length__lte=5000)``.
models.CharField.register_lookup(Length)
models.TextField.register_lookup(Length)


class Wrong(Exception):
    """A value that does not fit: where inside it, and why."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path, self.message = path, message


class Shape:
    def check(self, value, path: str) -> None:
        raise NotImplementedError


class Whole(Shape):
    """A whole number from ``low`` to ``high``."""

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def check(self, value, path: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise Wrong(path, _("Expected a whole number."))
        if not self.low <= value <= self.high:
            raise Wrong(path, _("Must be from %(low)s to %(high)s.") % {"low": self.low, "high": self.high})

    def validators(self) -> list:
        """The bounds as a number column's validators."""
        return [MinValueValidator(self.low), MaxValueValidator(self.high)]

    def constraint(self, field: str, name: str) -> models.CheckConstraint:
        """The bounds as the column's CHECK (a null passes: "unknown" is not a breach)."""
        return models.CheckConstraint(condition=Q(**{f"{field}__gte": self.low}) & Q(**{f"{field}__lte": self.high}),
                                      name=name)


class Text(Shape):
    def __init__(self, max_length: int) -> None:
        self.max_length = max_length

    def check(self, value, path: str) -> None:
        if not isinstance(value, str):
            raise Wrong(path, _("Expected text."))
        if len(value) > self.max_length:
            raise Wrong(path, _("At most %(n)s characters.") % {"n": self.max_length})


class Flag(Shape):
    def check(self, value, path: str) -> None:
        if not isinstance(value, bool):
            raise Wrong(path, _("Expected true or false."))


class Choice(Shape):
    def __init__(self, values: Iterable) -> None:
        self.values = tuple(values)

    def check(self, value, path: str) -> None:
        if isinstance(value, bool) or value not in self.values:
            raise Wrong(path, _("Must be one of: %(values)s.") % {"values": ", ".join(map(str, self.values))})


class Nullable(Shape):
    def __init__(self, shape: Shape) -> None:
        self.shape = shape

    def check(self, value, path: str) -> None:
        if value is not None:
            self.shape.check(value, path)


class Record(Shape):
    """An object with named fields: ``required`` ones must be there; no others may be."""

    def __init__(self, fields: dict[str, Shape], required: Iterable[str] = ()) -> None:
        self.fields, self.required = fields, tuple(required)

    def check(self, value, path: str) -> None:
        if not isinstance(value, dict):
            raise Wrong(path, _("Expected an object."))
        for name in value:
            if name not in self.fields:
                raise Wrong(f"{path}.{str(name)[:40]}", _("Unknown field."))
        for name in self.required:
            if name not in value:
                raise Wrong(f"{path}.{name}", _("This field is required."))
        for name, item in value.items():
            self.fields[name].check(item, f"{path}.{name}")


class ListOf(Shape):
    def __init__(self, item: Shape, max_items: int) -> None:
        self.item, self.max_items = item, max_items

    def check(self, value, path: str) -> None:
        if not isinstance(value, list):
            raise Wrong(path, _("Expected a list."))
        if len(value) > self.max_items:
            raise Wrong(path, _("At most %(n)s entries.") % {"n": self.max_items})
        for index, item in enumerate(value):
            self.item.check(item, f"{path}[{index}]")


class MapOf(Shape):
    """An object whose keys are one of ``keys`` and whose values all have one shape."""

    def __init__(self, keys: Iterable[str], values: Shape) -> None:
        self.keys, self.values = tuple(keys), values

    def check(self, value, path: str) -> None:
        if not isinstance(value, dict):
            raise Wrong(path, _("Expected an object."))
        for key, item in value.items():
            if key not in self.keys:
                raise Wrong(f"{path}.{str(key)[:40]}", _("Not one of: %(keys)s.") % {"keys": ", ".join(self.keys)})
            self.values.check(item, f"{path}.{key}")


class Custom(Shape):
    """A shape only code can say (a rulebook type reads it): ``read`` raises on a bad value."""

    def __init__(self, read, what: str) -> None:
        self.read, self.what = read, what

    def check(self, value, path: str) -> None:
        try:
            self.read(value)
        except Wrong:
            raise
        except (TypeError, ValueError, KeyError, AttributeError, ArithmeticError) as exc:
            raise Wrong(path, _("Not %(what)s: %(why)s.") % {"what": self.what,
                                                             "why": str(exc)[:200] or type(exc).__name__}) from None


#: Every named shape, for the validators that migrations store by name.
SHAPES: dict[str, Shape] = {}


@deconstructible(path="zenergate_site.shapes.JsonShape")
class JsonShape:
    """A model validator that checks a JSON value against a named shape."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, value) -> None:
        try:
            SHAPES[self.name].check(value, "")
        except Wrong as wrong:
            raise ValidationError(wrong.message, code="shape", params={"path": wrong.path}) from None

    def __eq__(self, other) -> bool:
        return isinstance(other, JsonShape) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


def define(name: str, shape: Shape) -> JsonShape:
    """Name a shape and return its model validator."""
    SHAPES[name] = shape
    return JsonShape(name)


def path_of(error: ValidationError) -> str:
    """Where inside the value a shape's error lies ("" when it is the whole value)."""
    params = getattr(error, "params", None) or {}
    if not params and getattr(error, "error_list", None):
        params = getattr(error.error_list[0], "params", None) or {}
    return params.get("path", "")


def capped(field: str, limit: int, name: str) -> models.CheckConstraint:
    """A text column's cap (zenergate_site.limits) as its CHECK constraint; the column carries the
    same cap as a validator (``MaxLengthValidator(limit)``), which forms, serializers and the
    importer reach."""
    return models.CheckConstraint(condition=Q(**{f"{field}__length__lte": limit}), name=name)


def _said(value) -> None:
    from rulebook.words import Said

    if value != {} and Said.from_data(value) is None:
        raise ValueError("a message with plain placeholders and the values that fill them")


#: A sentence told once and read in each reader's language (rulebook.words.Said), or {} for a
#: record kept before such sentences: its plain text is read then.
SAID = define("said", Custom(_said, "a told sentence"))
