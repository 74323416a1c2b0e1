"""Forms for the character pages: they check shapes and bounds; the services check the rules."""

from decimal import Decimal

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from rulebook.stats import PRIMARY_STATS, STAT_MAX, STAT_MIN
from zenergate_site import limits
from zenergate_site.text import validate_name

from .models import (
    GENERAL_BREADTHS,
    Armour,
    Breadth,
    Character,
    Disadvantage,
    Equipment,
    Language,
    Skill,
    Weapon,
)
from .weapons import WEAPON_BREADTHS

STAT_CHOICE_FIELD = [(code, code) for code in PRIMARY_STATS]
DISADVANTAGE_VALUES = [(1, _("Specific (1)")), (2, _("Narrow (2)")), (4, _("Broad (4)"))]
GENERAL_BREADTH_CHOICES = [(b.value, b.label) for b in GENERAL_BREADTHS]
RATE_OF_FIRE_CHOICES = [(1, _("Single shot")), (2, _("Short burst (+1d6)")), (3, _("Full auto (+2½d6)"))]
MAX_TRADE = 39  # a stat moves within 1–40; the rules decide the rest


def _stat_input(**attrs):
    return forms.NumberInput(attrs={"inputmode": "numeric", "class": "num", **attrs})


def _stat_field(**kwargs):
    return forms.IntegerField(min_value=STAT_MIN, max_value=STAT_MAX, widget=_stat_input(), **kwargs)


def _die_field(label):
    return forms.IntegerField(label=label, min_value=1, max_value=6, widget=_stat_input())


class NewCharacterForm(forms.Form):
    """A new draft: its name, the 13 stats as rolled and the two INT dice."""

    name = forms.CharField(label=_("Name"), max_length=limits.CHARACTER_NAME, validators=[validate_name])
    roll = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, rolled_in_app: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.rolled_in_app = rolled_in_app
        for code in PRIMARY_STATS:
            self.fields[code] = _stat_field(label=code, required=not rolled_in_app)
        self.fields["int_plus"] = _die_field("INT +1d6")
        self.fields["int_minus"] = _die_field("INT −1d6")
        self.fields["override_reason"] = forms.CharField(
            required=False, max_length=limits.OVERRIDE_REASON, label=_("GM: why a stat outside the stat dice stands"),
            help_text=_("Only the GM's reason lets a stat the campaign's dice cannot roll through; it is logged."))
        if rolled_in_app:
            for name in (*PRIMARY_STATS, "int_plus", "int_minus"):
                self.fields[name].required = False
                self.fields[name].widget.attrs["readonly"] = True

    def stat_fields(self):
        return [self[code] for code in PRIMARY_STATS]


class StatsForm(forms.Form):
    """The builder's identity and stats: name, rolled stats, trades, INT dice and Karma swaps."""

    name = forms.CharField(label=_("Name"), max_length=limits.CHARACTER_NAME, validators=[validate_name])

    def __init__(self, *args, character: Character, rolled_locked: bool, **kwargs):
        swaps = list(character.karma_swaps or [])
        initial = {"name": character.name, "int_plus": character.int_plus_d6, "int_minus": character.int_minus_d6}
        for code in PRIMARY_STATS:
            initial[f"rolled_{code}"] = (character.rolled_stats or {}).get(code)
            initial[f"trade_{code}"] = (character.stat_trades or {}).get(code, 0)
        for i, swap in enumerate(swaps):
            initial[f"swap_lowered_{i}"], initial[f"swap_raised_{i}"] = swap.get("lowered"), swap.get("raised")
        super().__init__(*args, initial=initial, **kwargs)
        self.rolled_locked = rolled_locked
        for code in PRIMARY_STATS:
            self.fields[f"rolled_{code}"] = _stat_field(label=gettext("%(stat)s rolled") % {"stat": code},
                                                        required=not rolled_locked)
            self.fields[f"trade_{code}"] = forms.IntegerField(
                label=gettext("%(stat)s trade") % {"stat": code}, min_value=-MAX_TRADE, max_value=MAX_TRADE,
                required=False,
                # The row's label names the rolled box; the trade box says what it is itself.
                widget=_stat_input(**{"class": "num trade",
                                      "aria-label": gettext("%(stat)s trade (skill points)") % {"stat": code}}))
        self.fields["int_plus"] = _die_field("INT +1d6")
        self.fields["int_minus"] = _die_field("INT −1d6")
        if rolled_locked:
            for name in (*[f"rolled_{c}" for c in PRIMARY_STATS], "int_plus", "int_minus"):
                self.fields[name].required = False
                self.fields[name].disabled = True
        # One row per swap, and one empty row to add another.
        self.swap_count = len(swaps) + 1
        blank = [("", "—")]
        for i in range(self.swap_count):
            self.fields[f"swap_lowered_{i}"] = forms.ChoiceField(
                label=_("Lower (−1)"), choices=blank + STAT_CHOICE_FIELD, required=False)
            self.fields[f"swap_raised_{i}"] = forms.ChoiceField(
                label=_("Raise (+2)"), choices=blank + STAT_CHOICE_FIELD, required=False)

    def stat_rows(self):
        return [(code, self[f"rolled_{code}"], self[f"trade_{code}"]) for code in PRIMARY_STATS]

    def swap_rows(self):
        return [(self[f"swap_lowered_{i}"], self[f"swap_raised_{i}"]) for i in range(self.swap_count)]

    def clean(self):
        data = super().clean()
        for i in range(self.swap_count):
            lowered, raised = data.get(f"swap_lowered_{i}"), data.get(f"swap_raised_{i}")
            if bool(lowered) != bool(raised):
                self.add_error(f"swap_raised_{i}" if lowered else f"swap_lowered_{i}",
                               _("A Karma swap lowers one stat and raises another: pick both, or neither."))
        return data

    def service_data(self) -> dict:
        """Return what ``character_update`` takes: only what this form may change."""
        data = self.cleaned_data
        out = {
            "name": data["name"],
            "trades": {code: data[f"trade_{code}"] for code in PRIMARY_STATS if data.get(f"trade_{code}")},
            "karma_swaps": [{"lowered": data[f"swap_lowered_{i}"], "raised": data[f"swap_raised_{i}"]}
                            for i in range(self.swap_count) if data.get(f"swap_lowered_{i}")],
        }
        if not self.rolled_locked:
            out["stats"] = {code: data[f"rolled_{code}"] for code in PRIMARY_STATS}
            out["int_dice"] = [data["int_plus"], data["int_minus"]]
        return out


