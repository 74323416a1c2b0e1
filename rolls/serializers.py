from drf_spectacular.utils import extend_schema_field
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from zenergate_site.api_fields import (
    MAX_ID,
    FlagField,
    NumberField,
    StrictInput,
    TextField,
    WholeNumberField,
)

from .models import Roll


class OddsIn(serializers.Serializer):
    """``{"system": …, …the check's inputs}``: the inputs depend on the rule set (see docs/api.md)."""
    
    system = serializers.CharField(help_text=gettext_lazy(
        "zener, zerospace, success_check, rocket_house or core_rules"))


class OddsOut(serializers.Serializer):
    system = serializers.CharField()
    probability = serializers.CharField(help_text=gettext_lazy("The chance of success, exactly, as a/b."))
    percent = serializers.FloatField()
    outcome = serializers.CharField(help_text=gettext_lazy("What the distribution is of (a total, a margin, …)."))
    distribution = serializers.ListField(child=serializers.ListField(), help_text=gettext_lazy(
        "[[outcome, \"a/b\"], …]"))
    success = serializers.ListField(child=serializers.IntegerField(), help_text=gettext_lazy(
        "The outcomes that succeed."))
    breakdown = serializers.ListField(child=serializers.ListField())


class RollIn(StrictInput):
    check = serializers.DictField(required=False, help_text=gettext_lazy(
        "A check of the campaign's rule set: its inputs."))
    notation = TextField(max_length=100, required=False, help_text=gettext_lazy(
        'Dice notation, e.g. "2d6+3" or "4d6kh3".'))
    label = TextField(max_length=120, required=False, default="", allow_blank=True)
    private = FlagField(required=False, default=False, help_text=gettext_lazy(
        "GM only: seen by the campaign's GMs alone."))
    dice = serializers.ListField(child=WholeNumberField(min_value=1, max_value=1000), required=False, max_length=100,
                                 help_text=gettext_lazy(
                                     "Faces rolled at the table for a check, in the rule set's order."))
    idempotency_key = TextField(max_length=100, required=False, default=None, allow_null=True,
                                help_text=gettext_lazy("Sent again, returns the first roll (200) and rolls nothing."))

    def validate(self, attrs):
        if ("check" in attrs) == ("notation" in attrs):
            raise serializers.ValidationError({"check": [_("Send either check or notation.")]})
        if "dice" in attrs and "check" not in attrs:
            raise serializers.ValidationError({"dice": [_("Table dice go with a check.")]})
        return attrs


def _amount(help_text: str, *, positive: bool = True) -> NumberField:
    return NumberField(min_value=0.000001 if positive else 0, max_value=1e12, required=False, default=None,
                                  allow_null=True, help_text=help_text)


class SituationIn(StrictInput):
    """What the moment adds to a check (the check builder's terms); every field is optional."""
    
    modifier = WholeNumberField(min_value=-50, max_value=50, required=False, default=0,
                                help_text=gettext_lazy("The GM's situational modifier, added to the target."))
    relevant = WholeNumberField(min_value=0, max_value=20, required=False, default=0,
                                help_text=gettext_lazy(
                                    "Further relevant skills or equipment the GM accepts: +2 each (a line with "
                                    "ranks; related languages on a language line)."))
    indirect = WholeNumberField(min_value=0, max_value=20, required=False, default=0,
                                help_text=gettext_lazy(
                                    "Indirectly related skills or equipment: +1 each (a line without ranks)."))
    time_taken = _amount(gettext_lazy(
        "Time taken as a multiple of the normal time: 2 (twice as long, +2), 0.5 (rushed, −3); "
        "read on the time chart."), positive=False)
    aim_seconds = _amount(gettext_lazy(
        "Seconds spent aiming (a weapon line), capped by the weapon's aiming class."), positive=False)
    range_m = _amount(gettext_lazy(
        "Range in metres: read against the target size (and cover) on the universal tables."))
    size_index = WholeNumberField(min_value=-8, max_value=25, required=False, default=0,
                                  help_text=gettext_lazy(
                                      "The target size index (0: 1 m², a standing human); goes with range_m."))
    cover = WholeNumberField(min_value=0, max_value=20, required=False, default=0,
                             help_text=gettext_lazy("Size steps cover or a smaller area takes off (−1 torso, −3 a "
                                                    "hand, −6 an eye)."))
    looking = WholeNumberField(min_value=0, max_value=5, required=False, default=0,
                               help_text=gettext_lazy(
                                   "Actively looking out for it: +0 to +5 on a spot or listen (AWA) check."))
    delicacy_mm = _amount(gettext_lazy(
        "The task's tolerance in mm, read on the delicacy table (10 mm is +0, 1 mm −2)."))
    scaling = _amount(gettext_lazy(
        "The tools' magnification (×10 is 10): each scaling row gives back two delicacy rows."))
    load_kg = _amount(gettext_lazy("A load carried, in kg, against the character's STR read as a weight-table row."))
    load_kind = serializers.ChoiceField(choices=["balanced", "unbalanced", "distributed"], required=False,
                                        default="unbalanced", help_text=gettext_lazy(
                                            "How the load counts: ½, full or ⅓."))
    bearers = WholeNumberField(min_value=1, max_value=100, required=False, default=1,
                               help_text=gettext_lazy("People sharing the load."))
    assistants = serializers.ListField(child=WholeNumberField(min_value=0, max_value=30), required=False, default=list,
                                       max_length=200, help_text=gettext_lazy(
                                           "Each assistant's ranks in the skill (3 expert, 2 "
                                           "skilled, 1 trainee, 0 unskilled)."))
    extra = WholeNumberField(min_value=0, max_value=12, required=False, default=0,
                             help_text=gettext_lazy(
                                 "Extra-benefit dice on a check that cannot fail: −2 each, the lowest dice count."))
    eventual = FlagField(required=False, default=False,
                         help_text=gettext_lazy(
                             "Eventual success: the margin, less desired_margin, says how long the task took."))
    desired_margin = WholeNumberField(min_value=-30, max_value=30, required=False, default=0)
    normal_time = _amount(gettext_lazy("The task's normal time, for eventual success."))
    time_unit = TextField(max_length=20, required=False, default="hours", allow_blank=True)
    dice = serializers.ListField(child=WholeNumberField(min_value=1, max_value=6), required=False, max_length=60,
                                 help_text=gettext_lazy(
                                     "d6 faces rolled at the table, in order; the app rolls the rest."))
    private = FlagField(required=False, default=False, help_text=gettext_lazy(
        "GM only: seen by the campaign's GMs alone."))
    idempotency_key = TextField(max_length=100, required=False, default=None, allow_null=True,
                                help_text=gettext_lazy("Sent again, returns the first roll (200) and rolls nothing."))


