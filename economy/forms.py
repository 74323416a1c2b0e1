"""Forms of the economy pages: they parse what a person typed; the services decide the rules.

Each form takes the choices it offers (characters, disadvantages…) from the view, so a choice
outside them is a field error (400) before any service runs.
"""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from characters.models import STAT_FIELDS
from rulebook import RulesError
from rulebook.karma import stat_raise_cost
from rulebook.stats import PRIMARY_STATS, STAT_MAX
from rulebook.tables import time_multiplier
from zenergate_site import limits
from zenergate_site.text import validate_name

from .models import Adventure, Complication, MacGuffin

#: The Karma spends a page offers, in the order of the article's "Other Uses For Karma".
SPEND_CHOICES = [
    ("reroll", _("Reroll a failed roll (1)")),
    ("assist", _("+5 to another's roll (1)")),
    ("skill_points", _("Skill points (2 per Karma)")),
    ("stat_raise", _("Raise a stat")),
    ("disadvantage_removal", _("Remove a disadvantage rank (1)")),
    ("good_fortune", _("Stroke of good fortune (GM)")),
    ("delay_transition", _("Delay a Zener Transition")),
    ("setback_payoff", _("Pay off a setback (GM, 1 per point)")),
]
MACGUFFIN_PRESETS = [("4", _("4 · minor improvement")), ("10", _("10 · new capability")),
                     ("20", _("20 · limitation removed")), ("other", _("Other"))]


def new_key() -> str:
    """Return a fresh idempotency key, generated when a form is rendered."""
    return uuid.uuid4().hex