# --- Sheet lines --------------------------------------------------------------------------
def _small_int(label, low, high, **kwargs):
    return forms.IntegerField(label=label, min_value=low, max_value=high, widget=_stat_input(), **kwargs)


class SkillForm(forms.ModelForm):
    ranks = _small_int(_("Ranks"), 1, 10, initial=1)
    stat = forms.ChoiceField(label=_("Stat"), choices=STAT_CHOICE_FIELD)

    class Meta:
        model = Skill
        fields = ["name", "breadth", "ranks", "stat", "weapon_category"]
        labels = {"name": _("Name"), "breadth": _("Breadth (proposed)"), "weapon_category": _("Weapon category")}


class DisadvantageForm(forms.ModelForm):
    value = forms.TypedChoiceField(label=_("Breadth (proposed)"), choices=DISADVANTAGE_VALUES, coerce=int)
    ranks = _small_int(_("Ranks"), 1, 20, initial=1)

    class Meta:
        model = Disadvantage
        fields = ["name", "value", "ranks", "affects"]
        labels = {"name": _("Name"), "affects": _("Affects (−2 per rank)")}


class EquipmentForm(forms.ModelForm):
    breadth = forms.ChoiceField(label=_("Breadth (proposed)"), choices=GENERAL_BREADTH_CHOICES)
    ranks = _small_int(_("Ranks"), 1, 10, initial=1)

    class Meta:
        model = Equipment
        fields = ["name", "breadth", "ranks", "notes", "fate"]
        labels = {"name": _("Name"), "notes": _("Notes"), "fate": _("After this adventure (GM)")}


class WeaponForm(forms.ModelForm):
    damage_points = _small_int(_("Damage points"), 1, 30, initial=3,
                               help_text="1 = ⅓d6, 2 = ½d6, 3 = 1d6, n = (n − 2)d6")
    rate_of_fire = forms.TypedChoiceField(label=_("Rate of fire"), choices=RATE_OF_FIRE_CHOICES, coerce=int)
    extra_damage = _small_int(_("+ damage"), 0, 30, initial=0)
    range_reduction_steps = _small_int(_("Range reduction steps"), 0, 30, initial=0)
    reach_steps = _small_int(_("Reach steps (melee)"), 0, 30, initial=0)

    # Not a model field here: the choices are this character's weapon skills (see ``__init__``).
    skill = forms.TypedChoiceField(coerce=int, empty_value=None, required=False, label=_("Weapon skill"),
                                   help_text=_("Its ranks add to attacks with this weapon; none: unproficient"))

    class Meta:
        model = Weapon
        fields = ["name", "damage_points", "rate_of_fire", "extra_damage", "range_reduction_steps",
                  "melee", "reach_steps", "aiming", "skilled", "fate"]
        labels = {"name": _("Name"), "melee": _("Melee"), "skilled": _("Has an appropriate skill (cost halved)"),
                  "aiming": _("Aiming class"), "fate": _("After this adventure (GM)")}

    def __init__(self, *args, character=None, **kwargs):
        super().__init__(*args, **kwargs)
        skills = [s for s in character.skills.all() if s.breadth in WEAPON_BREADTHS] if character else []
        self.fields["skill"].choices = [("", gettext("none (unproficient)"))] + [
            (s.pk, ngettext("%(name)s (%(n)s rank)", "%(name)s (%(n)s ranks)", s.ranks) % {"name": s.name, "n": s.ranks})
            for s in skills]
        if self.instance.pk:
            self.initial["skill"] = self.instance.skill_id


