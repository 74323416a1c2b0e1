"""The four smaller rule sets from the source documents: check resolution and exact odds."""
