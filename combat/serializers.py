"""Combat API serializers: strict input. No rules here."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from characters.models import AIMING_CHOICES
from rulebook.combat import ATTACK_DICE_SLOTS
from rulebook.equipment import DAMAGE_POINTS_MAX, EXTRA_DAMAGE_MAX, RATES_OF_FIRE
from rulebook.hit_locations import AREAS
from rulebook.stats import PRIMARY_STATS, STAT_MAX, STAT_MIN
from zenergate_site import limits
from zenergate_site.api_fields import (
    MAX_ID,
    FlagField,
    NameField,
    StrictInput,
    TextField,
    WholeNumberField,
)

from . import shapes
from .models import Encounter, NpcSetup

MAX_FACES = 60
#: The stats an attack (and initiative) rests on: ACC for ranged, MEL for melee.
COMBAT_STATS = [("ACC", "ACC"), ("MEL", "MEL")]


class FacesField(serializers.ListField):
    child = WholeNumberField(min_value=1, max_value=100)
    max_length = MAX_FACES


def _slots(name: str, slots: tuple[str, ...]):
    """An input with one optional list of faces per named dice slot."""
    return type(name, (StrictInput,), {slot: FacesField(required=False) for slot in slots})


AttackDiceIn = _slots("AttackDiceIn", ATTACK_DICE_SLOTS)
DyingDiceIn = _slots("DyingDiceIn", ("medical", "save"))


class EncounterIn(StrictInput):
    name = NameField(max_length=limits.ENCOUNTER_NAME)
    gm_notes = TextField(max_length=limits.GM_NOTES, required=False, default="", allow_blank=True)
    initiative_stat = serializers.ChoiceField(choices=COMBAT_STATS, required=False, default="MEL")
    round_seconds = WholeNumberField(min_value=1, max_value=3600, required=False, default=10)


def _bounded(shape, **options) -> WholeNumberField:
    """A whole number with the bounds of one of combat/shapes.py's."""
    return WholeNumberField(min_value=shape.low, max_value=shape.high, **options)


class NpcWeaponIn(StrictInput):
    name = NameField(max_length=limits.NPC_WEAPON_NAME)
    damage_points = WholeNumberField(min_value=1, max_value=DAMAGE_POINTS_MAX)
    rate_of_fire = WholeNumberField(min_value=1, max_value=max(RATES_OF_FIRE), required=False, default=1)
    extra_damage = WholeNumberField(min_value=0, max_value=EXTRA_DAMAGE_MAX, required=False, default=0)
    ranks = WholeNumberField(min_value=0, max_value=shapes.NPC_WEAPON_RANKS_MAX, required=False, default=0)
    melee = FlagField(required=False, default=False)
    aiming = serializers.ChoiceField(choices=AIMING_CHOICES, required=False, help_text=gettext_lazy(
        "How long aiming pays: pistol 2 s, rifle 10 s, sniper 10 min. Left out: from the weapon's name."))


class CombatantIn(StrictInput):
    character = WholeNumberField(min_value=1, max_value=MAX_ID, required=False)
    name = NameField(max_length=limits.NPC_NAME, required=False)
    stats = serializers.DictField(child=WholeNumberField(min_value=STAT_MIN, max_value=STAT_MAX), required=False,
                                  default=dict, validators=[shapes.NPC_STATS])
    hit_points = _bounded(shapes.HIT_POINTS, required=False)
    shock_threshold = _bounded(shapes.SHOCK_THRESHOLD, required=False)
    endurance_max = _bounded(shapes.ENDURANCE, required=False)
    armour_rating = _bounded(shapes.ARMOUR, required=False, default=0)
    armour_type = _bounded(shapes.ARMOUR, required=False, default=0)
    weapons = serializers.ListField(child=NpcWeaponIn(), required=False, default=list,
                                    max_length=shapes.NPC_WEAPONS_MAX)
    revealed = FlagField(required=False, default=False)

    def validate(self, attrs):
        if "character" in attrs:
            extra = set(self.initial_data) - {"character"}
            if extra:
                raise serializers.ValidationError({sorted(extra)[0]: [_("A character brings its own sheet.")]})
            return attrs
        if not attrs.get("name"):
            raise serializers.ValidationError({"name": [_("Name the NPC (or give a character id).")]})
        unknown = [code for code in attrs["stats"] if code not in PRIMARY_STATS]
        if unknown:
            raise serializers.ValidationError({"stats": [_("Unknown stat %(code)s.") % {"code": repr(unknown[0])}]})
        return attrs


