"""Characters: what a client sends to create and change one, and the sheet it gets back."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from zenergate_site import limits
from zenergate_site.api_fields import (
    MAX_ID,
    NameField,
    StrictInput,
    TextField,
    WholeNumberField,
)

from ..wounds import dying_causes
from .common import (
    BreakdownLineOut,
    BudgetOut,
    CheckOut,
    KarmaSwapIn,
    StatsIn,
    StatsPatchIn,
    TradesField,
    breakdown_lines,
    budget_data,
    check_data,
    int_dice_field,
)
from .lines import (
    ArmourOut,
    DisadvantageOut,
    EquipmentOut,
    LanguageOut,
    SkillOut,
    WeaponOut,
)


# --- Characters: input ----------------------------------------------------------------------
class CharacterListQueryIn(serializers.Serializer):
    campaign = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)


class CharacterCreateIn(StrictInput):
    campaign = WholeNumberField(min_value=1, max_value=MAX_ID)
    name = NameField(max_length=limits.CHARACTER_NAME)
    stats = StatsIn()
    int_dice = int_dice_field()
    trades = TradesField(required=False)
    karma_swaps = KarmaSwapIn(many=True, required=False, max_length=40)
    override_reason = TextField(max_length=limits.OVERRIDE_REASON, required=False, default="",
                                help_text=_("GM only: why a stat outside the campaign's stat dice stands."))


class CharacterPatchIn(StrictInput):
    name = NameField(max_length=limits.CHARACTER_NAME, required=False)
    stats = StatsPatchIn(required=False)
    trades = TradesField(required=False)
    karma_swaps = KarmaSwapIn(many=True, required=False, max_length=40)
    int_dice = int_dice_field(required=False)
    override_reason = TextField(max_length=limits.OVERRIDE_REASON, required=False, default="",
                                help_text=_("GM only: why a stat outside the campaign's stat dice stands."))
    gm_notes = TextField(max_length=limits.GM_NOTES, required=False, allow_blank=True, trim_whitespace=False,
                         help_text=_("GM only."))
    state = serializers.ChoiceField(choices=["active", "dead", "retired"], required=False,
                                    help_text=_("GM only: mark an approved character dead or retired, or active again."))


class ReturnIn(StrictInput):
    comment = TextField(max_length=limits.REVIEW_COMMENT)


class RevertIn(StrictInput):
    """Either a point of the character's own history, or a moment (any line's change)."""

    history_id = WholeNumberField(min_value=1, max_value=MAX_ID, required=False)
    at = serializers.DateTimeField(required=False)

    def validate(self, attrs):
        if ("history_id" in attrs) == ("at" in attrs):
            raise serializers.ValidationError({"history_id": [_("Give either history_id or at.")]})
        return attrs


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
        return bool(dying_causes(obj))


class _CharacterBaseOut(serializers.Serializer):
    id = serializers.IntegerField()
    campaign = serializers.IntegerField(source="campaign_id")
    name = serializers.CharField()
    owner = serializers.CharField(source="owner.username")
    state = serializers.CharField()
    karma = serializers.IntegerField()
    stats = serializers.SerializerMethodField(help_text=_("The 13 sheet values keyed STR … PERS (rolled DEX)."))
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
    derived = serializers.SerializerMethodField(help_text=_("DEX (effective), INT, HP, SHK, END."))
    derived_breakdown = serializers.SerializerMethodField()
    derived_frozen = serializers.SerializerMethodField(help_text=_("True where the value was frozen at approval."))
    starting_karma = serializers.SerializerMethodField()
    starting_karma_breakdown = serializers.SerializerMethodField()
    budget = serializers.SerializerMethodField()
    stat_checks = serializers.SerializerMethodField(help_text=_("4d6 stat checks, keyed STR … PERS."))
    disadvantage_rank_limit = serializers.SerializerMethodField()
    problems = serializers.SerializerMethodField()
    skills = SkillOut(many=True)
    disadvantages = DisadvantageOut(many=True)
    equipment = EquipmentOut(many=True)
    weapons = WeaponOut(many=True)
    armour = ArmourOut(many=True)
    languages = LanguageOut(many=True)
    # Optional in the schema: players get the sheet without it.
    gm_notes = serializers.CharField(required=False,
                                     help_text=_("Only for the campaign's GMs; left out for everyone else."))

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
        return {code: breakdown_lines(lines) for code, (_, lines, _) in self._sheet().derived.items()}

    @extend_schema_field(serializers.DictField(child=serializers.BooleanField()))
    def get_derived_frozen(self, obj):
        return {code: frozen for code, (_, _, frozen) in self._sheet().derived.items()}

    def get_starting_karma(self, obj) -> int | None:
        return self._sheet().starting_karma[0] if self._sheet().derived else obj.starting_karma

    @extend_schema_field(BreakdownLineOut(many=True))
    def get_starting_karma_breakdown(self, obj):
        return breakdown_lines(self._sheet().starting_karma[1])

    @extend_schema_field(BudgetOut)
    def get_budget(self, obj):
        return budget_data(self._sheet())

    @extend_schema_field(serializers.DictField(child=CheckOut()))
    def get_stat_checks(self, obj):
        return {code: check_data(line) for code, line in self._sheet().stat_checks.items()}

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
                                          help_text=_("A point the GM can revert the sheet to (null for line "
                                                      "changes)."))
    changes = serializers.SerializerMethodField(help_text=_("What the change did: [field, old, new] each."))
    can_revert = serializers.BooleanField(help_text=_("Whether reverting to this point can succeed."))

    def get_changes(self, obj) -> list[list]:
        return [[name, None if old is None else str(old), None if new is None else str(new)]
                for name, old, new in obj["changes"]]
