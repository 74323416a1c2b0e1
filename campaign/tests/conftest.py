from economy.tests.conftest import elsewhere, make_character  # noqa: F401  (fixtures)