class CombatantPatchIn(StrictInput):
    revealed = FlagField(required=False)
    surprised = FlagField(required=False)
    prone = FlagField(required=False)
    cant_move = FlagField(required=False)


class InitiativeIn(StrictInput):
    dice = serializers.DictField(child=FacesField(max_length=1), required=False, default=dict)

    def validate_dice(self, value):
        out = {}
        for key, faces in value.items():
            if not str(key).isdigit():
                raise serializers.ValidationError(_("%(key)s is not a combatant id.") % {"key": repr(key)})
            out[int(key)] = faces
        return out


class AttackIn(StrictInput):
    attacker = WholeNumberField(min_value=1, max_value=MAX_ID)
    target = WholeNumberField(min_value=1, max_value=MAX_ID)
    weapon = serializers.JSONField(required=False, default=None)
    stat = serializers.ChoiceField(choices=COMBAT_STATS, required=False, default="ACC")
    aimed_area = serializers.ChoiceField(choices=AREAS, required=False, default="whole_body")
    range_m = serializers.FloatField(min_value=0.01, max_value=1e7, required=False, default=None, allow_null=True)
    aim_seconds = serializers.FloatField(min_value=0, max_value=86400, required=False, default=0)
    cover = WholeNumberField(min_value=0, max_value=20, required=False, default=0)
    modifier = WholeNumberField(min_value=-50, max_value=50, required=False, default=0)
    suppression = FlagField(required=False, default=False,
                            help_text=gettext_lazy("Suppression fire: pointed roughly and fired, −5 in place of "
                                                   "any aiming."))
    chosen_location = TextField(max_length=30, required=False, default=None, allow_null=True)
    location_die = WholeNumberField(min_value=2, max_value=100, required=False, default=100,
                                    help_text=gettext_lazy("GM only: a smaller hit-location die than d100 (d20 "
                                                           "reads only the column's first 20 rows)."))
    preview = FlagField(required=False, default=False)
    dice = AttackDiceIn(required=False, default=dict)
    idempotency_key = TextField(max_length=100, required=False, default=None, allow_null=True)

    def validate_weapon(self, value):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, str))):
            raise serializers.ValidationError(_("Name the weapon by its id or its name."))
        return value


class DyingIn(StrictInput):
    combatant = WholeNumberField(min_value=1, max_value=MAX_ID)
    medical_target = WholeNumberField(min_value=-50, max_value=60, required=False, default=None, allow_null=True)
    medical_help = FlagField(required=False, default=False)
    dice = DyingDiceIn(required=False, default=dict)


class NextTurnIn(StrictInput):
    skip = FlagField(required=False, default=False)
    dice = _slots("TurnDiceIn", ("end",))(required=False, default=dict)


class ReactionIn(StrictInput):
    combatant = WholeNumberField(min_value=1, max_value=MAX_ID)
    milliseconds = serializers.FloatField(min_value=0, max_value=86_400_000)
    has_next_initiative = FlagField(required=False, default=False)
    dice = _slots("ReactionDiceIn", ("save",))(required=False, default=dict)


class ActNowIn(StrictInput):
    combatant = WholeNumberField(min_value=1, max_value=MAX_ID)


class AnswerIn(StrictInput):
    approve = FlagField()


class EncounterPatchIn(StrictInput):
    require_approval = FlagField(required=False)
    initiative_stat = serializers.ChoiceField(choices=COMBAT_STATS, required=False)
    round_seconds = WholeNumberField(min_value=1, max_value=3600, required=False)
    gm_notes = TextField(max_length=limits.GM_NOTES, required=False, allow_blank=True)
    name = NameField(max_length=limits.ENCOUNTER_NAME, required=False)


class LogQueryIn(serializers.Serializer):
    after = serializers.IntegerField(min_value=0, max_value=MAX_ID, required=False, default=0)


class EncounterSummaryOut(serializers.ModelSerializer):
    class Meta:
        model = Encounter
        fields = ["id", "name", "state", "round", "created_at"]


class NpcSetupIn(StrictInput):
    """Save a fight's NPCs as a set-up of the GM's NPC library (the same name replaces it)."""

    encounter = WholeNumberField(min_value=1, max_value=MAX_ID)
    name = NameField(max_length=limits.ENCOUNTER_NAME)


class FightFromSetupIn(StrictInput):
    name = NameField(max_length=limits.ENCOUNTER_NAME, required=False, default="")
    characters = FlagField(required=False, default=True)


class NpcSetupOut(serializers.ModelSerializer):
    class Meta:
        model = NpcSetup
        fields = ["id", "name", "npcs", "gm_notes", "created_at"]
