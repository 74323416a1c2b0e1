"""Downtime and transition forms: one row of choices per character in play."""

from __future__ import annotations

import uuid
from decimal import Decimal

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rulebook.dice import check_odds
from rulebook.radiation import CATEGORIES, TRANSITION_SAVE_MODIFIER
from rulebook.recovery import REST_KINDS
from rulebook.stats import STAT_CHECK_DICE
from zenergate_site import limits
from zenergate_site.text import validate_name

from . import transitions
from .services import MAX_DOWNTIME_HOURS

REST_CHOICES = [("comfortable", gettext_lazy("Comfortable sleep")), ("rough", gettext_lazy("Rough sleep")),
                ("awake", gettext_lazy("Resting awake")), ("none", gettext_lazy("No rest (travel, work)"))]
assert [k for k, _ in REST_CHOICES] == list(REST_KINDS)
CATEGORY_CHOICES = [("1", gettext_lazy("1 · tranquil")), ("2", gettext_lazy("2 · normal")),
                    ("3A", gettext_lazy("3A · heavy, long-term")), ("3B", gettext_lazy("3B · heavy, short-term"))]
assert [k for k, _ in CATEGORY_CHOICES] == list(CATEGORIES)


def parse_faces(text: str) -> list[int]:
    """Read faces typed at the table: "6 6 5 4" or "6,6,5,4"."""
    parts = (text or "").replace(",", " ").split()
    if not all(p.isdigit() for p in parts):
        raise forms.ValidationError(_("Type the faces as whole numbers, e.g. 6 5 4 4."))
    return [int(p) for p in parts]


