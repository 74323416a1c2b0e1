from django import forms

from .models import Campaign, Membership


class CampaignForm(forms.Form):
    name = forms.CharField(max_length=120)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    stat_entry = forms.ChoiceField(choices=Campaign.StatEntry.choices, initial=Campaign.StatEntry.ENTER)


class CampaignSettingsForm(forms.Form):
    name = forms.CharField(max_length=120)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    stat_entry = forms.ChoiceField(choices=Campaign.StatEntry.choices, label="Stats")
    stat_dice = forms.CharField(max_length=30, label="Stat dice (when rolled in the app)",
                                help_text="d20 notation: 4d6, 3d6+6, 4d6kh3 (keep the highest 3). Every total must "
                                          "fall in 1–40.")
    max_skill_ranks = forms.IntegerField(min_value=1, max_value=10, label="Most ranks in one skill",
                                         help_text="The article's default is 3.")


class MemberAddForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.PLAYER)


class AccountForm(forms.Form):
    """A new player's account: the app makes a one-time password for the GM to pass on."""

    username = forms.CharField(max_length=150, label="New player's username")
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.PLAYER)
