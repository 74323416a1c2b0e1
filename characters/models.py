"""Characters and everything on their sheets.

The 13 stat columns hold the sheet values: rolled + generation trades + Karma swaps (+ Karma
raises once active). What was rolled and what was traded are kept beside them, because the
budget prices the trades. Calculated stats (INT, HP, SHK, END max) are frozen at approval.
"""

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Q
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

from rulebook.game_time import duration
from rulebook.stats import PRIMARY_STATS
from rulebook.tables import AIMING_CAPS_SECONDS
from zenergate_site import limits
from zenergate_site.shapes import capped

from . import shapes

STAT_FIELDS = {code: code.lower() for code in PRIMARY_STATS}  # "STR" → "str"
STAT_CHOICES = [(code, code) for code in PRIMARY_STATS]
#: The aiming classes by name, in the reader's language.
AIMING_NAMES = {"pistol": _("pistol"), "rifle": _("rifle"), "sniper": _("sniper")}


def _aiming_label(name: str, cap: int) -> str:
    return gettext("%(name)s: aim up to %(time)s") % {"name": AIMING_NAMES.get(name, name), "time": duration(cap)}


#: A weapon's aiming class, named with the longest aim that still helps ("pistol: aim up to 2 s").
AIMING_CHOICES = [(name, lazy(_aiming_label, str)(name, cap)) for name, cap in AIMING_CAPS_SECONDS.items()]


class Breadth(models.TextChoices):
    SPECIFIC = "specific", _("Specific (1)")
    NARROW = "narrow", _("Narrow (2)")
    BROAD = "broad", _("Broad (4)")
    WEAPON_MODEL = "weapon_model", _("Weapon: specific model (1)")
    WEAPON_TYPE = "weapon_type", _("Weapon: type (2)")
    WEAPON_CATEGORY = "weapon_category", _("Weapon: general category (3)")


GENERAL_BREADTHS = [Breadth.SPECIFIC, Breadth.NARROW, Breadth.BROAD]
GENERAL_BREADTH_CHOICES = [(b.value, b.label) for b in GENERAL_BREADTHS]


def _stat_field():
    return models.PositiveSmallIntegerField()


