"""Checks an imported document passes before anything is written, each naming its path.

Values are checked against the model field they go into (type, length, choices, range), and
every row against its model's database constraints, evaluated here so that a bad row is named
rather than found by a failing INSERT; the campaign's rule set and rulings against the rule sets
this server rolls.
"""

from __future__ import annotations

import math
from datetime import datetime
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from rulebook.systems import SYSTEMS, ParamError
from zenergate_site.shapes import path_of

from .errors import TransferError

#: Problems reported at most: a document can be wrong everywhere, and the first ones say enough
#: (reading stops there, so a large broken document costs little).
MAX_PROBLEMS = 100
#: How deep a document may nest: far deeper than anything the export writes.
MAX_DEPTH = 64


class Problems:
    """The problems found so far, by their path in the document."""

    def __init__(self) -> None:
        self.found: dict[str, list[str]] = {}

    def add(self, path: str, message: str) -> None:
        messages = self.found.setdefault(path or "detail", [])
        if message not in messages:
            messages.append(message)
        if len(self.found) >= MAX_PROBLEMS:
            self.raise_any()

    def __bool__(self) -> bool:
        return bool(self.found)

    def raise_any(self) -> None:
        if self.found:
            raise TransferError(self.found)


def shown(key) -> str:
    """Return a key as a path can show it: short, and text."""
    text = str(key)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8") if not _is_text(text) else text
    return text if len(text) <= 60 else text[:57] + "…"


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "\x00" not in value


