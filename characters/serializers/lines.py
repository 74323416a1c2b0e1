"""The six kinds of sheet line: one input and one output serializer each."""

from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from zenergate_site import limits
from zenergate_site.api_fields import (
    MAX_ID,
    FlagField,
    NameField,
    StrictInput,
    TextField,
    WholeNumberField,
)

from ..models import (
    AIMING_CHOICES,
    FATE_CHOICES,
    GENERAL_BREADTH_CHOICES,
    Armour,
    Breadth,
    Disadvantage,
    Equipment,
    Language,
    Skill,
    Weapon,
)
from .common import STAT_CODES, BreakdownLineOut, breakdown_lines


# --- Sheet lines: input ---------------------------------------------------------------------
FATE_HELP = gettext_lazy("GM only: what the adventure did to it. consumed: used up, refunded all but 1 point of its "
                         "cost; found: found this adventure and left behind, costs nothing; empty: on the sheet.")


def _classified():
    return FlagField(required=False,
                     help_text=gettext_lazy("GM only: false marks the line as awaiting classification again."))


class SkillIn(StrictInput):
    name = NameField(max_length=limits.LINE_NAME)
    breadth = serializers.ChoiceField(choices=Breadth.choices)
    ranks = WholeNumberField(min_value=1, max_value=10)
    stat = serializers.ChoiceField(choices=STAT_CODES)
    weapon_category = TextField(max_length=limits.WEAPON_CATEGORY, required=False, allow_blank=True)
    classified = _classified()


class DisadvantageIn(StrictInput):
    name = NameField(max_length=limits.LINE_NAME)
    value = WholeNumberField(help_text=gettext_lazy("Breadth value: 1 specific, 2 narrow, 4 broad."))
    ranks = WholeNumberField(min_value=1, max_value=20)
    affects = TextField(max_length=limits.DISADVANTAGE_AFFECTS, required=False, allow_blank=True)
    classified = _classified()

    def validate_value(self, value):
        if value not in (1, 2, 4):
            raise serializers.ValidationError(_("The value is 1 (specific), 2 (narrow) or 4 (broad)."))
        return value


class EquipmentIn(StrictInput):
    name = NameField(max_length=limits.LINE_NAME)
    breadth = serializers.ChoiceField(choices=GENERAL_BREADTH_CHOICES)
    ranks = WholeNumberField(min_value=1, max_value=10, required=False)
    notes = TextField(max_length=limits.EQUIPMENT_NOTES, required=False, allow_blank=True)
    fate = serializers.ChoiceField(choices=FATE_CHOICES, required=False, help_text=FATE_HELP)
    classified = _classified()


class WeaponIn(StrictInput):
    name = NameField(max_length=limits.LINE_NAME)
    damage_points = WholeNumberField(min_value=1, max_value=30)
    rate_of_fire = WholeNumberField(min_value=1, max_value=3, required=False)
    extra_damage = WholeNumberField(min_value=0, max_value=100, required=False)
    range_reduction_steps = WholeNumberField(min_value=0, max_value=100, required=False)
    melee = FlagField(required=False)
    reach_steps = WholeNumberField(min_value=0, max_value=100, required=False)
    skilled = FlagField(required=False)
    skill = WholeNumberField(min_value=1, max_value=MAX_ID, required=False, allow_null=True, help_text=gettext_lazy(
        "The id of the character's weapon skill that covers this weapon; null: none (the attack is unproficient). "
        "Left out of a new weapon: the weapon skill its name matches, if any."))
    aiming = serializers.ChoiceField(choices=AIMING_CHOICES, required=False, help_text=gettext_lazy(
        "How long aiming pays: pistol 2 s, rifle 10 s, sniper 10 min. Left out of a new weapon: from its name."))
    fate = serializers.ChoiceField(choices=FATE_CHOICES, required=False, help_text=FATE_HELP)
    classified = _classified()


class ArmourIn(StrictInput):
    name = NameField(max_length=limits.LINE_NAME)
    hardness = WholeNumberField(min_value=1, max_value=10)
    coverage = WholeNumberField(min_value=1, max_value=4)
    nim_penalty = WholeNumberField(min_value=0, max_value=40, required=False)
    tech_shift = WholeNumberField(min_value=-5, max_value=3, required=False)
    worn = FlagField(required=False)
    skilled = FlagField(required=False)
    fate = serializers.ChoiceField(choices=FATE_CHOICES, required=False, help_text=FATE_HELP)
    classified = _classified()


