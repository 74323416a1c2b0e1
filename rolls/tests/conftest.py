"""Roll-feed tests reuse the campaign's fixtures: personas and approved characters."""

from economy.tests.conftest import make_character  # noqa: F401  (a fixture)