class DowntimeForm(forms.Form):
    """Hours and rest for everyone, then per character: rest, medic, treatment, dice."""

    hours = forms.IntegerField(min_value=1, max_value=MAX_DOWNTIME_HOURS, initial=24, label=gettext_lazy("Hours"),
                               help_text=gettext_lazy("In-game hours between sessions."))
    rest = forms.ChoiceField(choices=REST_CHOICES, initial="comfortable", label=gettext_lazy("Rest for everyone"))
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=limits.IDEMPOTENCY_KEY)

    def __init__(self, *args, characters=(), therapies=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.characters = list(characters)
        self.fields["idempotency_key"].initial = uuid.uuid4().hex
        medic_choices = [("", _("no medic"))] + [(str(c.pk), c.name) for c in self.characters]
        treatment_choices = ([("", _("none")), ("stimutabs", _("Stimutabs")), ("hyperbaric", _("Hyperbaric chamber"))]
                             + [(f"therapy:{t.pk}", t.name) for t in therapies])
        for c in self.characters:
            self.fields[f"rest_{c.pk}"] = forms.ChoiceField(choices=[("", _("as everyone"))] + REST_CHOICES,
                                                            required=False, label=_("Rest"))
            self.fields[f"medic_{c.pk}"] = forms.ChoiceField(choices=medic_choices, required=False, label=_("Medic"))
            self.fields[f"equipment_{c.pk}"] = forms.IntegerField(min_value=0, max_value=10, required=False,
                                                                  label=_("Medical kit ranks"))
            self.fields[f"treatment_{c.pk}"] = forms.ChoiceField(choices=treatment_choices, required=False,
                                                                 label=_("Treatment"))
            self.fields[f"as_end_{c.pk}"] = forms.IntegerField(min_value=0, max_value=20, required=False,
                                                               label=_("Therapy: points as END"))
            self.fields[f"dice_{c.pk}"] = forms.CharField(required=False, max_length=200,
                                                          label=_("Dice from the table"))

    def rows(self):
        """Yield (character, its bound fields) for the per-character table."""
        for c in self.characters:
            yield c, [self[f"{name}_{c.pk}"] for name in ("rest", "medic", "equipment", "treatment", "as_end", "dice")]

    def request_data(self) -> dict:
        """Return the request in the API's shape (the service validates the rest)."""
        data = self.cleaned_data
        out = {"hours": data["hours"], "rest": data["rest"], "idempotency_key": data["idempotency_key"],
               "rest_by_character": {}, "medical": {}, "therapies": [], "dice": {}}
        for c in self.characters:
            if data.get(f"rest_{c.pk}"):
                out["rest_by_character"][c.pk] = data[f"rest_{c.pk}"]
            medic, kit = data.get(f"medic_{c.pk}"), data.get(f"equipment_{c.pk}") or 0
            if medic or kit:
                out["medical"][c.pk] = {"medic": int(medic) if medic else None, "equipment_ranks": kit}
            treatment = data.get(f"treatment_{c.pk}")
            if treatment:
                kind, _colon, therapy = treatment.partition(":")
                out["therapies"].append({"character": c.pk, "kind": kind, "therapy": int(therapy) if therapy else None,
                                         "as_end": data.get(f"as_end_{c.pk}") or 0})
            faces = data.get(f"dice_{c.pk}")
            if faces:
                out["dice"][c.pk] = faces
        return out

    def clean(self):
        cleaned = super().clean()
        for c in self.characters:
            try:
                cleaned[f"dice_{c.pk}"] = parse_faces(cleaned.get(f"dice_{c.pk}", ""))
            except forms.ValidationError as exc:
                self.add_error(f"dice_{c.pk}", exc)
        return cleaned


class TransitionForm(forms.Form):
    category = forms.ChoiceField(choices=CATEGORY_CHOICES, initial="2", widget=forms.RadioSelect)
    characters = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple)
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=limits.IDEMPOTENCY_KEY)

    #: The damage dice by outcome, as the dice boxes' hint says them.
    DAMAGE_DICE = gettext_lazy("d3 if saved; else d6 (category 1 or 2), 2d6 (3A), d6 then 2d6 (3B)")

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.characters = list(characters)
        self.fields["characters"].choices = [(str(c.pk), c.name) for c in self.characters]
        self.fields["characters"].initial = [str(c.pk) for c in self.characters]
        self.fields["idempotency_key"].initial = uuid.uuid4().hex
        for c in self.characters:
            self.fields[f"damage_{c.pk}"] = forms.CharField(
                required=False, max_length=60, label=_("%(name)s: damage dice") % {"name": c.name},
                widget=forms.TextInput(attrs={"inputmode": "numeric", "pattern": "[1-6]([ ,]+[1-6])*",
                                              "title": _("d6 faces (a d3 is 1 to 3), with spaces")}))

    def _save_faces(self, c) -> list[str]:
        getlist = getattr(self.data, "getlist", None)
        return [f.strip() for f in (getlist(f"save_{c.pk}") if getlist else []) if f and f.strip()]

    def clean(self):
        cleaned = super().clean()
        for c in self.characters:
            saved = self._save_faces(c)
            if not all(f.isdigit() and 1 <= int(f) <= 6 for f in saved):
                self.add_error(None, _("%(name)s: each CON save die is a face from 1 to 6.") % {"name": c.name})
            try:
                cleaned[f"damage_{c.pk}"] = parse_faces(cleaned.get(f"damage_{c.pk}", ""))
            except forms.ValidationError as exc:
                self.add_error(f"damage_{c.pk}", exc)
        return cleaned

    def dice(self) -> dict:
        """The dice typed at the table, by character and slot (``transitions.TRANSITION_SLOTS``)."""
        out = {}
        for c in self.characters:
            slots = {"save": [int(f) for f in self._save_faces(c)], "damage": self.cleaned_data.get(f"damage_{c.pk}")}
            slots = {name: faces for name, faces in slots.items() if faces}
            if slots:
                out[c.pk] = slots
        return out

    def dice_rows(self) -> list[dict]:
        """One row per character for the template: its save boxes (4, or more under the miracle
        rule, from its CON now) and its damage field."""
        rows = []
        for c in self.characters:
            target = transitions.con_now(c) + TRANSITION_SAVE_MODIFIER
            rows.append({"character": c, "save_boxes": range(1, check_odds(target, STAT_CHECK_DICE).dice + 1),
                         "damage": self[f"damage_{c.pk}"]})
        return rows


class TherapyForm(forms.Form):
    """An anti-radiation therapy as the GM writes it: dice like d3, 2d6, or 0 for none."""

    name = forms.CharField(max_length=limits.THERAPY_NAME, validators=[validate_name], label=gettext_lazy("Name"))
    con_healed = forms.IntegerField(min_value=0, max_value=3, initial=1,
                                    label=gettext_lazy("Long-term CON healed at once"))
    extra_reduction = forms.CharField(max_length=limits.THERAPY_DICE, initial="d3",
                                      label=gettext_lazy("Repeat extra removed"))
    track_steps_back = forms.CharField(max_length=limits.THERAPY_DICE, initial="d3",
                                       label=gettext_lazy("Track steps back"))
    shock = forms.CharField(max_length=limits.THERAPY_DICE, initial="d6", label=gettext_lazy("Shock suffered"))
    trauma = forms.CharField(max_length=limits.THERAPY_DICE, initial="d3", label=gettext_lazy("Trauma suffered"))
    efficacy_loss = forms.IntegerField(min_value=0, max_value=3, initial=0,
                                       label=gettext_lazy("Efficacy lost per earlier use"))