class Character(models.Model):
    class State(models.TextChoices):
        DRAFT = "draft", _("Draft")
        SUBMITTED = "submitted", _("Submitted")
        ACTIVE = "active", _("Active")
        DEAD = "dead", _("Dead")
        RETIRED = "retired", _("Retired")

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="characters")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="characters")
    # An imported sheet whose player has no account in this campaign yet: the importer holds it,
    # and it goes back to the player named here when they join (characters.handback).
    imported_owner = models.CharField(max_length=150, blank=True, default="")
    name = models.CharField(max_length=limits.CHARACTER_NAME)
    state = models.CharField(max_length=10, choices=State.choices, default=State.DRAFT)
    # The GM's note when returning a submission (at most limits.REVIEW_COMMENT, checked on input).
    review_comment = models.TextField(blank=True, validators=[MaxLengthValidator(limits.REVIEW_COMMENT)])

    # --- the 13 rolled stats, as on the sheet -----------------------------------------
    str = _stat_field()
    con = _stat_field()
    res = _stat_field()
    nim = _stat_field()
    dex = _stat_field()  # the rolled DEX; effective DEX is ⌈(DEX + NIM) / 2⌉
    acc = _stat_field()
    mel = _stat_field()
    prac = _stat_field()
    theo = _stat_field()
    enc = _stat_field()
    lan = _stat_field()
    awa = _stat_field()
    pers = _stat_field()
    rolled_stats = models.JSONField(default=dict, validators=[shapes.ROLLED_STATS])  # {"STR": 14, …} as rolled or entered
    stat_trades = models.JSONField(default=dict, blank=True, validators=[shapes.STAT_TRADES])  # {"STR": +1, "ENC": −2}: skill points
    karma_swaps = models.JSONField(default=list, blank=True, validators=[shapes.KARMA_SWAPS])  # [{"lowered": "PERS", "raised": "STR"}]
    stat_raises = models.JSONField(default=dict, blank=True, validators=[shapes.STAT_CHANGES])  # Karma raises once active
    stat_setbacks = models.JSONField(default=dict, blank=True, validators=[shapes.STAT_CHANGES])  # semi-permanent losses from Complications
    int_plus_d6 = models.PositiveSmallIntegerField()
    int_minus_d6 = models.PositiveSmallIntegerField()

    # --- frozen at approval ------------------------------------------------------------
    intelligence = models.PositiveSmallIntegerField(null=True, blank=True)
    hit_points = models.PositiveSmallIntegerField(null=True, blank=True)
    shock_threshold = models.PositiveSmallIntegerField(null=True, blank=True)
    endurance_max = models.PositiveSmallIntegerField(null=True, blank=True)
    starting_karma = models.PositiveSmallIntegerField(null=True, blank=True)

    # --- Karma (the ledger lives in economy.KarmaEntry; this is its cached balance) ----
    karma = models.IntegerField(default=0)
    karma_converted = models.PositiveIntegerField(default=0)  # Karma turned into skill points
    # Skill points a Karmic Starvation Complication freed (2 per rank), until paid off.
    starvation_relief = models.PositiveIntegerField(default=0)

    # --- current wounds ----------------------------------------------------------------
    trauma = models.PositiveIntegerField(default=0)
    shock = models.PositiveIntegerField(default=0)
    endurance_spent = models.PositiveIntegerField(default=0)
    stat_damage = models.JSONField(default=dict, blank=True, validators=[shapes.STAT_DAMAGE])  # {"RES": 1}
    long_term_con_damage = models.PositiveIntegerField(default=0)  # radiation
    radiation_track = models.JSONField(default=dict, blank=True, validators=[shapes.RADIATION_TRACK])
    transitions_taken = models.PositiveIntegerField(default=0)
    dying_modifier = models.IntegerField(null=True, blank=True)  # None: not dying
    # What the recovery rules remember beside the columns (characters/shapes.py).
    wounds_detail = models.JSONField(default=dict, blank=True, validators=[shapes.WOUNDS_DETAIL])

    gm_notes = models.TextField(blank=True, validators=[MaxLengthValidator(limits.GM_NOTES)])  # never to players
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords(excluded_fields=["updated_at"])

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            capped("review_comment", limits.REVIEW_COMMENT, "character_review_comment_capped"),
            capped("gm_notes", limits.GM_NOTES, "character_gm_notes_capped"),
            *[
                models.CheckConstraint(condition=Q(**{f"{f}__gte": 1}) & Q(**{f"{f}__lte": 40}),
                                       name=f"character_{f}_1_40")
                for f in STAT_FIELDS.values()
            ],
            models.CheckConstraint(condition=Q(int_plus_d6__gte=1) & Q(int_plus_d6__lte=6), name="character_int_plus_d6"),
            models.CheckConstraint(condition=Q(int_minus_d6__gte=1) & Q(int_minus_d6__lte=6), name="character_int_minus_d6"),
            models.CheckConstraint(condition=Q(karma__gte=0), name="character_karma_never_negative"),
            models.CheckConstraint(condition=Q(state__in=["draft", "submitted", "active", "dead", "retired"]),
                                   name="character_state_valid"),
            models.CheckConstraint(
                condition=Q(state__in=["draft", "submitted"]) | (
                    Q(hit_points__isnull=False) & Q(shock_threshold__isnull=False)
                    & Q(endurance_max__isnull=False) & Q(intelligence__isnull=False) & Q(starting_karma__isnull=False)),
                name="character_frozen_when_approved",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def stat_values(self) -> dict[str, int]:
        """Return the 13 sheet stats keyed STR … PERS (rolled DEX under "DEX")."""
        return {code: getattr(self, field) for code, field in STAT_FIELDS.items()}

    @property
    def is_editable_build(self) -> bool:
        return self.state == self.State.DRAFT

    def state_word(self) -> str:
        """The state as a sentence says it ("Mara is dead"), in the reader's language."""
        return str(STATE_WORDS.get(self.state, self.state))


#: Each state as a sentence about a character says it ("… is a draft", "… is retired").
STATE_WORDS = {
    "draft": pgettext_lazy("a character is", "draft"), "submitted": pgettext_lazy("a character is", "submitted"),
    "active": pgettext_lazy("a character is", "active"), "dead": pgettext_lazy("a character is", "dead"),
    "retired": pgettext_lazy("a character is", "retired"),
}


#: What became of a piece of equipment in an adventure ("Weapons", "Armor"): used up, it is refunded
#: all but 1 point of its cost; found and left behind at the adventure's end, it costs nothing.
FATE_CHOICES = [("", _("on the sheet")), ("consumed", _("used up (refunded all but 1 point)")),
                ("found", _("found this adventure, stays behind (free)"))]
FATES = [value for value, _ in FATE_CHOICES]


def _fate():
    return models.CharField(max_length=8, blank=True, default="", choices=FATE_CHOICES)


def _on_sheet(related_name: str):
    return models.ForeignKey(Character, on_delete=models.CASCADE, related_name=related_name)


class SheetItem(models.Model):
    """What every line on a sheet shares: its order, its name and the GM's classification."""

    position = models.PositiveSmallIntegerField(default=0)
    name = models.CharField(max_length=limits.LINE_NAME)
    classified = models.BooleanField(default=False)

    class Meta:
        abstract = True
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.name


class Skill(SheetItem):
    """A skill; the first (position 0) is the character's profession."""

    character = _on_sheet("skills")
    breadth = models.CharField(max_length=16, choices=Breadth.choices)
    ranks = models.PositiveSmallIntegerField(default=1)
    stat = models.CharField(max_length=4, choices=STAT_CHOICES)  # the stat it usually rests on
    # e.g. "Firearm" for weapon skills
    weapon_category = models.CharField(max_length=limits.WEAPON_CATEGORY, blank=True)

    history = HistoricalRecords()

    class Meta(SheetItem.Meta):
        constraints = [
            models.CheckConstraint(condition=Q(ranks__gte=1) & Q(ranks__lte=10), name="skill_ranks_1_10"),
            models.CheckConstraint(condition=Q(breadth__in=Breadth.values), name="skill_breadth_valid"),
            models.CheckConstraint(condition=Q(stat__in=list(PRIMARY_STATS)), name="skill_stat_valid"),
        ]


class Disadvantage(SheetItem):
    character = _on_sheet("disadvantages")
    value = models.PositiveSmallIntegerField()  # breadth value: 1 specific, 2 narrow, 4 broad
    ranks = models.PositiveSmallIntegerField(default=1)
    affects = models.CharField(max_length=limits.DISADVANTAGE_AFFECTS, blank=True)

    history = HistoricalRecords()

    class Meta(SheetItem.Meta):
        constraints = [
            models.CheckConstraint(condition=Q(value__in=[1, 2, 4]), name="disadvantage_value_1_2_4"),
            models.CheckConstraint(condition=Q(ranks__gte=1) & Q(ranks__lte=20), name="disadvantage_ranks_positive"),
        ]


class Equipment(SheetItem):
    """General equipment, priced like skills; counts as a related skill (+2) when used."""

    character = _on_sheet("equipment")
    breadth = models.CharField(max_length=16, choices=GENERAL_BREADTH_CHOICES)
    ranks = models.PositiveSmallIntegerField(default=1)
    notes = models.CharField(max_length=limits.EQUIPMENT_NOTES, blank=True)

    fate = _fate()

    history = HistoricalRecords()

    class Meta(SheetItem.Meta):
        verbose_name_plural = "equipment"
        constraints = [
            models.CheckConstraint(condition=Q(breadth__in=["specific", "narrow", "broad"]), name="equipment_breadth_valid"),
            models.CheckConstraint(condition=Q(ranks__gte=1) & Q(ranks__lte=10), name="equipment_ranks_1_10"),
            models.CheckConstraint(condition=Q(fate__in=FATES), name="equipment_fate_valid"),
        ]


class Weapon(SheetItem):
    character = _on_sheet("weapons")
    damage_points = models.PositiveSmallIntegerField()
    rate_of_fire = models.PositiveSmallIntegerField(default=1)
    extra_damage = models.PositiveSmallIntegerField(default=0)
    range_reduction_steps = models.PositiveSmallIntegerField(default=0)
    melee = models.BooleanField(default=False)
    reach_steps = models.PositiveSmallIntegerField(default=0)
    skilled = models.BooleanField(default=False)  # the character has an appropriate skill: cost halved
    # The weapon skill an attack with it adds the ranks of ("the attacker's weapon skill ranks in
    # the weapon being employed"); none: the attack is unproficient, the stat's foundation alone.
    skill = models.ForeignKey(Skill, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # How long aiming pays: the article caps pistols at 2 s, rifles at 10 s, sniper attacks at 10 min.
    aiming = models.CharField(max_length=6, choices=AIMING_CHOICES, default="rifle")

    fate = _fate()

    history = HistoricalRecords()

    class Meta(SheetItem.Meta):
        constraints = [
            models.CheckConstraint(condition=Q(damage_points__gte=1) & Q(damage_points__lte=30), name="weapon_damage_points"),
            models.CheckConstraint(condition=Q(rate_of_fire__in=[1, 2, 3]), name="weapon_rate_of_fire"),
            models.CheckConstraint(condition=Q(aiming__in=list(AIMING_CAPS_SECONDS)), name="weapon_aiming_class"),
            models.CheckConstraint(condition=Q(fate__in=FATES), name="weapon_fate_valid"),
        ]


class Armour(SheetItem):
    character = _on_sheet("armour")
    hardness = models.PositiveSmallIntegerField()
    coverage = models.PositiveSmallIntegerField()
    nim_penalty = models.PositiveSmallIntegerField(default=0)
    tech_shift = models.SmallIntegerField(default=0)  # > 0 low-tech, < 0 high-tech
    worn = models.BooleanField(default=True)
    skilled = models.BooleanField(default=False)

    fate = _fate()

    history = HistoricalRecords()

    class Meta(SheetItem.Meta):
        verbose_name_plural = "armour"
        constraints = [
            models.CheckConstraint(condition=Q(hardness__gte=1) & Q(hardness__lte=10), name="armour_hardness_1_10"),
            models.CheckConstraint(condition=Q(coverage__gte=1) & Q(coverage__lte=4), name="armour_coverage_1_4"),
            models.CheckConstraint(condition=Q(tech_shift__gte=-5) & Q(tech_shift__lte=3), name="armour_tech_shift"),
            models.CheckConstraint(condition=Q(fate__in=FATES), name="armour_fate_valid"),
        ]


class Language(SheetItem):
    character = _on_sheet("languages")
    era = models.CharField(max_length=limits.LANGUAGE_ERA, blank=True)
    native = models.BooleanField(default=False)
    spoken = models.PositiveSmallIntegerField(default=0)
    heard = models.PositiveSmallIntegerField(default=0)
    written = models.PositiveSmallIntegerField(default=0)
    read = models.PositiveSmallIntegerField(default=0)
    # Era distance, as the GM sets it for where the character is now: steps between the
    # language's era and this one, and the ranks each step removes (0 to 0.5).
    era_steps = models.PositiveSmallIntegerField(default=0)
    era_step_loss = models.DecimalField(max_digits=3, decimal_places=2, default=0)

    # Picking the language up by immersion ("In-game language acquisition & improvement"): the
    # aspect it raises, era ranks still to pay off, hours logged toward the current interval, related
    # languages, and whether the language is held at all yet. Kept across sessions and transitions.
    immersion = models.JSONField(default=dict, blank=True)

    history = HistoricalRecords()

    class Meta(SheetItem.Meta):
        constraints = [
            models.CheckConstraint(
                condition=Q(spoken__lte=3) & Q(heard__lte=3) & Q(written__lte=3) & Q(read__lte=3),
                name="language_ranks_0_3"),
            models.CheckConstraint(condition=Q(era_step_loss__gte=0) & Q(era_step_loss__lte=0.5) & Q(era_steps__lte=50),
                                   name="language_era_loss_sane"),
        ]


# --- The sheets of the other rule sets (rulebook.systems.sheets) -------------------------------
class SystemSheet(models.Model):
    """A character of a campaign that plays ZeroSpace, Success Check, Rocket House or Core Rules.

    ``lines`` are what the character rolls, each with its system's inputs; ``numbers`` the
    sheet-wide values (Edge's maximum, Toughness, Build…); ``pools`` the current points of each
    resource, whose ledger is ``PoolEntry``; ``condition`` what fights left (``rulebook.systems.
    exchanges``). The shapes are checked by the rulebook's sheet spec.
    """

    SYSTEMS = [("zerospace", _("ZeroSpace")), ("success_check", _("Success Check (2d10)")),
               ("rocket_house", _("Tales from the Rocket House")), ("core_rules", _("Core Rules ch. V"))]

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="system_sheets")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="system_sheets")
    name = models.CharField(max_length=limits.CHARACTER_NAME)
    system = models.CharField(max_length=20, choices=SYSTEMS)
    lines = models.JSONField(default=list, blank=True)
    numbers = models.JSONField(default=dict, blank=True)
    pools = models.JSONField(default=dict, blank=True)
    # What fights did to the character (rulebook.systems.exchanges): Endurance, damage, Fatigue and wounds.
    condition = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords(excluded_fields=["updated_at"])

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(system__in=["zerospace", "success_check", "rocket_house", "core_rules"]),
                                   name="system_sheet_system_valid"),
        ]

    def __str__(self) -> str:
        return self.name


class PoolEntry(models.Model):
    """One point of a sheet's resource spent or refilled. Append-only, once per idempotency key."""

    sheet = models.ForeignKey(SystemSheet, on_delete=models.PROTECT, related_name="pool_entries")
    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="+")
    pool = models.CharField(max_length=20)
    action = models.CharField(max_length=12)  # rulebook.systems.sheets.ACTIONS
    use = models.CharField(max_length=40, blank=True)  # what a spent point bought
    amount = models.IntegerField()
    balance_after = models.IntegerField()
    idempotency_key = models.CharField(max_length=120, null=True, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "pool entries"
        constraints = [
            models.CheckConstraint(condition=Q(balance_after__gte=0), name="pool_entry_balance_never_negative"),
            models.UniqueConstraint(fields=["sheet", "idempotency_key"], condition=Q(idempotency_key__isnull=False),
                                    name="pool_entry_idempotency_key_once_per_sheet"),
        ]
