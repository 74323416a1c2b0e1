"""Character API serializers: one for input, one for output, per endpoint. No rules here.

Input serializers check types and ranges only (what a form would), strictly: JSON numbers for
numbers, ``true``/``false`` for flags, text for text, and an unknown field is an error rather
than silently ignored. Whether the values make a legal sheet is the services' business.
Output serializers read a character whose sheet lines are loaded and the ``Sheet`` that
``sheet.compute_sheet`` made from it (``context["sheet"]``).
"""

from __future__ import annotations


from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from rulebook.stats import PRIMARY_STATS

from zenergate_site.api_fields import MAX_ID, FlagField, StrictInput, TextField, WholeNumberField

from .models import GENERAL_BREADTH_CHOICES, Armour, Breadth, Disadvantage, Equipment, Language, Skill, Weapon

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
            raise serializers.ValidationError(f"Unknown stat(s): {', '.join(unknown)}; use {' '.join(PRIMARY_STATS)}.")
        return value


def _int_dice(**kwargs) -> serializers.ListField:
    return serializers.ListField(child=WholeNumberField(min_value=1, max_value=6), min_length=2, max_length=2,
                                 help_text="The two INT dice rolled at generation: [+1d6, −1d6], each 1–6.",
                                 **kwargs)


# --- Characters: input ----------------------------------------------------------------------
class CharacterListQueryIn(serializers.Serializer):
    campaign = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)


class CharacterCreateIn(StrictInput):
    campaign = WholeNumberField(min_value=1, max_value=MAX_ID)
    name = TextField(max_length=80)
    stats = StatsIn()
    int_dice = _int_dice()
    trades = TradesField(required=False)
    karma_swaps = KarmaSwapIn(many=True, required=False, max_length=40)


class CharacterPatchIn(StrictInput):
    name = TextField(max_length=80, required=False)
    stats = StatsPatchIn(required=False)
    trades = TradesField(required=False)
    karma_swaps = KarmaSwapIn(many=True, required=False, max_length=40)
    int_dice = _int_dice(required=False)
    gm_notes = TextField(max_length=20000, required=False, allow_blank=True, trim_whitespace=False,
                         help_text="GM only.")
    state = serializers.ChoiceField(choices=["active", "dead", "retired"], required=False,
                                    help_text="GM only: mark an approved character dead or retired, or active again.")


class NoBodyIn(StrictInput):
    """Submit and approve take no fields: anything sent is a mistake worth naming."""


class ReturnIn(StrictInput):
    comment = TextField(max_length=2000)


class RevertIn(StrictInput):
    """Either a point of the character's own history, or a moment (any line's change)."""

    history_id = WholeNumberField(min_value=1, max_value=MAX_ID, required=False)
    at = serializers.DateTimeField(required=False)

    def validate(self, attrs):
        if ("history_id" in attrs) == ("at" in attrs):
            raise serializers.ValidationError({"history_id": ["Give either history_id or at."]})
        return attrs


# --- Sheet lines: input ---------------------------------------------------------------------
def _classified():
    return FlagField(required=False, help_text="GM only: false marks the line as awaiting classification again.")


class SkillIn(StrictInput):
    name = TextField(max_length=80)
    breadth = serializers.ChoiceField(choices=Breadth.choices)
    ranks = WholeNumberField(min_value=1, max_value=10)
    stat = serializers.ChoiceField(choices=STAT_CODES)
    weapon_category = TextField(max_length=60, required=False, allow_blank=True)
    classified = _classified()


class DisadvantageIn(StrictInput):
    name = TextField(max_length=80)
    value = WholeNumberField(help_text="Breadth value: 1 specific, 2 narrow, 4 broad.")
    ranks = WholeNumberField(min_value=1, max_value=20)
    affects = TextField(max_length=200, required=False, allow_blank=True)
    classified = _classified()

    def validate_value(self, value):
        if value not in (1, 2, 4):
            raise serializers.ValidationError("The value is 1 (specific), 2 (narrow) or 4 (broad).")
        return value


class EquipmentIn(StrictInput):
    name = TextField(max_length=80)
    breadth = serializers.ChoiceField(choices=GENERAL_BREADTH_CHOICES)
    ranks = WholeNumberField(min_value=1, max_value=10, required=False)
    notes = TextField(max_length=200, required=False, allow_blank=True)
    classified = _classified()