class TreatNowForm(forms.Form):
    """A therapy or Stimutabs given now, outside a downtime."""

    character = forms.ChoiceField(label=gettext_lazy("Character"))
    treatment = forms.ChoiceField(label=gettext_lazy("Treatment"))
    as_end = forms.IntegerField(min_value=0, max_value=20, required=False, label=gettext_lazy("Therapy: points as END"))
    dice = forms.CharField(required=False, max_length=200, label=gettext_lazy("Dice from the table"))
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=limits.IDEMPOTENCY_KEY)

    def __init__(self, *args, characters=(), therapies=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [(str(c.pk), c.name) for c in characters]
        self.fields["treatment"].choices = [("stimutabs", _("Stimutabs"))] + [(f"therapy:{t.pk}", t.name)
                                                                             for t in therapies]
        self.fields["idempotency_key"].initial = uuid.uuid4().hex

    def clean_dice(self):
        return parse_faces(self.cleaned_data.get("dice", ""))


class ActivityForm(forms.Form):
    """END spent by activity ("Endurance"): the chosen characters, what they did and for how long."""

    characters = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple, label=gettext_lazy("Who"))
    activity = forms.ChoiceField(choices=[("ordinary", gettext_lazy("ordinary (1 END per half hour)")),
                                          ("strenuous", gettext_lazy("strenuous (4 END per hour)"))],
                                 label=gettext_lazy("Activity"))
    minutes = forms.IntegerField(min_value=1, max_value=60 * 24 * 14, initial=60, label=gettext_lazy("Minutes"))
    reason = forms.CharField(required=False, max_length=limits.WOUNDS_REASON, label=gettext_lazy("What (for the log)"))

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["characters"].choices = [(str(c.pk), c.name) for c in characters]
        self.fields["characters"].initial = [str(c.pk) for c in characters]


class ImmersionForm(forms.Form):
    """Hours of immersion in one language of one character ("In-game language acquisition")."""

    language = forms.ChoiceField(label=gettext_lazy("Who and which language"))
    hours = forms.DecimalField(min_value=Decimal("0.25"), max_value=24 * 120, decimal_places=2, initial=8,
                               label=gettext_lazy("Hours immersed"))
    aspect = forms.ChoiceField(choices=[("", gettext_lazy("as before")), ("spoken", gettext_lazy("spoken")),
                                        ("heard", gettext_lazy("heard")), ("written", gettext_lazy("written")),
                                        ("read", gettext_lazy("read"))], required=False,
                               label=gettext_lazy("Aspect it raises"))
    era_gap = forms.IntegerField(min_value=0, max_value=10, required=False,
                                 label=gettext_lazy("Era gap to pay off (ranks)"))
    related = forms.IntegerField(min_value=0, max_value=10, required=False,
                                 label=gettext_lazy("Related languages (+2 each)"))
    new_language = forms.BooleanField(required=False,
                                      label=gettext_lazy("Not held at all yet (3 h earn it at 0 ranks)"))
    modifier = forms.IntegerField(min_value=-50, max_value=50, required=False, label=gettext_lazy("GM modifier"))
    dice = forms.CharField(required=False, max_length=200,
                           label=gettext_lazy("LAN check dice from the table (4 a check)"))
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=limits.IDEMPOTENCY_KEY)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [
            (c.name, [(f"{c.pk}:{lang.pk}", f"{c.name}: {lang.name}") for lang in c.languages.all()])
            for c in characters if c.languages.all()]
        self.fields["idempotency_key"].initial = uuid.uuid4().hex

    def clean_dice(self):
        return parse_faces(self.cleaned_data.get("dice", ""))

    def target(self) -> tuple[int, int]:
        character, _colon, language = self.cleaned_data["language"].partition(":")
        return int(character), int(language)