class LanguageIn(StrictInput):
    name = NameField(max_length=limits.LINE_NAME)
    era = TextField(max_length=limits.LANGUAGE_ERA, required=False, allow_blank=True)
    native = FlagField(required=False)
    spoken = WholeNumberField(min_value=0, max_value=3)
    heard = WholeNumberField(min_value=0, max_value=3)
    written = WholeNumberField(min_value=0, max_value=3)
    read = WholeNumberField(min_value=0, max_value=3)
    era_steps = WholeNumberField(min_value=0, max_value=50, required=False,
                                 help_text=gettext_lazy("GM only: era steps away."))
    era_step_loss = serializers.DecimalField(max_digits=3, decimal_places=2, min_value=Decimal(0),
                                             max_value=Decimal("0.5"),
                                             required=False,
                                             help_text=gettext_lazy("GM only: ranks each era step removes."))


# --- Output: sheet lines --------------------------------------------------------------------
LINE_FIELDS = ["id", "position", "name", "classified"]


class _LineOut(serializers.ModelSerializer):
    def _sheet(self):
        return self.context["sheet"]


class SkillOut(_LineOut):
    target = serializers.SerializerMethodField()
    probability = serializers.SerializerMethodField()
    dice = serializers.SerializerMethodField()
    target_breakdown = serializers.SerializerMethodField()

    class Meta:
        model = Skill
        fields = [*LINE_FIELDS, "breadth", "ranks", "stat", "weapon_category",
                  "target", "probability", "dice", "target_breakdown"]

    def _line(self, obj):
        return self._sheet().skill_checks.get(obj.pk)

    def get_target(self, obj) -> int | None:
        line = self._line(obj)
        return line.target if line else None

    def get_probability(self, obj) -> float | None:
        line = self._line(obj)
        return line.probability if line else None

    def get_dice(self, obj) -> int | None:
        line = self._line(obj)
        return line.dice if line else None

    @extend_schema_field(BreakdownLineOut(many=True))
    def get_target_breakdown(self, obj):
        line = self._line(obj)
        return breakdown_lines(line.breakdown) if line else []


class DisadvantageOut(_LineOut):
    class Meta:
        model = Disadvantage
        fields = [*LINE_FIELDS, "value", "ranks", "affects"]


class EquipmentOut(_LineOut):
    class Meta:
        model = Equipment
        fields = [*LINE_FIELDS, "breadth", "ranks", "notes", "fate"]


class WeaponOut(_LineOut):
    cost = serializers.SerializerMethodField(help_text=gettext_lazy("Skill points, from the equipment rules."))

    class Meta:
        model = Weapon
        fields = [*LINE_FIELDS, "damage_points", "rate_of_fire", "extra_damage", "range_reduction_steps",
                  "melee", "reach_steps", "skilled", "skill", "aiming", "fate", "cost"]

    def get_cost(self, obj) -> int | None:
        return self._sheet().weapon_costs.get(obj.pk)


class ArmourOut(_LineOut):
    cost = serializers.SerializerMethodField(help_text=gettext_lazy("Skill points, from the equipment rules."))
    rating = serializers.SerializerMethodField()
    effects = serializers.SerializerMethodField()

    class Meta:
        model = Armour
        fields = [*LINE_FIELDS, "hardness", "coverage", "nim_penalty", "tech_shift", "worn", "skilled", "fate",
                  "cost", "rating", "effects"]

    def get_cost(self, obj) -> int | None:
        view = self._sheet().armour.get(obj.pk)
        return view.cost if view else None

    def get_rating(self, obj) -> int | None:
        view = self._sheet().armour.get(obj.pk)
        return view.rating if view else None

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField()))
    def get_effects(self, obj):
        view = self._sheet().armour.get(obj.pk)
        return dict(view.effects) if view else {}


class LanguageOut(_LineOut):
    class Meta:
        model = Language
        fields = [*LINE_FIELDS, "era", "native", "spoken", "heard", "written", "read", "era_steps", "era_step_loss"]


#: Input and output serializer of each kind of sheet line, keyed like ``items.ITEM_KINDS``.
LINE_SERIALIZERS: dict[str, tuple[type[serializers.Serializer], type[serializers.Serializer]]] = {
    "skills": (SkillIn, SkillOut),
    "disadvantages": (DisadvantageIn, DisadvantageOut),
    "equipment": (EquipmentIn, EquipmentOut),
    "weapons": (WeaponIn, WeaponOut),
    "armour": (ArmourIn, ArmourOut),
    "languages": (LanguageIn, LanguageOut),
}
