from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rulebook.systems import SYSTEMS
from zenergate_site import limits
from zenergate_site.text import validate_name

from .models import Campaign, Invitation, Membership

#: What a character sheet holds under each rule set, said under the rule set on the settings page.
SHEETS_HOLD = {
    "zener": gettext_lazy("Its sheets hold the 13 stats, skills with their ranks, disadvantages, equipment, weapons, "
                          "Karma and XP."),
    "zerospace": gettext_lazy("Its sheets hold skills as action values (attribute plus equipment rating), Brawn, "
                              "Presence, the defence value (DV) and plot points."),
    "success_check": gettext_lazy("Its sheets hold skills as skill bonuses (ranks plus two attributes), Strength, "
                                  "Edge up to its maximum, Health and armour (PT and DR)."),
    "rocket_house": gettext_lazy("Its sheets hold Traits in percent, Toughness, Strength, armour and the Strength "
                                 "Effect pool."),
    "core_rules": gettext_lazy("Its sheets hold skills as KS, US and ES scores, Build, State of Mind, Empathy, "
                               "Perception and the kilograms carried."),
}
RULE_SET_HELP = gettext_lazy("The roller and the roll feed's checks follow it.")


class CampaignForm(forms.Form):
    name = forms.CharField(max_length=limits.CAMPAIGN_NAME, validators=[validate_name], label=gettext_lazy("Name"))
    description = forms.CharField(max_length=limits.CAMPAIGN_DESCRIPTION, required=False,
                                  widget=forms.Textarea(attrs={"rows": 2}), label=gettext_lazy("Description"))
    stat_entry = forms.ChoiceField(choices=Campaign.StatEntry.choices, initial=Campaign.StatEntry.ENTER,
                                   label=gettext_lazy("Stat entry"))


class CampaignSettingsForm(forms.Form):
    name = forms.CharField(max_length=limits.CAMPAIGN_NAME, validators=[validate_name], label=gettext_lazy("Name"))
    description = forms.CharField(max_length=limits.CAMPAIGN_DESCRIPTION, required=False,
                                  widget=forms.Textarea(attrs={"rows": 2}), label=gettext_lazy("Description"))
    stat_entry = forms.ChoiceField(choices=Campaign.StatEntry.choices, label=gettext_lazy("Stats"))
    stat_dice = forms.CharField(max_length=limits.STAT_DICE, label=gettext_lazy("Stat dice (when rolled in the app)"),
                                help_text=gettext_lazy("d20 notation: 4d6, 3d6+6, 4d6kh3 (keep the highest 3). Every "
                                                       "total must fall in 1–40."))
    max_skill_ranks = forms.IntegerField(min_value=1, max_value=10, label=gettext_lazy("Most ranks in one skill"),
                                         help_text=gettext_lazy("The article's default is 3."))
    typed_dice = forms.ChoiceField(choices=Campaign.TypedDice.choices, label=gettext_lazy("Dice players type at the table"),
                                   required=False,
                                   help_text=gettext_lazy("For their own actions; the GM may type any die. Typed dice "
                                                          "are marked in the roll feed."))
    # The rule sets' names are the rulebook's, marked there and translated where shown.
    rule_set = forms.ChoiceField(choices=[(key, gettext_lazy(rule_set.name)) for key, rule_set in SYSTEMS.items()],
                                 label=gettext_lazy("Rule set for checks and the roller"), required=False,
                                 help_text=RULE_SET_HELP)

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        # The current rule set's rulings, one field each (a new rule set starts from its defaults).
        self.rule_set_key = campaign.rule_set
        # What the sheets of the campaign's rule set hold (each rule set its own).
        sheets = SHEETS_HOLD.get(campaign.rule_set)
        self.fields["rule_set"].help_text = f"{RULE_SET_HELP} {sheets}" if sheets else RULE_SET_HELP
        for param in SYSTEMS[campaign.rule_set].rulings:
            initial = (campaign.rulings or {}).get(param.name, param.default)
            if param.choices:
                field = forms.TypedChoiceField(choices=[(c, str(c)) for c in param.choices], coerce=int,
                                               initial=initial)
            else:
                field = forms.IntegerField(min_value=param.minimum, max_value=param.maximum, initial=initial)
            field.label = _("Ruling: %(label)s") % {"label": _(param.label)}  # the rulebook's words, marked there
            field.help_text, field.required = _(param.help) if param.help else "", False
            self.fields[f"ruling_{param.name}"] = field

    def service_data(self) -> dict:
        data = {k: v for k, v in self.cleaned_data.items() if not k.startswith("ruling_")}
        if not data.get("typed_dice"):  # a form without the field keeps the setting
            data.pop("typed_dice", None)
        data["rule_set"] = data.get("rule_set") or self.rule_set_key  # a form without the field keeps it
        if data["rule_set"] == self.rule_set_key:
            data["rulings"] = {k[len("ruling_"):]: v for k, v in self.cleaned_data.items()
                               if k.startswith("ruling_") and v not in (None, "")}
        return data


class MemberAddForm(forms.Form):
    username = forms.CharField(max_length=limits.USERNAME, label=gettext_lazy("Username"))
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.PLAYER, label=gettext_lazy("Role"))


class AccountForm(forms.Form):
    """A new player's account: the app makes a one-time password for the GM to pass on."""

    username = forms.CharField(max_length=limits.USERNAME, label=gettext_lazy("New player's username"),
                               validators=[validate_name])
    email = forms.EmailField(required=False, label=gettext_lazy("Their email (optional: for password reset links)"))
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.PLAYER, label=gettext_lazy("Role"))


class InvitationForm(forms.Form):
    """An invitation link: for one person (used once) or for anyone until a date."""

    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.PLAYER, label=gettext_lazy("Role"))
    reach = forms.ChoiceField(choices=[("one", gettext_lazy("one person (the link works once)")),
                                       ("until", gettext_lazy("anyone with the link, until the date"))], initial="one",
                              label=gettext_lazy("For"))
    until = forms.DateField(required=False, label=gettext_lazy("Until (for anyone)"),
                            widget=forms.DateInput(attrs={"type": "date"}))
    max_uses = forms.IntegerField(min_value=Invitation.USES.low, max_value=Invitation.USES.high,
                                  initial=Invitation.USES_DEFAULT, required=False,
                                  label=gettext_lazy("At most this many people (for anyone)"))

    def service_data(self) -> dict:
        import datetime

        from django.utils import timezone

        d = self.cleaned_data
        until = d.get("until")
        expires = (timezone.make_aware(datetime.datetime.combine(until, datetime.time(23, 59)))
                   if until else None)
        return {"role": d["role"], "single_use": d["reach"] == "one", "expires_at": expires,
                "max_uses": d.get("max_uses") or Invitation.USES_DEFAULT}


class JoinForm(forms.Form):
    """A new account from an invitation link: a username, a password and, if the person wants a
    forgotten password mailed to them, an e-mail."""

    username = forms.CharField(max_length=limits.USERNAME, validators=[validate_name])
    password = forms.CharField(widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}), max_length=128)
    email = forms.EmailField(required=False, max_length=254)
