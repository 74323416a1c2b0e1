"""Words for people, in their language, without the rulebook knowing how translation is done.

The rulebook is pure Python and must not import Django; yet its explanations and refusals are
read by players. It marks them with the usual names (``gettext``, ``ngettext`` and, for
constants built at import, ``gettext_noop``), which the catalogue's extraction finds, and calls
whatever translation the site installs at start-up (``install``). Until then, and in a plain
Python shell, the words come back as written.

A constant marked with ``gettext_noop`` is translated where it is shown, by passing it to
``gettext`` there.
"""

from __future__ import annotations

from collections.abc import Callable


def _as_written(message: str) -> str:
    return message


def _plural_as_written(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


_translate: Callable[[str], str] = _as_written
_translate_plural: Callable[[str, str, int], str] = _plural_as_written


def install(gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> None:
    """Translate the rulebook's words with these from now on (the site calls it once, at start-up)."""
    global _translate, _translate_plural
    _translate, _translate_plural = gettext, ngettext


def gettext(message: str) -> str:
    return _translate(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    return _translate_plural(singular, plural, count)


def gettext_noop(message: str) -> str:
    """Marks a constant for the catalogue; it is translated where shown."""
    return message


_ = gettext
