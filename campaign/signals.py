"""Signals the table sends to the layers above it, which it must not import."""

from django.dispatch import Signal

#: A user joined a campaign (by invitation), inside the joining write: ``campaign``, ``user``,
#: ``membership`` and ``changes`` (its change set, for the receivers' own writes).
member_joined = Signal()
