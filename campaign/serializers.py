"""Campaign API serializers: one for input, one for output, per endpoint. No rules here."""

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from rulebook.systems import SYSTEMS
from zenergate_site import limits
from zenergate_site.api_fields import (
    FlagField,
    NameField,
    StrictInput,
    TextField,
    WholeNumberField,
)

from .models import Campaign, Invitation, Membership


class CampaignOut(serializers.ModelSerializer):
    role = serializers.SerializerMethodField()

    class Meta:
        model = Campaign
        fields = ["id", "name", "description", "stat_entry", "stat_dice", "max_skill_ranks", "typed_dice", "rule_set",
                  "rulings", "game_hours", "role"]

    def get_role(self, obj) -> str | None:
        roles = self.context.get("roles", {})
        return roles.get(obj.pk)


class CampaignCreateIn(StrictInput):
    name = NameField(max_length=limits.CAMPAIGN_NAME)
    description = TextField(max_length=limits.CAMPAIGN_DESCRIPTION, required=False, allow_blank=True, default="")
    stat_entry = serializers.ChoiceField(choices=Campaign.StatEntry.choices, required=False,
                                         default=Campaign.StatEntry.ENTER)


class CampaignDeleteIn(StrictInput):
    confirm = TextField(max_length=limits.CAMPAIGN_NAME, help_text=gettext_lazy("The campaign's name, typed exactly."))


class CampaignUpdateIn(StrictInput):
    name = NameField(max_length=limits.CAMPAIGN_NAME, required=False)
    description = TextField(max_length=limits.CAMPAIGN_DESCRIPTION, required=False, allow_blank=True)
    stat_entry = serializers.ChoiceField(choices=Campaign.StatEntry.choices, required=False)
    stat_dice = TextField(max_length=limits.STAT_DICE, required=False)
    max_skill_ranks = WholeNumberField(min_value=1, max_value=10, required=False)
    typed_dice = serializers.ChoiceField(choices=Campaign.TypedDice.choices, required=False,
                                         help_text=gettext_lazy("Which dice players may type for their own actions."))
    rule_set = serializers.ChoiceField(choices=list(SYSTEMS), required=False,
                                       help_text=gettext_lazy("The rule set of the roller and the roll feed's checks."))
    rulings = serializers.DictField(required=False,
                                    help_text=gettext_lazy("{ruling: whole number}; see docs/rules.md."))


class MemberOut(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = Membership
        fields = ["id", "username", "role"]


class MemberAddIn(StrictInput):
    username = TextField(max_length=limits.USERNAME)
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class EventsQueryIn(serializers.Serializer):
    after = serializers.IntegerField(min_value=0, max_value=2**63 - 1, required=False, default=0)


class EventOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    data = serializers.DictField()
    at = serializers.DateTimeField(source="created_at")


class EventsOut(serializers.Serializer):
    events = EventOut(many=True)
    last = serializers.IntegerField(help_text=gettext_lazy("Ask again with after=last."))


class LogQueryIn(StrictInput):
    """Query parameters (text in a URL, so plain integer fields)."""

    kind = serializers.RegexField(r"^[a-z_]{0,32}$", required=False, default="",
                                  help_text=gettext_lazy('One kind of line: the action before the dot ("character", '
                                                         '"combat").'))
    character = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False, default=None)
    session = serializers.IntegerField(min_value=1, max_value=2**31 - 1, required=False, default=None,
                                       help_text=gettext_lazy("A game night's number: the lines written while it ran."))
    before = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False, default=None)
    limit = serializers.IntegerField(min_value=1, max_value=200, required=False, default=50)


class LogEntryOut(serializers.Serializer):
    id = serializers.IntegerField()
    action = serializers.CharField()
    summary = serializers.CharField(source="told", help_text=gettext_lazy("The line in the reader's language."))
    by = serializers.CharField(source="actor.username", default=None, allow_null=True)
    at = serializers.DateTimeField(source="created_at")
    data = serializers.SerializerMethodField(help_text=gettext_lazy(
        "The line's numbers, for GMs; {} for everyone else (what a write recorded may hold what the GM hides)."))
    gm_only = serializers.BooleanField(help_text=gettext_lazy("Only GMs see this line."))

    def get_data(self, obj) -> dict:
        return obj.data if self.context.get("is_gm") else {}


class LogOut(serializers.Serializer):
    entries = LogEntryOut(many=True)
    next_before = serializers.IntegerField(allow_null=True,
                                           help_text=gettext_lazy("Ask again with before=next_before."))


class InvitationOut(serializers.ModelSerializer):
    """An invitation as its GM sees it; ``url`` is the link to pass on."""

    url = serializers.SerializerMethodField()

    class Meta:
        model = Invitation
        fields = ["id", "role", "username", "single_use", "expires_at", "uses", "max_uses", "created_at", "url"]

    def get_url(self, obj) -> str:
        from django.urls import reverse

        path = reverse("join", args=[obj.token])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class InvitationIn(StrictInput):
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    single_use = FlagField(required=False, default=True,
                           help_text=gettext_lazy("true: the link works once; false: for anyone until expires_at."))
    expires_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    max_uses = WholeNumberField(min_value=Invitation.USES.low, max_value=Invitation.USES.high, required=False,
                                default=Invitation.USES_DEFAULT,
                                help_text=gettext_lazy("With single_use false: how many people the link lets in at "
                                                       "most."))
    username = NameField(max_length=limits.USERNAME, required=False, default="",
                         help_text=gettext_lazy("For this person alone (they accept it logged in, or sign up with "
                                                "this name)."))


class InvitationAcceptIn(StrictInput):
    token = TextField(max_length=64)


class JoinedOut(serializers.Serializer):
    campaign = serializers.IntegerField(source="campaign_id")
    role = serializers.ChoiceField(choices=Membership.Role.choices)
