"""The economy's pages, split by page: the Karma page, adventures and awards, MacGuffin pools."""

from .adventures import (
    adventure_close,
    adventures,
    campaign_awards,
    token_add,
    token_void,
)
from .karma import character_complication, character_karma, karma_preview
from .pools import macguffin_contribute, macguffins, macguffins_live

__all__ = [
    "adventure_close", "adventures", "campaign_awards", "character_complication", "character_karma",
    "karma_preview", "macguffin_contribute", "macguffins", "macguffins_live", "token_add", "token_void",
]
