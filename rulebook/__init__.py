"""The Zener Gate rules as pure Python.

Nothing in this package imports Django or the project's apps: the apps call the rulebook,
never the reverse. Every function that rolls dice takes an ``rng: random.Random`` so tests
can pass ``random.Random(seed)`` or a scripted roller.
"""


class RulesError(ValueError):
    """A request the rules do not allow, with a message a player can act on."""
