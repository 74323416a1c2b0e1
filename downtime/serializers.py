"""Downtime API serializers: strict input, plain output. No rules here."""

from drf_spectacular.utils import extend_schema_field
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from campaign.models import Job
from rulebook.radiation import CATEGORIES
from rulebook.recovery import REST_KINDS
from zenergate_site import limits
from zenergate_site.api_fields import (
    MAX_ID,
    FlagField,
    NameField,
    NumberField,
    StrictInput,
    TextField,
    WholeNumberField,
)

from .models import Therapy, Treatment
from .services import MAX_DOWNTIME_HOURS

#: Faces one action may name: more than any action here rolls (a miracle save adds a few).
MAX_FACES = 60


def _character_key(key) -> int:
    try:
        value = int(key)
    except (TypeError, ValueError):
        raise serializers.ValidationError(_("%(key)s is not a character id.") % {"key": repr(key)}) from None
    if not 1 <= value <= MAX_ID or str(value) != str(key).strip():
        raise serializers.ValidationError(_("%(key)s is not a character id.") % {"key": repr(key)})
    return value


class ByCharacterField(serializers.DictField):
    """``{"<character id>": value}``: keys become integer ids."""
    
    def to_internal_value(self, data):
        if not isinstance(data, dict):
            self.fail("not_a_dict", input_type=type(data).__name__)
        if len(data) > 10_000:
            raise serializers.ValidationError(_("Too many characters."))
        out = {}
        for key, value in super().to_internal_value(data).items():
            out[_character_key(key)] = value
        return out


class FacesField(serializers.ListField):
    child = WholeNumberField(min_value=1, max_value=100)
    max_length = MAX_FACES


class TransitionSlotsIn(StrictInput):
    save = FacesField(required=False, help_text=gettext_lazy("The CON save's d6: 4, more under the miracle rule."))
    damage = FacesField(required=False, help_text=gettext_lazy(
        "The outcome's dice: d3 on a save; else d6 (1, 2), 2d6 (3A), "
        "d6 then 2d6 (3B)."))


_FACES_SCHEMA = {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 100}, "maxItems": MAX_FACES}


@extend_schema_field({"oneOf": [
    {"type": "object", "properties": {"save": _FACES_SCHEMA, "damage": _FACES_SCHEMA}, "additionalProperties": False},
    _FACES_SCHEMA]})
class TransitionFacesField(serializers.Field):
    """One character's transition dice: ``{"save": [...], "damage": [...]}`` (either may be left
    out: the app rolls it), or one list in roll order (the save's dice, then the damage's)."""

    def to_internal_value(self, data):
        if isinstance(data, list):
            return FacesField().run_validation(data)
        if isinstance(data, dict):
            slots = TransitionSlotsIn(data=data)
            slots.is_valid(raise_exception=True)
            return dict(slots.validated_data)
        raise serializers.ValidationError(_('Give the faces as {"save": [...], "damage": [...]} or one list.'))

    def to_representation(self, value):
        return value


class MedicalIn(StrictInput):
    medic = WholeNumberField(min_value=1, max_value=MAX_ID, allow_null=True, required=False, default=None)
    equipment_ranks = WholeNumberField(min_value=0, max_value=10, required=False, default=0)


class TherapyGivenIn(StrictInput):
    character = WholeNumberField(min_value=1, max_value=MAX_ID)
    kind = serializers.ChoiceField(choices=Treatment.Kind.choices)
    therapy = WholeNumberField(min_value=1, max_value=MAX_ID, required=False, allow_null=True, default=None)
    as_end = WholeNumberField(min_value=0, max_value=100, required=False, default=0)

    def validate(self, attrs):
        if attrs["kind"] == Treatment.Kind.THERAPY and attrs.get("therapy") is None:
            raise serializers.ValidationError({"therapy": [_("Name the therapy (its id).")]})
        return attrs


class DowntimeIn(StrictInput):
    hours = WholeNumberField(min_value=1, max_value=MAX_DOWNTIME_HOURS)
    rest = serializers.ChoiceField(choices=REST_KINDS, required=False, default="comfortable")
    rest_by_character = ByCharacterField(child=serializers.ChoiceField(choices=REST_KINDS), required=False,
                                         default=dict)
    medical = ByCharacterField(child=MedicalIn(), required=False, default=dict)
    therapies = serializers.ListField(child=TherapyGivenIn(), required=False, default=list, max_length=1000)
    dice = ByCharacterField(child=TransitionFacesField(), required=False, default=dict)
    idempotency_key = TextField(max_length=limits.IDEMPOTENCY_KEY, required=False, default="")
    preview = FlagField(required=False, default=False)


#: Named for the schema's enums (settings.SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]).
JOB_KINDS = Job.Kind.choices
JOB_STATUSES = Job.Status.choices