class SheetRollIn(SituationIn):
    line = TextField(max_length=40, help_text=gettext_lazy(
        'The sheet line to roll: "stat:ACC", "skill:<id>", "weapon:<id>" or '
        '"language:<id>:<aspect>" (spoken, heard, written, read).'))


class CheckIn(SituationIn):
    subject = TextField(max_length=60, help_text=gettext_lazy(
        'What is rolled: "party:AWA" (the party\'s collective stat), "bare" '
        '(a target the GM names), or "<character id>/<line>" as on the sheet.'))
    target = WholeNumberField(min_value=-60, max_value=60, required=False, default=10,
                              help_text=gettext_lazy("A bare check's target."))
    dice_count = WholeNumberField(min_value=3, max_value=4, required=False, default=3,
                                  help_text=gettext_lazy("A bare check's dice: 3 (a skill) or 4 (a stat)."))
    label = TextField(max_length=80, required=False, default="", allow_blank=True, help_text=gettext_lazy(
        "A bare check's name."))
    strength = WholeNumberField(min_value=0, max_value=200, required=False, default=None, allow_null=True,
                                help_text=gettext_lazy(
                                    "A bare check's STR for a load: a vehicle's STR is its carrying capacity."))


class CheckPreviewOut(serializers.Serializer):
    label = serializers.CharField()
    target = serializers.IntegerField()
    dice = serializers.IntegerField(help_text=gettext_lazy("Dice rolled: miracle and extra-benefit dice included."))
    counted = serializers.IntegerField(help_text=gettext_lazy("Dice that count toward the total."))
    probability = serializers.CharField(help_text=gettext_lazy("The chance of success, exactly, as a/b."))
    percent = serializers.FloatField()
    breakdown = serializers.ListField(child=serializers.ListField(), help_text=gettext_lazy(
        "[[term, value], …] adding up to target."))
    extra_limit = serializers.IntegerField(help_text=gettext_lazy(
        "Extra-benefit dice allowed (0 unless the check cannot fail)."))


class RerollIn(StrictInput):
    idempotency_key = TextField(max_length=100, help_text=gettext_lazy(
        "Sent again, returns the first reroll and spends nothing."))
    dice = serializers.ListField(child=WholeNumberField(min_value=1, max_value=6), required=False, max_length=60,
                                 help_text=gettext_lazy(
                                     "d6 faces rolled at the table, in order; the app rolls the rest."))


class FeedQueryIn(StrictInput):
    """Query parameters (text in a URL, so plain integer fields)."""
    
    before = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)
    limit = serializers.IntegerField(min_value=1, max_value=100, required=False, default=20)


class RollOut(serializers.ModelSerializer):
    by = serializers.SerializerMethodField()
    at = serializers.DateTimeField(source="created_at")
    success = serializers.BooleanField(allow_null=True)
    probability = serializers.SerializerMethodField()
    # The app's labels in the reader's language (Accept-Language); a typed one as typed.
    label = serializers.CharField(source="told", read_only=True)

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


class RollFeedOut(serializers.Serializer):
    """A page of the feed: ``next_before`` is the id to ask ``?before=`` for the next page (null: none)."""
    
    rolls = RollOut(many=True)
    next_before = serializers.IntegerField(allow_null=True)
