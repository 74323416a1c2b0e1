"""Character pages, split by page: the party, the sheet and builder, the review flow, the
printable sheet and the wound panel. ``page`` holds what they all show."""

from .party import character_new, party
from .printable import CharacterSheetPdfApi, character_pdf
from .review import (
    character_approve,
    character_history,
    character_notes,
    character_return,
    character_revert,
    character_state,
    character_submit,
)
from .sheet import (
    character_build,
    character_sheet,
    line_add,
    line_classify,
    line_delete,
    line_edit,
    line_new,
    line_update,
    lines_classify,
    stats_preview,
    stats_roll,
    stats_save,
)
from .system_sheet import system_sheet_new, system_sheet_page, system_sheet_pool

__all__ = [
    "system_sheet_new", "system_sheet_page", "system_sheet_pool",
    "CharacterSheetPdfApi", "character_approve", "character_build", "character_history", "character_new",
    "character_notes", "character_pdf", "character_return", "character_revert", "character_sheet",
    "character_state", "character_submit", "line_add", "line_classify", "lines_classify", "line_delete", "line_edit", "line_new", "line_update", "party",
    "stats_preview", "stats_roll", "stats_save",
]
