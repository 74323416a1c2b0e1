from django import forms

from .models import Campaign


class CampaignForm(forms.Form):
    name = forms.CharField(max_length=120)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    stat_entry = forms.ChoiceField(choices=Campaign.StatEntry.choices, initial=Campaign.StatEntry.ENTER)


class DowntimeForm(forms.Form):
    hours = forms.IntegerField(min_value=1, max_value=24 * 365, initial=24,
                               help_text="In-game hours of rest between sessions.")
