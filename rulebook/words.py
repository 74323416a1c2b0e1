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

import re
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


# --- Text told once, read by many ------------------------------------------------------------------
class Said:
    """A sentence written once and read by many people in their own languages: a log line, a
    fight's event, a roll's label. It is kept as its English message and its values (names,
    numbers, and smaller Saids for words that are themselves translated), and written out in
    the reader's language when read (``told``), or in English, the language the record keeps
    as its plain text (``english``).

    The message is marked for the catalogue by the function that makes the Said (``said``,
    ``said_plural``: the extraction knows them as keywords), so a reader's language always has
    its words. A part list (``listed``) joins its parts, each told in turn.
    """

    __slots__ = ("message", "plural", "count", "values", "parts", "separator")

    def __init__(self, message: str = "", values: dict | None = None, /, *, plural: str | None = None,
                 count: int | None = None, parts: list | None = None, separator: str = ", ") -> None:
        values = values or {}
        for value in (*values.values(), *(parts or ())):
            if not isinstance(value, (Said, str, int, float)) or isinstance(value, bool):
                raise TypeError(f"a Said holds text, numbers and Saids, not {type(value).__name__}")
        self.message, self.plural, self.count = message, plural, count
        self.values, self.parts, self.separator = values, parts, separator

    # What a reader reads.
    def told(self) -> str:
        return self._written(gettext, ngettext)

    def english(self) -> str:
        return self._written(_as_written, _plural_as_written)

    __str__ = told

    def __repr__(self) -> str:
        return f"Said({self.english()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Said) and self.as_data() == other.as_data()

    def __hash__(self) -> int:
        return hash(self.english())

    def __add__(self, other: Said | str) -> Said:
        """One Said after another, as one line ("…: hit" + " at the chest")."""
        return listed([self, other], separator="")

    def __bool__(self) -> bool:
        return bool(self.message or any(self.parts or ()))

    def _written(self, one, many) -> str:
        def value(v):
            return v._written(one, many) if isinstance(v, Said) else v
        if self.parts is not None:
            return self.separator.join(str(value(part)) for part in self.parts)
        if self.plural is not None:
            text = many(self.message, self.plural, self.count)
        else:
            text = one(self.message)
        # Every message is a format (a literal percent sign is written "%%"), values or not.
        return text % {name: value(v) for name, v in self.values.items()}

    # How it is kept (JSON: short keys, for it is kept with every line).
    def as_data(self) -> dict:
        def value(v):
            return v.as_data() if isinstance(v, Said) else v
        if self.parts is not None:
            return {"l": [value(part) for part in self.parts], "s": self.separator}
        data: dict = {"m": self.message}
        if self.plural is not None:
            data.update(p=self.plural, n=self.count)
        if self.values:
            data["v"] = {name: value(v) for name, v in self.values.items()}
        return data

    @classmethod
    def from_data(cls, data: object) -> Said | None:
        """The Said kept as ``data``, or None for anything that is not one (an older record, or a
        hand-edited import), so that the reader falls back on the record's plain text."""
        try:
            return cls._read(data)
        except (TypeError, ValueError, KeyError, AttributeError):
            return None

    @classmethod
    def _read(cls, data, depth: int = 0) -> Said:
        # A kept Said may come from a file (an import): only plain placeholders, a bounded size
        # and depth, so that writing it out costs what a sentence costs ("%(a)999999999s" does not).
        if depth > _DEEPEST:
            raise ValueError("nested too deep")

        def value(v):
            if isinstance(v, dict):
                return cls._read(v, depth + 1)
            if isinstance(v, str) and len(v) > _LONGEST:
                raise ValueError("a value too long")
            if isinstance(v, (str, int, float)) and not isinstance(v, bool):
                return v
            raise ValueError(v)
        if not isinstance(data, dict):
            raise TypeError(data)
        if "l" in data:
            parts, separator = data["l"], data.get("s", ", ")
            if not isinstance(parts, list) or len(parts) > _MOST_PARTS or not isinstance(separator, str) \
                    or len(separator) > 8:
                raise ValueError("not a list of parts")
            return cls(parts=[value(part) for part in parts], separator=separator)
        message, plural = data["m"], data.get("p", "")
        for text in (message, plural):
            if not isinstance(text, str) or len(text) > _LONGEST or _FORMAT.sub("", text).count("%"):
                raise ValueError("not a message")
        if "p" in data and (not isinstance(data.get("n"), int) or isinstance(data["n"], bool)):
            raise ValueError("a plural without its count")
        if len(data.get("v") or {}) > _MOST_PARTS:
            raise ValueError("too many values")
        values = {str(name): value(v) for name, v in (data.get("v") or {}).items()}
        said_once = cls(message, values, plural=data.get("p"), count=data.get("n")) if "p" in data else cls(message, values)
        said_once.english()  # a message whose placeholders its values do not fill is no Said
        return said_once


#: What a kept Said may hold: placeholders "%(name)s" and "%(name)d", and "%%"; messages and
#: values up to 1,000 characters; 50 values or parts; Saids in Saids 6 deep.
_FORMAT = re.compile(r"%\(\w+\)[sd]|%%")
_LONGEST, _MOST_PARTS, _DEEPEST = 1000, 50, 6


def said(message: str, /, **values) -> Said:
    """A sentence to keep and tell each reader in their language: ``said("%(name)s rested",
    name=...)``. ``message`` is marked for the catalogue (``said`` is an extraction keyword)."""
    return Said(message, values)


def said_plural(singular: str, plural: str, count: int, /, **values) -> Said:
    """``said`` with a plural: the count picks the form in each reader's language."""
    return Said(singular, values, plural=plural, count=count)


def listed(parts, /, *, separator: str = ", ") -> Said:
    """Parts told one after another with ``separator`` between them (names, or smaller Saids)."""
    return Said(parts=[part for part in parts], separator=separator)


def kept(text: str, data: object) -> Said | str:
    """What a record kept: its Said, or its plain text for a record kept before Saids (to quote it
    in a new Said: "Undone: …")."""
    return (Said.from_data(data) if data else None) or text


def told(text: str, data: object) -> str:
    """What a record with the plain ``text`` and a kept Said (``data``) reads as now: the Said in
    the reader's language, or the text as written for a record kept before Saids."""
    kept = Said.from_data(data) if data else None
    return kept.told() if kept is not None else text
