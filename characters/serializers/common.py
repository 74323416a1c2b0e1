"""Pieces every character serializer shares: stats, trades, breakdowns, checks, the budget."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from rulebook.stats import PRIMARY_STATS
from zenergate_site.api_fields import StrictInput, WholeNumberField

STAT_CODES = [(code, code) for code in PRIMARY_STATS]


def _stats_input(name: str, *, required: bool) -> type[StrictInput]:
    fields = {code: WholeNumberField(min_value=1, max_value=40, required=required) for code in PRIMARY_STATS}
    return type(name, (StrictInput,), fields)


StatsIn = _stats_input("StatsIn", required=True)
StatsPatchIn = _stats_input("StatsPatchIn", required=False)


class KarmaSwapIn(StrictInput):
    lowered = serializers.ChoiceField(choices=STAT_CODES)
    raised = serializers.ChoiceField(choices=STAT_CODES)


class TradesField(serializers.DictField):
    """Generation trades: ``{stat: whole number}``, keyed by stat code."""

    child = WholeNumberField(min_value=-39, max_value=39)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        unknown = sorted(key for key in value if key not in PRIMARY_STATS)
        if unknown:
            raise serializers.ValidationError(_("Unknown stat(s): %(unknown)s; use %(stats)s.")
                                              % {"unknown": ", ".join(unknown), "stats": " ".join(PRIMARY_STATS)})
        return value


def int_dice_field(**kwargs) -> serializers.ListField:
    return serializers.ListField(child=WholeNumberField(min_value=1, max_value=6), min_length=2, max_length=2,
                                 help_text=gettext_lazy("The two INT dice rolled at generation: [+1d6, −1d6], "
                                                        "each 1–6."),
                                 **kwargs)


# --- Output: shared pieces ------------------------------------------------------------------
class BreakdownLineOut(serializers.Serializer):
    label = serializers.CharField()
    value = serializers.IntegerField()


def breakdown_lines(lines) -> list[dict]:
    return [{"label": label, "value": int(value)} for label, value in lines]


class CheckOut(serializers.Serializer):
    """A check's target, its breakdown and the exact chance of success."""

    target = serializers.IntegerField()
    dice = serializers.IntegerField()
    probability = serializers.FloatField()
    breakdown = BreakdownLineOut(many=True)


def check_data(line) -> dict:
    return {"target": line.target, "dice": line.dice, "probability": line.probability,
            "breakdown": breakdown_lines(line.breakdown)}


class BudgetLineOut(serializers.Serializer):
    label = serializers.CharField()
    points = serializers.IntegerField()
    pending = serializers.BooleanField()


class BudgetOut(serializers.Serializer):
    """The skill-point budget; null numbers and the reasons in ``problems`` when it cannot be computed."""

    available = serializers.IntegerField(allow_null=True)
    spent = serializers.IntegerField(allow_null=True)
    remaining = serializers.IntegerField(allow_null=True)
    overspent = serializers.BooleanField()
    pending = serializers.IntegerField(help_text=gettext_lazy("Lines priced on a breadth the GM has not classified "
                                                              "yet."))
    lines = BudgetLineOut(many=True)
    debt_actions = serializers.ListField(child=serializers.CharField())
    problems = serializers.ListField(child=serializers.CharField())


def budget_data(sheet) -> dict:
    """Return the budget half of a computed sheet in the shape ``BudgetOut`` describes."""
    b = sheet.budget
    if b is None:
        return {"available": None, "spent": None, "remaining": None, "overspent": False, "pending": 0,
                "lines": [], "debt_actions": [], "problems": list(sheet.problems)}
    return {"available": b.available, "spent": b.spent, "remaining": b.remaining, "overspent": b.overspent,
            "pending": b.pending, "lines": [{"label": line.label, "points": line.points, "pending": line.pending}
                                            for line in b.lines],
            "debt_actions": list(b.debt_actions), "problems": list(sheet.problems)}
