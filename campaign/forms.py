from django import forms

from rulebook.systems import SYSTEMS
from zenergate_site import limits
from zenergate_site.text import validate_name

from .models import Campaign, Invitation, Membership


class CampaignForm(forms.Form):
    name = forms.CharField(max_length=limits.CAMPAIGN_NAME, validators=[validate_name])
    description = forms.CharField(max_length=limits.CAMPAIGN_DESCRIPTION, required=False,
                                  widget=forms.Textarea(attrs={"rows": 2}))
    stat_entry = forms.ChoiceField(choices=Campaign.StatEntry.choices, initial=Campaign.StatEntry.ENTER)


class CampaignSettingsForm(forms.Form):
    name = forms.CharField(max_length=limits.CAMPAIGN_NAME, validators=[validate_name])
    description = forms.CharField(max_length=limits.CAMPAIGN_DESCRIPTION, required=False,
                                  widget=forms.Textarea(attrs={"rows": 2}))
    stat_entry = forms.ChoiceField(choices=Campaign.StatEntry.choices, label="Stats")
    stat_dice = forms.CharField(max_length=limits.STAT_DICE, label="Stat dice (when rolled in the app)",
                                help_text="d20 notation: 4d6, 3d6+6, 4d6kh3 (keep the highest 3). Every total must "
                                          "fall in 1–40.")
    max_skill_ranks = forms.IntegerField(min_value=1, max_value=10, label="Most ranks in one skill",
                                         help_text="The article's default is 3.")
    typed_dice = forms.ChoiceField(choices=Campaign.TypedDice.choices, label="Dice players type at the table",
                                   required=False,
                                   help_text="For their own actions; the GM may type any die. Typed dice are marked "
                                             "in the roll feed.")
    rule_set = forms.ChoiceField(choices=[(key, rule_set.name) for key, rule_set in SYSTEMS.items()],
                                 label="Rule set for checks and the roller", required=False,
                                 help_text="The roller and the roll feed's checks follow it. Sheets are Zener Gate's.")

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        # The current rule set's rulings, one field each (a new rule set starts from its defaults).
        self.rule_set_key = campaign.rule_set
        for param in SYSTEMS[campaign.rule_set].rulings:
            initial = (campaign.rulings or {}).get(param.name, param.default)
            if param.choices:
                field = forms.TypedChoiceField(choices=[(c, str(c)) for c in param.choices], coerce=int,
                                               initial=initial)
            else:
                field = forms.IntegerField(min_value=param.minimum, max_value=param.maximum, initial=initial)
            field.label, field.help_text, field.required = f"Ruling: {param.label}", param.help, False
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
    username = forms.CharField(max_length=limits.USERNAME)
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.PLAYER)


class AccountForm(forms.Form):
    """A new player's account: the app makes a one-time password for the GM to pass on."""

    username = forms.CharField(max_length=limits.USERNAME, label="New player's username", validators=[validate_name])
    email = forms.EmailField(required=False, label="Their email (optional: for password reset links)")
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.PLAYER)


class InvitationForm(forms.Form):
    """An invitation link: for one person (used once) or for anyone until a date."""

    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.PLAYER)
    reach = forms.ChoiceField(choices=[("one", "one person (the link works once)"),
                                       ("until", "anyone with the link, until the date")], initial="one",
                              label="For")
    until = forms.DateField(required=False, label="Until (for anyone)", widget=forms.DateInput(attrs={"type": "date"}))
    max_uses = forms.IntegerField(min_value=Invitation.USES.low, max_value=Invitation.USES.high,
                                  initial=Invitation.USES_DEFAULT, required=False,
                                  label="At most this many people (for anyone)")

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