class WeaponIn(StrictInput):
    name = TextField(max_length=80)
    damage_points = WholeNumberField(min_value=1, max_value=30)
    rate_of_fire = WholeNumberField(min_value=1, max_value=3, required=False)
    extra_damage = WholeNumberField(min_value=0, max_value=100, required=False)
    range_reduction_steps = WholeNumberField(min_value=0, max_value=100, required=False)
    melee = FlagField(required=False)
    reach_steps = WholeNumberField(min_value=0, max_value=100, required=False)
    skilled = FlagField(required=False)
    classified = _classified()


class ArmourIn(StrictInput):
    name = TextField(max_length=80)
    hardness = WholeNumberField(min_value=1, max_value=10)
    coverage = WholeNumberField(min_value=1, max_value=4)
    nim_penalty = WholeNumberField(min_value=0, max_value=40, required=False)
    tech_shift = WholeNumberField(min_value=-5, max_value=3, required=False)
    worn = FlagField(required=False)
    skilled = FlagField(required=False)
    classified = _classified()


class LanguageIn(StrictInput):
    name = TextField(max_length=80)
    era = TextField(max_length=60, required=False, allow_blank=True)
    native = FlagField(required=False)
    spoken = WholeNumberField(min_value=0, max_value=3)
    heard = WholeNumberField(min_value=0, max_value=3)
    written = WholeNumberField(min_value=0, max_value=3)
    read = WholeNumberField(min_value=0, max_value=3)


# --- Output: shared pieces ------------------------------------------------------------------
class BreakdownLineOut(serializers.Serializer):
    label = serializers.CharField()
    value = serializers.IntegerField()


def _breakdown(lines) -> list[dict]:
    return [{"label": label, "value": int(value)} for label, value in lines]


class CheckOut(serializers.Serializer):
    """A check's target, its breakdown and the exact chance of success."""

    target = serializers.IntegerField()
    dice = serializers.IntegerField()
    probability = serializers.FloatField()
    breakdown = BreakdownLineOut(many=True)


def _check(line) -> dict:
    return {"target": line.target, "dice": line.dice, "probability": line.probability,
            "breakdown": _breakdown(line.breakdown)}


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
    pending = serializers.IntegerField(help_text="Lines priced on a breadth the GM has not classified yet.")
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
        return _breakdown(line.breakdown) if line else []


class DisadvantageOut(_LineOut):
    class Meta:
        model = Disadvantage
        fields = [*LINE_FIELDS, "value", "ranks", "affects"]


class EquipmentOut(_LineOut):
    class Meta:
        model = Equipment
        fields = [*LINE_FIELDS, "breadth", "ranks", "notes"]


class WeaponOut(_LineOut):
    cost = serializers.SerializerMethodField(help_text="Skill points, from the equipment rules.")

    class Meta:
        model = Weapon
        fields = [*LINE_FIELDS, "damage_points", "rate_of_fire", "extra_damage", "range_reduction_steps",
                  "melee", "reach_steps", "skilled", "cost"]

    def get_cost(self, obj) -> int | None:
        return self._sheet().weapon_costs.get(obj.pk)


class ArmourOut(_LineOut):
    cost = serializers.SerializerMethodField(help_text="Skill points, from the equipment rules.")
    rating = serializers.SerializerMethodField()
    effects = serializers.SerializerMethodField()

    class Meta:
        model = Armour
        fields = [*LINE_FIELDS, "hardness", "coverage", "nim_penalty", "tech_shift", "worn", "skilled",
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
        fields = [*LINE_FIELDS, "era", "native", "spoken", "heard", "written", "read"]


#: Input and output serializer of each kind of sheet line, keyed like ``items.ITEM_KINDS``.
LINE_SERIALIZERS: dict[str, tuple[type[serializers.Serializer], type[serializers.Serializer]]] = {
    "skills": (SkillIn, SkillOut),
    "disadvantages": (DisadvantageIn, DisadvantageOut),
    "equipment": (EquipmentIn, EquipmentOut),
    "weapons": (WeaponIn, WeaponOut),
    "armour": (ArmourIn, ArmourOut),
    "languages": (LanguageIn, LanguageOut),
}


# --- Output: characters ---------------------------------------------------------------------
class KarmaSwapOut(serializers.Serializer):
    lowered = serializers.CharField()
    raised = serializers.CharField()


class WoundsOut(serializers.Serializer):
    """A character's current wounds, read from its row."""

    trauma = serializers.IntegerField()
    shock = serializers.IntegerField()
    endurance_spent = serializers.IntegerField()
    stat_damage = serializers.DictField(child=serializers.IntegerField())
    long_term_con_damage = serializers.IntegerField()
    transitions_taken = serializers.IntegerField()
    dying = serializers.SerializerMethodField()
    dying_modifier = serializers.IntegerField(allow_null=True)

    def get_dying(self, obj) -> bool:
        return obj.dying_modifier is not None


class _CharacterBaseOut(serializers.Serializer):
    id = serializers.IntegerField()
    campaign = serializers.IntegerField(source="campaign_id")
    name = serializers.CharField()
    owner = serializers.CharField(source="owner.username")
    state = serializers.CharField()
    karma = serializers.IntegerField()
    stats = serializers.SerializerMethodField(help_text="The 13 sheet values keyed STR … PERS (rolled DEX).")
    wounds = WoundsOut(source="*")

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField()))
    def get_stats(self, obj):
        return obj.stat_values()