class ArmourForm(forms.ModelForm):
    hardness = _small_int(_("Hardness"), 1, 10, initial=3)
    coverage = _small_int(_("Coverage (quarters)"), 1, 4, initial=4)
    nim_penalty = _small_int(_("NIM penalty"), 0, 40, initial=0)
    tech_shift = _small_int(_("Tech shift"), -5, 3, initial=0, help_text=_("+1…+3 low-tech, −1…−5 high-tech"))

    class Meta:
        model = Armour
        fields = ["name", "hardness", "coverage", "nim_penalty", "tech_shift", "worn", "skilled", "fate"]
        labels = {"name": _("Name"), "worn": _("Worn"), "skilled": _("Has an appropriate skill (cost halved)"),
                  "fate": _("After this adventure (GM)")}


class LanguageForm(forms.ModelForm):
    spoken = _small_int(_("Spoken"), 0, 3, initial=0)
    heard = _small_int(_("Heard"), 0, 3, initial=0)
    written = _small_int(_("Written"), 0, 3, initial=0)
    read = _small_int(_("Read"), 0, 3, initial=0)

    era_steps = _small_int(_("Era steps away (GM)"), 0, 50, initial=0)
    era_step_loss = forms.DecimalField(min_value=0, max_value=Decimal("0.5"), decimal_places=2, initial=0, required=False,
                                       label=_("Ranks lost per step (GM)"))

    class Meta:
        model = Language
        fields = ["name", "era", "native", "spoken", "heard", "written", "read", "era_steps", "era_step_loss"]
        labels = {"name": _("Name"), "era": _("Era"), "native": _("Native")}

    def clean_era_step_loss(self):
        return self.cleaned_data.get("era_step_loss") or 0


LINE_FORMS = {
    "skills": SkillForm, "disadvantages": DisadvantageForm, "equipment": EquipmentForm,
    "weapons": WeaponForm, "armour": ArmourForm, "languages": LanguageForm,
}

#: What the GM picks when classifying a pending line; weapons and armour are confirmed as priced.
CLASSIFY_CHOICES = {
    "skills": ("breadth", Breadth.choices),
    "disadvantages": ("value", DISADVANTAGE_VALUES),
    "equipment": ("breadth", GENERAL_BREADTH_CHOICES),
}


def line_form(kind: str, *args, character, prefix_id=None, **kwargs) -> forms.ModelForm:
    """Return the form for a line of ``kind`` on ``character``'s sheet; ``prefix_id`` keeps edit
    forms' ids unique on a page."""
    prefix = f"{kind}-{prefix_id}" if prefix_id else f"{kind}-new"
    if kind == "weapons":  # its skill is one of the character's own
        kwargs["character"] = character
    form = LINE_FORMS[kind](*args, prefix=prefix, **kwargs)
    form.fields["name"].validators.append(validate_name)  # the field is this form's own copy
    return form


class ClassifyForm(forms.Form):
    def __init__(self, *args, kind: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.kind = kind
        if kind in CLASSIFY_CHOICES:
            name, choices = CLASSIFY_CHOICES[kind]
            self.fields[name] = (forms.TypedChoiceField(choices=choices, coerce=int) if name == "value"
                                 else forms.ChoiceField(choices=choices))

    def service_data(self) -> dict:
        return {**self.cleaned_data, "classified": True}


class ReturnForm(forms.Form):
    comment = forms.CharField(label=_("What should the player change?"), max_length=limits.REVIEW_COMMENT,
                              widget=forms.Textarea(attrs={"rows": 2}))


class StateForm(forms.Form):
    state = forms.ChoiceField(choices=[(s, s.label) for s in (Character.State.ACTIVE, Character.State.DEAD,
                                                              Character.State.RETIRED)])


class NotesForm(forms.Form):
    gm_notes = forms.CharField(label=_("GM notes (players never see these)"), required=False, max_length=limits.GM_NOTES,
                               widget=forms.Textarea(attrs={"rows": 4}))


class RevertForm(forms.Form):
    """A point of the sheet's history: a record of the character itself, or the moment of a line's change."""

    history_id = forms.IntegerField(min_value=1, required=False)
    at = forms.DateTimeField(required=False)

    def clean(self):
        data = super().clean()
        if not data.get("history_id") and not data.get("at"):
            raise forms.ValidationError(_("Pick a point in the sheet's history."))
        return data

    def service_data(self) -> dict:
        data = self.cleaned_data
        return {"history_id": data["history_id"]} if data.get("history_id") else {"at": data["at"]}
