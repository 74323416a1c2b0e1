"""Every write of the economy, in one place to call: each lives in the module of its part.

Spends (``spends``), awards and adventures (``adventures``), MacGuffin pools (``pools``),
Karmic Debt and Complications (``complications``); what they share is in ``common``.
"""

from .adventures import (
    AWARD_KINDS,
    adventure_close,
    adventure_start,
    award,
    award_paid,
    payout_preview,
    token_add,
    token_void,
)
from .common import (
    current_adventure,
    lock_in_order,
    removals_this_adventure,
    upgrades_in_effect,
)
from .complications import complication_record, karma_flags
from .pools import macguffin_contribute, macguffin_create, macguffin_summary, pools_with_givers
from .spends import karma_spend, spend_quote

__all__ = [
    "AWARD_KINDS", "adventure_close", "adventure_start", "award", "award_paid", "complication_record", "current_adventure",
    "karma_flags", "karma_spend", "lock_in_order", "macguffin_contribute", "macguffin_create", "macguffin_summary",
    "pools_with_givers",
    "payout_preview", "removals_this_adventure", "spend_quote", "token_add", "token_void", "upgrades_in_effect",
]