class CharacterSummaryOut(_CharacterBaseOut):
    """A character in a list: who, where, what state, and its wounds."""


class CharacterSheetOut(_CharacterBaseOut):
    """The whole sheet: stored values, what the rules compute from them, and every line.

    ``gm_notes`` is present only when ``context["is_gm"]`` is true.
    """

    review_comment = serializers.CharField()
    rolled_stats = serializers.DictField(child=serializers.IntegerField())
    trades = serializers.DictField(source="stat_trades", child=serializers.IntegerField())
    karma_swaps = KarmaSwapOut(many=True)
    stat_raises = serializers.DictField(child=serializers.IntegerField())
    int_dice = serializers.SerializerMethodField()
    derived = serializers.SerializerMethodField(help_text="DEX (effective), INT, HP, SHK, END.")
    derived_breakdown = serializers.SerializerMethodField()
    derived_frozen = serializers.SerializerMethodField(help_text="True where the value was frozen at approval.")
    starting_karma = serializers.SerializerMethodField()
    starting_karma_breakdown = serializers.SerializerMethodField()
    budget = serializers.SerializerMethodField()
    stat_checks = serializers.SerializerMethodField(help_text="4d6 stat checks, keyed STR … PERS.")
    disadvantage_rank_limit = serializers.SerializerMethodField()
    problems = serializers.SerializerMethodField()
    skills = SkillOut(many=True)
    disadvantages = DisadvantageOut(many=True)
    equipment = EquipmentOut(many=True)
    weapons = WeaponOut(many=True)
    armour = ArmourOut(many=True)
    languages = LanguageOut(many=True)
    gm_notes = serializers.CharField(help_text="Only for the campaign's GMs.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "sheet" in self.context and not self.context.get("is_gm"):
            self.fields.pop("gm_notes")

    def _sheet(self):
        return self.context["sheet"]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2))
    def get_int_dice(self, obj):
        return [obj.int_plus_d6, obj.int_minus_d6]

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField()))
    def get_derived(self, obj):
        return {code: value for code, (value, _, _) in self._sheet().derived.items()}

    @extend_schema_field(serializers.DictField(child=BreakdownLineOut(many=True)))
    def get_derived_breakdown(self, obj):
        return {code: _breakdown(lines) for code, (_, lines, _) in self._sheet().derived.items()}

    @extend_schema_field(serializers.DictField(child=serializers.BooleanField()))
    def get_derived_frozen(self, obj):
        return {code: frozen for code, (_, _, frozen) in self._sheet().derived.items()}

    def get_starting_karma(self, obj) -> int | None:
        return self._sheet().starting_karma[0] if self._sheet().derived else obj.starting_karma

    @extend_schema_field(BreakdownLineOut(many=True))
    def get_starting_karma_breakdown(self, obj):
        return _breakdown(self._sheet().starting_karma[1])

    @extend_schema_field(BudgetOut)
    def get_budget(self, obj):
        return budget_data(self._sheet())

    @extend_schema_field(serializers.DictField(child=CheckOut()))
    def get_stat_checks(self, obj):
        return {code: _check(line) for code, line in self._sheet().stat_checks.items()}

    def get_disadvantage_rank_limit(self, obj) -> int:
        return self._sheet().disadvantage_rank_limit

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_problems(self, obj):
        return list(self._sheet().problems)


class StateOut(serializers.Serializer):
    id = serializers.IntegerField()
    state = serializers.CharField()
    review_comment = serializers.CharField()


class HistoryOut(serializers.Serializer):
    when = serializers.DateTimeField()
    who = serializers.CharField(allow_null=True)
    what = serializers.CharField()
    history_id = serializers.IntegerField(allow_null=True,
                                          help_text="A point the GM can revert the sheet to (null for line changes).")

