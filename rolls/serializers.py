from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from zenergate_site.api_fields import (
    MAX_ID,
    FlagField,
    StrictInput,
    TextField,
    WholeNumberField,
)

from .models import Roll


class OddsIn(serializers.Serializer):
    """``{"system": …, …the check's inputs}``: the inputs depend on the rule set (see docs/api.md)."""

    system = serializers.CharField(help_text="zener, zerospace, success_check, rocket_house or core_rules")


class OddsOut(serializers.Serializer):
    system = serializers.CharField()
    probability = serializers.CharField(help_text="The chance of success, exactly, as a/b.")
    percent = serializers.FloatField()
    outcome = serializers.CharField(help_text="What the distribution is of (a total, a margin, …).")
    distribution = serializers.ListField(child=serializers.ListField(), help_text="[[outcome, \"a/b\"], …]")
    success = serializers.ListField(child=serializers.IntegerField(), help_text="The outcomes that succeed.")
    breakdown = serializers.ListField(child=serializers.ListField())


class RollIn(StrictInput):
    check = serializers.DictField(required=False, help_text="A check of the campaign's rule set: its inputs.")
    notation = TextField(max_length=100, required=False, help_text='Dice notation, e.g. "2d6+3" or "4d6kh3".')
    label = TextField(max_length=120, required=False, default="", allow_blank=True)
    private = FlagField(required=False, default=False, help_text="GM only: seen by the campaign's GMs alone.")
    dice = serializers.ListField(child=WholeNumberField(min_value=1, max_value=1000), required=False, max_length=100,
                                 help_text="Faces rolled at the table for a check, in the rule set's order.")

    def validate(self, attrs):
        if ("check" in attrs) == ("notation" in attrs):
            raise serializers.ValidationError({"check": ["Send either check or notation."]})
        if "dice" in attrs and "check" not in attrs:
            raise serializers.ValidationError({"dice": ["Table dice go with a check."]})
        return attrs


class SheetRollIn(StrictInput):
    line = TextField(max_length=40, help_text='The sheet line to roll: "stat:ACC", "skill:<id>" or "weapon:<id>".')
    modifier = WholeNumberField(min_value=-50, max_value=50, required=False, default=0,
                                help_text="The situational modifier, added to the line's target.")
    dice = serializers.ListField(child=WholeNumberField(min_value=1, max_value=6), required=False, max_length=60,
                                 help_text="d6 faces rolled at the table, in order; the app rolls the rest.")
    relevant = WholeNumberField(min_value=0, max_value=20, required=False, default=0,
                                help_text="Further relevant skills or equipment the GM accepts: +2 each (skill and "
                                          "weapon lines with ranks).")
    indirect = WholeNumberField(min_value=0, max_value=20, required=False, default=0,
                                help_text="Indirectly related skills or equipment: +1 each (a weapon line no skill "
                                          "covers).")
    time_taken = serializers.FloatField(min_value=0, max_value=1e9, required=False, default=None, allow_null=True,
                                        help_text="Time taken as a multiple of the normal time: 2 (twice as long, "
                                                  "+2), 0.5 (rushed, −3); read on the time chart.")
    private = FlagField(required=False, default=False, help_text="GM only: seen by the campaign's GMs alone.")
    idempotency_key = TextField(max_length=100, required=False, default=None, allow_null=True,
                                help_text="Sent again, returns the first roll (200) and rolls nothing.")


class RerollIn(StrictInput):
    idempotency_key = TextField(max_length=100, help_text="Sent again, returns the first reroll and spends nothing.")
    dice = serializers.ListField(child=WholeNumberField(min_value=1, max_value=6), required=False, max_length=60,
                                 help_text="d6 faces rolled at the table, in order; the app rolls the rest.")


class FeedQueryIn(StrictInput):
    """Query parameters (text in a URL, so plain integer fields)."""

    before = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)
    limit = serializers.IntegerField(min_value=1, max_value=100, required=False, default=20)


class RollOut(serializers.ModelSerializer):
    by = serializers.SerializerMethodField()
    at = serializers.DateTimeField(source="created_at")
    success = serializers.BooleanField(allow_null=True)
    probability = serializers.SerializerMethodField()

    class Meta:
        model = Roll
        fields = ["id", "kind", "label", "by", "at", "system", "params", "notation", "dice", "total", "success",
                  "probability", "detail", "private", "character", "reroll_of"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_by(self, obj):
        return obj.by.username if obj.by else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_probability(self, obj):
        return obj.probability or None