class KeyedForm(forms.Form):
    """A form that carries an idempotency key so a double-click posts once."""

    idempotency_key = forms.CharField(max_length=limits.IDEMPOTENCY_KEY, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("idempotency_key", new_key())


def stat_choices(character) -> list[tuple[str, str]]:
    """Return each stat with its value now and the Karma its next point costs."""
    choices = [("", gettext("Pick a stat"))]
    for code in PRIMARY_STATS:
        value = getattr(character, STAT_FIELDS[code])
        try:
            label = (gettext("%(stat)s %(value)s → %(next)s · %(cost)s Karma")
                     % {"stat": code, "value": value, "next": value + 1, "cost": stat_raise_cost(value)}
                     if value < STAT_MAX else gettext("%(stat)s %(value)s (maximum)") % {"stat": code, "value": value})
        except RulesError:
            label = f"{code} {value}"
        choices.append((code, label))
    return choices


def with_rank(disadvantage) -> str:
    """A disadvantage as a choice: its name and its rank."""
    return gettext("%(name)s (rank %(ranks)s)") % {"name": disadvantage.name, "ranks": disadvantage.ranks}


class SpendForm(KeyedForm):
    kind = forms.ChoiceField(choices=SPEND_CHOICES, widget=forms.RadioSelect, initial="reroll")
    helped = forms.TypedChoiceField(coerce=int, required=False, label=_("Character you help"))
    amount = forms.IntegerField(min_value=1, max_value=1000, required=False, label=_("Karma to convert"))
    stat = forms.ChoiceField(required=False, label=_("Stat"))
    disadvantage = forms.TypedChoiceField(coerce=int, required=False, label=_("Disadvantage"))
    override = forms.BooleanField(required=False, label=_("GM: allow another rank this adventure"))
    cost = forms.IntegerField(min_value=1, max_value=1000, required=False,
                              label=_("Cost (successful rolls replaced)"))
    time_index = forms.IntegerField(min_value=1, max_value=40, required=False, label=_("Delay (time-chart index)"))
    reason = forms.CharField(max_length=limits.KARMA_REASON, required=False, label=_("Why (optional)"))

    #: What each kind needs, with the message shown when it is missing.
    NEEDS = {
        "assist": ("helped", _("Pick the character you help.")),
        "skill_points": ("amount", _("Say how much Karma to convert.")),
        "stat_raise": ("stat", _("Pick the stat to raise.")),
        "disadvantage_removal": ("disadvantage", _("Pick the disadvantage to reduce.")),
        "good_fortune": ("cost", _("Enter the cost: the number of successful rolls it replaces.")),
        "delay_transition": ("time_index", _("Enter the delay as a time-chart index.")),
        "setback_payoff": ("stat", _("Pick the stat the setback lowered.")),
    }

    def __init__(self, *args, character, others, disadvantages, can_delay: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        # Not offered before the three upgrades (the page hides it); a request for it still reaches
        # the service, which names the upgrades still missing.
        self.can_delay = can_delay
        # The time chart beside the delay: index → how many times longer the stay becomes.
        self.time_chart = [(index, time_multiplier(index)) for index in range(1, 14)]
        self.fields["helped"].choices = [("", gettext("Pick a character"))] + [(c.pk, c.name) for c in others]
        self.fields["stat"].choices = stat_choices(character)
        self.fields["disadvantage"].choices = [("", gettext("Pick a disadvantage"))] + [
            (d.pk, with_rank(d)) for d in disadvantages]

    def clean(self):
        data = super().clean()
        need = self.NEEDS.get(data.get("kind"))
        if need and need[0] not in self.errors and data.get(need[0]) in (None, ""):
            self.add_error(need[0], need[1])
        return data

    def spend_params(self) -> dict:
        """Return the service's parameters for the chosen kind (and nothing the kind ignores)."""
        data, kind = self.cleaned_data, self.cleaned_data["kind"]
        params = {"reason": data.get("reason") or ""}
        field = self.NEEDS.get(kind, (None,))[0]
        if field:
            params[{"helped": "character"}.get(field, field)] = data.get(field)
        if kind == "disadvantage_removal" and data.get("override"):
            params["override"] = True
        return params


class AwardForm(KeyedForm):
    KINDS = [("complication", _("GM complication (+2 each)")), ("npc_boost", _("NPC +10 boost (+1 each)")),
             ("manual", _("Manual correction (±)"))]
    kind = forms.ChoiceField(choices=KINDS, widget=forms.RadioSelect, initial="complication")
    characters = forms.TypedMultipleChoiceField(coerce=int, widget=forms.CheckboxSelectMultiple,
                                                label=_("Characters"))
    amount = forms.IntegerField(min_value=-1000, max_value=1000, required=False,
                                label=_("Amount (manual only; negative to correct)"))
    reason = forms.CharField(max_length=limits.KARMA_REASON, label=_("Why"))

    def __init__(self, *args, characters, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["characters"].choices = [(c.pk, c.name) for c in characters]

    def clean(self):
        data = super().clean()
        if data.get("kind") == "manual" and "amount" not in self.errors and not data.get("amount"):
            self.add_error("amount", gettext("A manual award needs a non-zero amount."))
        return data


class AdventureStartForm(forms.Form):
    name = forms.CharField(max_length=limits.ADVENTURE_NAME, label=_("Adventure"), validators=[validate_name])
    base_xp = forms.IntegerField(min_value=0, max_value=100, initial=2, label=_("Base XP"),
                                 help_text=_("Typically 1–3 per session."))


class TokenForm(forms.Form):
    note = forms.CharField(max_length=limits.TOKEN_NOTE, required=False, label=_("Bad news"),
                           widget=forms.TextInput(attrs={"placeholder": _("What went wrong (+1 XP)")}))


class CloseForm(forms.Form):
    outcome = forms.ChoiceField(choices=Adventure.Outcome.choices, widget=forms.RadioSelect, initial="none")
    permanent = forms.BooleanField(required=False, label=_("The solution is permanent (×2)"))
    selfish = forms.TypedMultipleChoiceField(coerce=int, required=False, widget=forms.CheckboxSelectMultiple,
                                             label=_("Selfish or amoral (−1)"))

    def __init__(self, *args, characters, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["selfish"].choices = [(c.pk, c.name) for c in characters]


class MacGuffinForm(forms.Form):
    name = forms.CharField(max_length=limits.MACGUFFIN_NAME, validators=[validate_name], label=_("Name"),
                           widget=forms.TextInput(attrs={"placeholder": _("Crystal radio set")}))
    limitation = forms.CharField(max_length=limits.MACGUFFIN_LIMITATION, required=False,
                                 label=_("Limitation it lifts"))
    target_preset = forms.ChoiceField(choices=MACGUFFIN_PRESETS, widget=forms.RadioSelect, initial="4",
                                      label=_("Target"))
    target = forms.IntegerField(min_value=1, max_value=1000, required=False, label=_("Target in Karma"))
    upgrade = forms.ChoiceField(choices=MacGuffin.Upgrade.choices, required=False,
                                label=_("Unlocks (one of the three upgrades for delaying transitions)"))

    def clean(self):
        data = super().clean()
        preset = data.get("target_preset")
        if preset and preset != "other":
            data["target"] = int(preset)
        elif preset == "other" and "target" not in self.errors and not data.get("target"):
            self.add_error("target", gettext("Enter the target in Karma."))
        return data


class ContributionForm(KeyedForm):
    character = forms.TypedChoiceField(coerce=int, label=_("From"))
    amount = forms.IntegerField(min_value=1, max_value=1000, initial=1, label=_("Karma"))

    def __init__(self, *args, characters, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [
            (c.pk, gettext("%(name)s (%(karma)s Karma)") % {"name": c.name, "karma": c.karma}) for c in characters]


class ComplicationForm(forms.Form):
    cause = forms.ChoiceField(choices=Complication.Cause.choices, label=_("Cause"))
    form = forms.ChoiceField(choices=Complication.Form.choices, widget=forms.RadioSelect, label=_("Form"))
    ranks = forms.IntegerField(min_value=1, max_value=20, label=_("Ranks"))
    description = forms.CharField(max_length=limits.COMPLICATION_DESCRIPTION, label=_("What happens"),
                                  widget=forms.TextInput(attrs={"placeholder": _("The radio gives them away")}))
    nullify = forms.TypedChoiceField(coerce=int, required=False, empty_value=None,
                                     label=_("Debt: the disadvantage it nullifies (optional)"))
    worsen = forms.TypedMultipleChoiceField(coerce=int, required=False, widget=forms.CheckboxSelectMultiple,
                                            label=_("Disadvantages to worsen"))
    stat = forms.ChoiceField(required=False, choices=[("", "—")] + [(c, c) for c in PRIMARY_STATS],
                             label=_("Stat lost (semi-permanent)"))

    def __init__(self, *args, disadvantages, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(d.pk, with_rank(d)) for d in disadvantages]
        self.fields["nullify"].choices = [("", "—")] + choices
        self.fields["worsen"].choices = choices
