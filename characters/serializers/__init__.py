"""Character API serializers, split by resource: shared pieces, sheet lines, characters.
One input and one output serializer per endpoint; no rules here."""

from .character import (
    CharacterCreateIn,
    CharacterListQueryIn,
    CharacterPatchIn,
    CharacterSheetOut,
    CharacterSummaryOut,
    HistoryOut,
    ReturnIn,
    RevertIn,
    StateOut,
)
from zenergate_site.api_fields import NoBodyIn

from .common import BudgetOut, budget_data
from .lines import LINE_SERIALIZERS

__all__ = [
    "LINE_SERIALIZERS", "BudgetOut", "CharacterCreateIn", "CharacterListQueryIn", "CharacterPatchIn",
    "CharacterSheetOut", "CharacterSummaryOut", "HistoryOut", "NoBodyIn", "ReturnIn", "RevertIn", "StateOut",
    "budget_data",
]