class JobOut(serializers.ModelSerializer):
    percent = serializers.IntegerField(read_only=True)
    progress = serializers.SerializerMethodField()
    report = serializers.SerializerMethodField()
    sheets = serializers.SerializerMethodField()
    undone = serializers.SerializerMethodField()

    class Meta:
        model = Job
        fields = ["id", "kind", "status", "progress", "percent", "report", "sheets", "error", "created_at",
                  "finished_at", "undone"]
                  
    def get_progress(self, obj) -> dict:
        return {"done": obj.progress, "total": obj.total}

    def get_report(self, obj) -> list:
        return self.context.get("report", [])

    def get_sheets(self, obj) -> list[dict]:
        """What the downtime did to the other rule set's sheets: ``{sheet, name, lines}`` each."""
        return self.context.get("sheets", [])

    def get_undone(self, obj) -> bool:
        return obj.undone_at is not None


class JobStartedOut(JobOut):
    """A job just started (202) or found again by its idempotency key (200); ``job`` is its id."""
    
    job = serializers.IntegerField(source="pk", read_only=True)

    class Meta(JobOut.Meta):
        fields = [*JobOut.Meta.fields, "job"]


class DowntimePreviewOut(serializers.Serializer):
    """What a downtime would do to each character in play, changing nothing."""
    
    report = serializers.ListField(child=serializers.DictField())
    sheets = serializers.ListField(child=serializers.DictField(), help_text=gettext_lazy("The other rule set's sheets: "
                                   "{sheet, name, lines}."))


class TransitionIn(StrictInput):
    category = serializers.ChoiceField(choices=CATEGORIES)
    characters = serializers.ListField(child=WholeNumberField(min_value=1, max_value=MAX_ID), max_length=200)
    dice = ByCharacterField(child=TransitionFacesField(), required=False, default=dict)
    idempotency_key = TextField(max_length=limits.IDEMPOTENCY_KEY, required=False, default="")
    preview = FlagField(required=False, default=False)


class TherapyIn(StrictInput):
    name = NameField(max_length=limits.THERAPY_NAME)
    con_healed = WholeNumberField(min_value=0, max_value=3, required=False, default=1)
    extra_reduction = TextField(max_length=limits.THERAPY_DICE, required=False, default="d3")
    track_steps_back = TextField(max_length=limits.THERAPY_DICE, required=False, default="d3")
    shock = TextField(max_length=limits.THERAPY_DICE, required=False, default="d6")
    trauma = TextField(max_length=limits.THERAPY_DICE, required=False, default="d3")
    efficacy_loss = WholeNumberField(min_value=0, max_value=3, required=False, default=0)


class TherapyOut(serializers.ModelSerializer):
    class Meta:
        model = Therapy
        fields = ["id", "name", "con_healed", "extra_reduction", "track_steps_back", "shock", "trauma",
                  "efficacy_loss"]
                  
    def to_representation(self, instance):
        data = super().to_representation(instance)
        if not self.context.get("is_gm"):  # the dice of a therapy stay behind the GM's screen
            data = {"id": data["id"], "name": data["name"]}
        return data


#: What can be given at once; the hyperbaric chamber works only while downtime passes.
GIVEN_AT_ONCE = [(k.value, k.label) for k in (Treatment.Kind.THERAPY, Treatment.Kind.STIMUTABS)]


class TreatmentIn(StrictInput):
    kind = serializers.ChoiceField(choices=GIVEN_AT_ONCE)
    therapy = WholeNumberField(min_value=1, max_value=MAX_ID, required=False, allow_null=True, default=None)
    as_end = WholeNumberField(min_value=0, max_value=100, required=False, default=0)
    dice = FacesField(required=False, default=list)
    idempotency_key = TextField(max_length=limits.IDEMPOTENCY_KEY)


class TreatmentOut(serializers.ModelSerializer):
    class Meta:
        model = Treatment
        fields = ["id", "character", "kind", "therapy", "outcome", "created_at", "undone_at"]



class ImmersionIn(StrictInput):
    hours = NumberField(min_value=0.01, max_value=24 * 120,
                                   help_text=gettext_lazy("Hours spent immersed in the language, logged now."))
    aspect = serializers.ChoiceField(choices=["spoken", "heard", "written", "read"], required=False, default=None,
                                     allow_null=True, help_text=gettext_lazy(
                                         "The aspect immersion raises (spoken by default)."))
    era_gap = WholeNumberField(min_value=0, max_value=10, required=False, default=None, allow_null=True,
                               help_text=gettext_lazy(
                                   "Ranks of era difference to pay off first (6 h and a LAN check at −15 each)."))
    related = WholeNumberField(min_value=0, max_value=10, required=False, default=None, allow_null=True,
                               help_text=gettext_lazy("Related languages the GM accepts: +2 each on the LAN checks."))
    new_language = FlagField(required=False, default=False,
                             help_text=gettext_lazy("A language not held at all: its first 3 h earn it at 0 ranks."))
    modifier = WholeNumberField(min_value=-50, max_value=50, required=False, default=0,
                                help_text=gettext_lazy("The GM's modifier on every LAN check of this span."))
    dice = serializers.ListField(child=WholeNumberField(min_value=1, max_value=6), required=False, default=list,
                                 max_length=200, help_text=gettext_lazy(
                                     "d6 faces of the LAN checks, 4 a check, in order."))
    idempotency_key = TextField(max_length=100, required=False, default=None, allow_null=True)
