"""Fights of the other rule sets: ``/api/v1/campaigns/{id}/system-fights/`` (list, start) and
``/api/v1/system-fights/{id}/`` with ``…/actions/`` (the next turn, holds, forced actions…).

Members read; the GM starts a fight and runs it; a player holds, takes a held turn or forces an
action for their own character.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.permissions import access_campaign
from zenergate_site import limits
from zenergate_site.api_fields import StrictInput, TextField, WholeNumberField

from . import selectors, system_fights
from .permissions import access_system_fight


class SystemFightIn(StrictInput):
    name = TextField(max_length=limits.ENCOUNTER_NAME)
    fighters = serializers.JSONField(help_text="[{\"sheet\": id} or {\"name\": an NPC}, with \"total\" (the "
                                               "perception roll) and \"action_value\" (Intelligence, for ties)]")


class FightActionIn(StrictInput):
    action = serializers.ChoiceField(choices=list(system_fights.ACTIONS))
    name = TextField(max_length=limits.NPC_NAME, required=False, help_text="Who holds, forces, leaves or joins.")
    after = TextField(max_length=limits.NPC_NAME, required=False, allow_blank=True,
                      help_text="A newcomer's place: after this fighter (first when left out).")
    sheet = WholeNumberField(required=False, min_value=1, max_value=2**63 - 1,
                             help_text="A newcomer with a sheet of the campaign.")


class FighterOut(serializers.Serializer):
    name = serializers.CharField()
    sheet = serializers.IntegerField(allow_null=True)
    acting = serializers.BooleanField()
    held = serializers.BooleanField(help_text="Holds a turn to take later this round or the next.")
    gives_up_next = serializers.BooleanField(help_text="Forced an action: the next regular turn is given up.")


class RoundOut(serializers.Serializer):
    round = serializers.IntegerField()
    turns = serializers.ListField(child=serializers.CharField())


class SystemFightOut(serializers.Serializer):
    id = serializers.IntegerField()
    campaign = serializers.IntegerField()
    name = serializers.CharField()
    system = serializers.CharField()
    round = serializers.IntegerField(help_text="0 until the first turn.")
    acting = serializers.CharField(allow_null=True)
    order = FighterOut(many=True)
    rounds = RoundOut(many=True)
    ended = serializers.BooleanField()


def fight_out(fight) -> dict:
    return SystemFightOut({"id": fight.pk, "campaign": fight.campaign_id, "name": fight.name, "system": fight.system,
                           **system_fights.fight_view(fight)}).data


class SystemFightListApi(APIView):
    @extend_schema(responses=SystemFightOut(many=True))
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        return Response([fight_out(fight) for fight in selectors.system_fight_list(campaign_id=access.campaign.pk)])

    @extend_schema(request=SystemFightIn, responses={201: SystemFightOut})
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = SystemFightIn(data=request.data)
        data.is_valid(raise_exception=True)
        fight = system_fights.system_fight_start(campaign=access.campaign, by=request.user, **data.validated_data)
        return Response(fight_out(fight), status=status.HTTP_201_CREATED)


class SystemFightDetailApi(APIView):
    @extend_schema(responses=SystemFightOut)
    def get(self, request, fight_id: int):
        fight, _ = access_system_fight(user=request.user, fight_id=fight_id)
        return Response(fight_out(fight))


class SystemFightActionApi(APIView):
    @extend_schema(request=FightActionIn, responses=SystemFightOut)
    def post(self, request, fight_id: int):
        fight, access = access_system_fight(user=request.user, fight_id=fight_id, act=True)
        data = FightActionIn(data=request.data)
        data.is_valid(raise_exception=True)
        fight = system_fights.system_fight_act(fight=fight, by=request.user, is_gm=access.is_gm, **data.validated_data)
        return Response(fight_out(fight))
