"""The campaign's economy: the Karma ledger (``ledger.karma_post``, the one way Karma moves),
spends and awards, adventures and payouts, MacGuffin pools, Complications. It sits above
characters: it owns their ledger and acts on their sheets; a character's approval opens the
ledger through ``characters.signals.character_approved``."""
