"""The check builder's form: the situation's terms as a page sends them (text in, a
``Situation`` out), shared by a sheet line's Roll form and the GM's check builder."""

from __future__ import annotations

from fractions import Fraction

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rulebook.languages import ACTIVELY_LOOKING_MAX
from rulebook.situation import COVER_MAX, Situation
from rulebook.tables import LOAD_FACTORS, as_fraction

from .checks import COUNT_LIMIT, MODIFIER_LIMIT

#: The "Skill Standards" ranks, offered as names when the assistants are not on a sheet.
ASSISTANTS_MAX = 200
ASSISTANT_RANKS_MAX = 30
AMOUNT_MAX = Fraction(10**12)
#: How a load counts, said in words: the select's options (the values stay the rulebook's keys).
LOAD_KIND_LABELS = {"balanced": gettext_lazy("balanced"), "unbalanced": gettext_lazy("unbalanced"),
                    "distributed": gettext_lazy("distributed")}


def load_kinds() -> list[tuple[str, str]]:
    """The load kinds as (value, words) for a form's select."""
    return [(kind, LOAD_KIND_LABELS.get(kind, kind)) for kind in LOAD_FACTORS]


class AmountField(forms.CharField):
    """A non-negative amount typed as "2", "0.5" or "1/2" (the time chart reads ratios)."""

    def __init__(self, *, positive: bool = False, **kwargs):
        self.positive = positive
        super().__init__(required=False, max_length=30, **kwargs)

    def clean(self, value):
        text = (super().clean(value) or "").strip().replace(",", ".").replace("−", "-")
        if not text:
            return None
        try:
            amount = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise forms.ValidationError(_("%(label)s is a number such as 2, 0.5 or 1/2.")
                                        % {"label": self.label}) from None
        if amount < 0 or (self.positive and amount == 0) or amount > AMOUNT_MAX:
            raise forms.ValidationError((_("%(label)s must be above 0.") if self.positive
                                         else _("%(label)s must be at least 0.")) % {"label": self.label})
        return amount


def _whole(label: str, low: int, high: int, **kwargs) -> forms.IntegerField:
    return forms.IntegerField(label=label, required=False, min_value=low, max_value=high, **kwargs)


class SituationForm(forms.Form):
    """Every term a situation adds; empty fields add nothing. ``situation()`` after ``is_valid()``."""

    modifier = _whole(gettext_lazy("Modifier"), -MODIFIER_LIMIT, MODIFIER_LIMIT)
    relevant = _whole(gettext_lazy("Further relevant skills/equipment (+2 each)"), 0, COUNT_LIMIT)
    indirect = _whole(gettext_lazy("Indirectly related skills (+1 each, unproficient)"), 0, COUNT_LIMIT)
    time_taken = AmountField(label=gettext_lazy("Time taken (× normal)"))
    aim_seconds = AmountField(label=gettext_lazy("Aimed (seconds)"))
    range_m = AmountField(label=gettext_lazy("Range (m)"), positive=True)
    size_index = _whole(gettext_lazy("Target size index"), -8, 25)
    cover = _whole(gettext_lazy("Cover (size steps)"), 0, COVER_MAX)
    looking = _whole(gettext_lazy("Actively looking (+0 to +5)"), 0, ACTIVELY_LOOKING_MAX)
    delicacy_mm = AmountField(label=gettext_lazy("Tolerance (mm)"), positive=True)
    scaling = AmountField(label=gettext_lazy("Tools' scaling (×)"), positive=True)
    load_kg = AmountField(label=gettext_lazy("Load (kg)"), positive=True)
    load_kind = forms.ChoiceField(label=gettext_lazy("Load kind"), required=False,
                                  choices=load_kinds())
    bearers = _whole(gettext_lazy("Bearers"), 1, 100)
    assistants = forms.CharField(label=gettext_lazy("Assistants' ranks"), required=False, max_length=800,
                                 help_text=gettext_lazy("One number per assistant: 3 expert, 2 skilled, 1 trainee, "
                                                        "0 unskilled."))
    extra = _whole(gettext_lazy("Extra-benefit dice"), 0, 12)
    eventual = forms.BooleanField(label=gettext_lazy("Eventual success: the margin says how long it took"),
                                  required=False)
    desired_margin = _whole(gettext_lazy("Desired margin"), -30, 30)
    normal_time = AmountField(label=gettext_lazy("Normal time"), positive=True)
    time_unit = forms.CharField(label=gettext_lazy("Unit"), required=False, max_length=20)

    def clean_assistants(self):
        text = self.cleaned_data.get("assistants") or ""
        parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p.strip()]
        if len(parts) > ASSISTANTS_MAX:
            raise forms.ValidationError(_("At most %(most)s assistants.") % {"most": ASSISTANTS_MAX})
        try:
            ranks = tuple(int(p) for p in parts)
        except ValueError:
            raise forms.ValidationError(_("List each assistant's ranks as a whole number, e.g. 2, 1.")) from None
        if any(not 0 <= r <= ASSISTANT_RANKS_MAX for r in ranks):
            raise forms.ValidationError(_("An assistant's ranks run from 0 to %(most)s.")
                                        % {"most": ASSISTANT_RANKS_MAX})
        return ranks

    def situation(self) -> Situation:
        d = self.cleaned_data
        return situation_of(d)

    def eventual_request(self) -> dict | None:
        return eventual_of(self.cleaned_data)

    def first_error(self) -> tuple[str, str]:
        """(field, message) of the first thing wrong, for a one-line answer."""
        for name, errors in self.errors.items():
            return name, f"{self.fields[name].label}: {errors[0]}" if name in self.fields else errors[0]
        return "", ""


def situation_of(d: dict) -> Situation:
    """A ``Situation`` from cleaned values (the form's or the API serializer's); amounts become
    exact fractions (a JSON 0.1 is 1/10)."""
    def amount(name: str) -> Fraction | None:
        return None if d.get(name) is None else as_fraction(d[name])

    delicacy = amount("delicacy_mm")
    return Situation(
        modifier=d.get("modifier") or 0, relevant=d.get("relevant") or 0, indirect=d.get("indirect") or 0,
        time_taken=amount("time_taken"), aim_seconds=amount("aim_seconds"), range_m=amount("range_m"),
        size_index=d.get("size_index") or 0, cover=d.get("cover") or 0, looking=d.get("looking") or 0,
        delicacy_m=None if delicacy is None else delicacy / 1000, scaling=amount("scaling"),
        load_kg=amount("load_kg"), load_kind=d.get("load_kind") or "unbalanced", bearers=d.get("bearers") or 1,
        assistants=tuple(d.get("assistants") or ()),
    )


def eventual_of(d: dict) -> dict | None:
    if not d.get("eventual"):
        return None
    return {"desired": d.get("desired_margin") or 0, "normal": d.get("normal_time") or 1,
            "unit": d.get("time_unit") or "hours"}
