"""Campaign API serializers: one for input, one for output, per endpoint. No rules here."""

from rest_framework import serializers

from zenergate_site.api_fields import WholeNumberField

from .models import Campaign, Membership


class CampaignOut(serializers.ModelSerializer):
    role = serializers.SerializerMethodField()

    class Meta:
        model = Campaign
        fields = ["id", "name", "description", "stat_entry", "stat_dice", "max_skill_ranks", "game_hours", "role"]

    def get_role(self, obj) -> str | None:
        roles = self.context.get("roles", {})
        return roles.get(obj.pk)


class CampaignCreateIn(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    stat_entry = serializers.ChoiceField(choices=Campaign.StatEntry.choices, required=False,
                                         default=Campaign.StatEntry.ENTER)


class CampaignUpdateIn(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    description = serializers.CharField(required=False, allow_blank=True)
    stat_entry = serializers.ChoiceField(choices=Campaign.StatEntry.choices, required=False)
    stat_dice = serializers.CharField(max_length=30, required=False)
    max_skill_ranks = WholeNumberField(min_value=1, max_value=10, required=False)


class MemberOut(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = Membership
        fields = ["id", "username", "role"]


class MemberAddIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
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
    last = serializers.IntegerField(help_text="Ask again with after=last.")
