"""Models: filled in as the issues for this app land."""