def scan(document, problems: Problems) -> None:
    """Refuse what no column can hold anywhere in the document: text that is not text (a lone
    surrogate, a NUL), numbers that are not numbers (NaN, infinity), nesting without end."""
    stack = [(document, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            problems.add(path, _("Nested more than %(n)s levels deep.") % {"n": MAX_DEPTH})
        elif isinstance(value, dict):
            for key, item in value.items():
                where = f"{path}.{shown(key)}" if path else shown(key)
                if not _is_text(key):
                    problems.add(where, _("Keys must be text without NUL characters or lone surrogates."))
                stack.append((item, where, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str) and not _is_text(value):
            problems.add(path, _("Text must not hold NUL characters or lone surrogates."))
        elif isinstance(value, float) and not math.isfinite(value):
            problems.add(path, _("Numbers must be finite."))


# --- One value into one column --------------------------------------------------------------
class BadValue(Exception):
    """The value is wrong: the message says why, and ``inside`` where in a JSON value (the path a
    shape names, zenergate_site.shapes: ``[1].damage_points``)."""

    def __init__(self, message: str, inside: str = "") -> None:
        super().__init__(message)
        self.inside = inside


def _integer(field, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadValue(_("Expected a whole number."))
    return value


def _text(field, value):
    if not isinstance(value, str):
        raise BadValue(_("Expected text."))
    return value


def _boolean(field, value):
    if not isinstance(value, bool):
        raise BadValue(_("Expected true or false."))
    return value


def _decimal(field, value):
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise BadValue(_("Expected a decimal number written as text, e.g. \"0.25\"."))
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        raise BadValue(_("Expected a decimal number written as text, e.g. \"0.25\".")) from None
    if not number.is_finite():
        raise BadValue(_("Numbers must be finite."))
    return number


def _moment(field, value):
    if not is_moment(value):
        raise BadValue(_("Expected a date and time with its time zone (ISO 8601)."))
    return parse_datetime(value)


def is_moment(value) -> bool:
    """Say whether ``value`` is a date and time in ISO 8601 with its time zone."""
    try:
        moment = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:  # well formed but impossible, e.g. February 30th
        return False
    return moment is not None and timezone.is_aware(moment)


def _json(field, value):
    default = field.get_default()
    if isinstance(default, dict | list) and not isinstance(value, type(default)):
        raise BadValue(_("Expected an object.") if isinstance(default, dict) else _("Expected a list."))
    return value


_KINDS = ((models.BooleanField, _boolean), (models.IntegerField, _integer), (models.DecimalField, _decimal),
          (models.DateTimeField, _moment), (models.CharField, _text), (models.TextField, _text),
          (models.JSONField, _json))


def reader_for(field: models.Field):
    """Return the function that checks a document's value for ``field``, or None for a column
    type the document does not know (test_inventory keeps that from happening)."""
    return next((check for kind, check in _KINDS if isinstance(field, kind)), None)


def column_value(field: models.Field, value):
    """Return ``value`` as ``field`` stores it, or raise BadValue with the reason.

    Blank text is taken as the services wrote it: a model's ``blank`` is a form rule, not a column's.
    """
    if value is None:
        if not field.null:
            raise BadValue(_("This field may not be null."))
        return None
    convert = reader_for(field)
    if convert is None:
        raise BadValue(_("Cannot import a %(type)s.") % {"type": type(field).__name__})
    value = convert(field, value)
    if field.choices and value not in field.empty_values and value not in {c for c, _ in field.flatchoices}:
        raise BadValue(_("%(value)r is not a valid choice.") % {"value": value})
    try:
        field.run_validators(value)
    except ValidationError as exc:
        raise BadValue(" ".join(exc.messages), path_of(exc)) from None
    return value


def default_for(field: models.Field):
    """Return the value a column takes when the document leaves it out; raise BadValue if it may not."""
    if field.has_default():
        return field.get_default()
    if field.null:
        return None
    if isinstance(field, models.DateTimeField):
        return timezone.now()
    raise BadValue(_("This field is required."))


# --- The campaign's rule set -----------------------------------------------------------------
def check_rule_set(campaign, path: str, problems: Problems) -> None:
    """Check the campaign's rule set and rulings are ones this server rolls; coerce the rulings.

    The columns take any text and any object; the roller does not (campaign.services).
    """
    rule_set = SYSTEMS.get(campaign.rule_set)
    if rule_set is None:
        problems.add(f"{path}.rule_set", _("Unknown rule set %(name)r: use %(keys)s.")
                     % {"name": shown(campaign.rule_set), "keys": ", ".join(SYSTEMS)})
        return
    if not isinstance(campaign.rulings, dict):
        return  # the column's own check named it
    known, cleaned = {param.name: param for param in rule_set.rulings}, {}
    for name, value in campaign.rulings.items():
        where = f"{path}.rulings.{shown(name)}"
        if name not in known:
            name_said = _(rule_set.name)  # the rulebook's name, marked there
            problems.add(where, _("%(rule_set)s has no such ruling; its rulings: %(known)s.")
                         % {"rule_set": name_said, "known": ", ".join(known)} if known
                         else _("%(rule_set)s has no such ruling.") % {"rule_set": name_said})
            continue
        try:
            cleaned[name] = known[name].coerce(value)
        except ParamError as exc:
            problems.add(where, str(exc))
    campaign.rulings = cleaned


# --- The database's constraints, row by row --------------------------------------------------
class _Unknown(Exception):
    """A lookup this evaluator does not know: the database evaluates the constraint instead."""


_COMPARE = {"exact": lambda a, b: a == b, "gte": lambda a, b: a >= b, "lte": lambda a, b: a <= b,
            "gt": lambda a, b: a > b, "lt": lambda a, b: a < b, "in": lambda a, b: a in b}


def _value(instance, name: str):
    return getattr(instance, instance._meta.get_field(name).attname)


def holds(condition, instance) -> bool | None:
    """Evaluate a constraint's condition on an unsaved row as SQL would: None is "unknown"."""
    if isinstance(condition, Q):
        results = [holds(child, instance) for child in condition.children]
        if condition.connector == Q.AND:
            result = False if False in results else None if None in results else True
        else:
            result = True if True in results else None if None in results else False
        return (not result) if condition.negated and result is not None else result
    lookup, expected = condition
    name, _sep, operator = lookup.partition("__")
    operator = operator or "exact"
    value = _value(instance, name)
    if operator == "isnull":
        return (value is None) == expected
    if isinstance(expected, F):
        expected = _value(instance, expected.name)
    if operator not in _COMPARE or (operator != "in" and not isinstance(expected, int | float | str | Decimal
                                                                       | datetime | type(None))):
        raise _Unknown(lookup)
    if value is None or expected is None:
        return None
    return _COMPARE[operator](value, expected)


def _first_field(condition) -> str | None:
    for child in condition.children:
        if isinstance(child, Q):
            found = _first_field(child)
            if found:
                return found
        else:
            return child[0].split("__")[0]
    return None


def check_constraints(rows: list[tuple[models.Model, str]], problems: Problems, names=lambda name: name) -> None:
    """Check ``rows`` (instance, path) of one model against its check and unique constraints.

    Unique constraints are checked among the rows: everything imported belongs to a new campaign,
    so it can only clash with itself. ``names`` gives the document's name of a field.
    """
    if not rows:
        return
    meta = rows[0][0]._meta
    for constraint in meta.constraints:
        if isinstance(constraint, models.CheckConstraint):
            field = _first_field(constraint.condition)
            for instance, path in rows:
                try:
                    broken = holds(constraint.condition, instance) is False
                except _Unknown:
                    try:
                        constraint.validate(type(instance), instance)
                        broken = False
                    except ValidationError:
                        broken = True
                if broken:
                    problems.add(f"{path}.{names(field)}" if field else path, constraint.get_violation_error_message())
        elif isinstance(constraint, models.UniqueConstraint) and constraint.fields:
            _unique(rows, tuple(constraint.fields), constraint.condition, problems, names)
    for field in meta.concrete_fields:
        if field.unique and not field.primary_key:
            _unique(rows, (field.name,), None, problems, names)


def _unique(rows, fields: tuple[str, ...], condition, problems: Problems, names) -> None:
    seen: dict[tuple, str] = {}
    for instance, path in rows:
        values = tuple(_value(instance, name) for name in fields)
        if None in values or (condition is not None and holds(condition, instance) is not True):
            continue
        if values in seen:
            problems.add(f"{path}.{names(fields[-1])}", _("The same as %(path)s: it must be unique there.")
                         % {"path": seen[values]})
        else:
            seen[values] = path
