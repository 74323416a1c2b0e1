"""The campaign's stat dice: which expressions the app rolls, and the range each gives. One
definition: the settings form, the API, the service and the importer (through the column's
validator) all ask ``stat_dice_range``."""

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .errors import CampaignError

#: Stat dice the app can roll and bound: NdM, optionally keeping the highest/lowest K, ± a constant.
STAT_DICE = re.compile(r"^(?P<n>\d{1,2})d(?P<sides>\d{1,2})(?:k(?P<hl>[hl])(?P<keep>\d{1,2}))?(?P<add>[+-]\d{1,2})?$")


def stat_dice_range(expression: str) -> tuple[int, int]:
    """Return the lowest and highest total of a stat-dice expression, or raise CampaignError."""
    match = STAT_DICE.match((expression or "").replace(" ", "").lower())
    if not match:
        raise CampaignError(_("Write the stat dice like 4d6, 3d6+6 or 4d6kh3 (keep the highest 3)."), field="stat_dice")
    n, sides = int(match["n"]), int(match["sides"])
    kept = int(match["keep"]) if match["keep"] else n
    add = int(match["add"] or 0)
    if not (1 <= n <= 20 and 2 <= sides <= 20 and 1 <= kept <= n):
        raise CampaignError(_("Use 1–20 dice of 2–20 sides, keeping at most as many as are rolled."), field="stat_dice")
    low, high = kept + add, kept * sides + add
    if low < 1 or high > 40:
        raise CampaignError(_("%(dice)s rolls %(low)s–%(high)s; stats run 1–40.")
                            % {"dice": expression, "low": low, "high": high}, field="stat_dice")
    return low, high


def validate_stat_dice(value: str) -> None:
    """The column's validator (Campaign.stat_dice)."""
    try:
        stat_dice_range(value)
    except CampaignError as exc:
        raise ValidationError(exc.message, code="stat_dice") from None
