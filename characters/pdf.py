"""The printable sheet: two A4 pages laid out like the paper sheet, rendered by WeasyPrint.

Page 1 holds identity, stats, derived values, wounds and skills; page 2 the disadvantages,
gear, languages, Karma and ruled lines for notes. Every box has a fixed number of rows, as on
paper, so the sheet is always exactly two pages: a box with more lines than rows ends with
"+ n more" (the app has them all). GM notes are printed only on a GM's copy.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

#: Rows per box: what fits on the two pages at the sheet's type size.
ROWS = {"skills": 32, "disadvantages": 7, "equipment": 8, "weapons": 5, "armour": 4, "languages": 4}
#: Ruled note lines; a GM's copy gives some of them to the GM notes.
NOTE_LINES = {"player": 21, "gm": 15}


@dataclass(frozen=True)
class PrintBox:
    kind: str
    title: str
    lines: list
    blanks: range
    more: int


def _box(section: dict) -> PrintBox:
    rows = ROWS[section["kind"]]
    lines = section["lines"]
    shown = lines if len(lines) <= rows else lines[: rows - 1]
    more = len(lines) - len(shown)
    return PrintBox(section["kind"], section["title"], shown, range(rows - len(shown) - (1 if more else 0)), more)


def print_context(data: dict) -> dict:
    """Return the template context for the printable sheet from ``views.sheet_data``."""
    boxes = {section["kind"]: _box(section) for section in data["sections"]}
    note_lines = NOTE_LINES["gm" if data.get("show_gm_notes") else "player"]
    return {**data, "boxes": boxes, "note_lines": range(note_lines), "printed_at": timezone.now()}


def sheet_html(data: dict) -> str:
    """Return the HTML WeasyPrint lays out (tests read it: it is what the PDF shows)."""
    return render_to_string("characters/print.html", print_context(data))


class PdfUnavailable(RuntimeError):
    """WeasyPrint cannot load the system libraries it lays text out with (Pango)."""


def pdf_available() -> bool:
    try:
        import weasyprint  # noqa: F401
    except OSError:
        return False
    return True


def sheet_pdf(data: dict, **options) -> bytes:
    """Render the printable sheet as PDF bytes; ``options`` go to WeasyPrint's ``write_pdf``."""
    try:
        from weasyprint import (
            HTML,  # imported here: it loads Pango, which only this page needs
        )
    except OSError as exc:  # the wheel installs, but Pango is a system library
        raise PdfUnavailable(_("Printable sheets need Pango on the server (Debian: libpango-1.0-0 "
                               "libpangoft2-1.0-0); the sheet page itself prints well from the browser.")) from exc
    return HTML(string=sheet_html(data)).write_pdf(**options)
