"""Signals the table sends to the layers above it, which it must not import."""

from django.dispatch import Signal

#: A user joined a campaign (by invitation), inside the joining write: ``campaign``, ``user``,
#: ``membership`` and ``changes`` (its change set, for the receivers' own writes).
member_joined = Signal()

#: An archived campaign is about to be deleted (``campaign``), inside the deleting transaction.
#: The ledger's rows protect what they name (a Karma entry its character, an undo its event), so
#: the cascade cannot start until the apps above have cleared them, in two steps: first every
#: app lets go of the rows the second step deletes (``campaign_unlinking``: a transition's
#: delay spend, a treatment's therapy, an undo's event), then each deletes its own protected
#: rows (``campaign_clearing``: the Karma ledger, a sheet's pool ledger).
campaign_unlinking = Signal()
campaign_clearing = Signal()
