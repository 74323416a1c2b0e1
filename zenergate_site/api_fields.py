"""Strict API input fields shared by every app: JSON types, not what merely looks like them.

DRF's own fields accept "3" for 3 and 1 for true; a campaign tool that moves Karma should not
guess what a client meant, so these refuse anything but the JSON type itself (HTTP 400).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from .text import validate_name

#: Largest id a client may name (PostgreSQL bigint).
MAX_ID = 2**63 - 1


class WholeNumberField(serializers.IntegerField):
    """A JSON integer: not a string of digits, a float or a boolean."""

    default_error_messages = {"invalid": _("A whole number is required.")}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class NumberField(serializers.FloatField):
    """A JSON number (whole or not): not a string of digits or a boolean."""

    default_error_messages = {"invalid": _("A number is required.")}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            self.fail("invalid")
        return super().to_internal_value(data)


class FlagField(serializers.BooleanField):
    """A JSON boolean: ``true`` or ``false``, nothing that merely looks like one."""

    default_error_messages = {"invalid": _("Must be true or false.")}

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class TextField(serializers.CharField):
    """A JSON string (DRF's CharField turns numbers into text; NUL and lone surrogates it refuses)."""

    default_error_messages = {"invalid": _("Text is required.")}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class NameField(TextField):
    """A name someone types: text that shows something and carries no text-direction controls."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.validators.append(validate_name)


class StrictInput(serializers.Serializer):
    """An input serializer that names fields it does not know instead of dropping them."""

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in data if key not in self.fields)
            if unknown:
                raise serializers.ValidationError({key: [gettext("Unknown field.")] for key in unknown})
        return super().to_internal_value(data)


class NoBodyIn(StrictInput):
    """An action that takes no fields (submit, approve, undo, archive): anything sent is a mistake
    worth naming."""
