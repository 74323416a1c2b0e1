"""Compile the message catalogues (``locale/<language>/LC_MESSAGES/*.po``) into the ``.mo``
files Django reads, in pure Python, so that a fresh clone, ``make run``, ``make test`` and the
Docker image need no GNU gettext. A catalogue is compiled again only when its ``.po`` changed.

    python -m zenergate_site.catalogues          # compile what changed
    python -m zenergate_site.catalogues --check  # also fail on an empty or fuzzy entry

Extracting new strings (``manage.py makemessages``) is a developer's step and does use
xgettext: docs/translation.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parent.parent / "locale"


def catalogues(root: Path = LOCALE) -> list[Path]:
    return sorted(root.glob("*/LC_MESSAGES/*.po"))


def problems(po_path: Path) -> list[str]:
    """Entries a complete catalogue must not have: untranslated, fuzzy, or with a plural left empty."""
    found = []
    for entry in polib.pofile(str(po_path)):
        if entry.obsolete:
            continue
        where = f"{po_path.relative_to(po_path.parents[3])}: {entry.msgid[:60]!r}"
        if "fuzzy" in entry.flags:
            found.append(f"{where} is fuzzy")
        elif entry.msgid_plural and not all(entry.msgstr_plural.values()):
            found.append(f"{where} has a plural form left empty")
        elif not entry.msgid_plural and not entry.msgstr:
            found.append(f"{where} is not translated")
    return found


def compile_all(root: Path = LOCALE, *, force: bool = False) -> list[Path]:
    """Write each catalogue's ``.mo`` where it is missing or older than its ``.po``; return those written."""
    written = []
    for po_path in catalogues(root):
        mo_path = po_path.with_suffix(".mo")
        if force or not mo_path.exists() or mo_path.stat().st_mtime < po_path.stat().st_mtime:
            polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
            written.append(mo_path)
    return written


def main(argv: list[str]) -> int:
    written = compile_all(force="--force" in argv)
    for path in written:
        print(f"compiled {path.relative_to(LOCALE.parent)}")
    if "--check" in argv:
        found = [problem for po_path in catalogues() for problem in problems(po_path)]
        for problem in found:
            print(problem, file=sys.stderr)
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
