"""The campaign dashboard: the one page that composes every part of the campaign (the table,
the party, the economy, downtime, combat). It sits above them all; nothing imports it."""
