"""The campaign's economy: Karma spends and awards, adventures and payouts, MacGuffin pools,
Complications. It sits above characters and acts on them through the ledger primitive
(``characters.ledger.karma_post``)."""
