"""What the characters layer tells the layers above it, without importing them."""

from django.dispatch import Signal

#: Sent inside the approval's transaction with ``character`` and ``by``: a receiver that raises
#: undoes the approval. The economy opens the character's Karma ledger on it.
character_approved = Signal()
