"""Fights of the other rule sets: ``/api/v1/campaigns/{id}/system-fights/`` (list, start) and
``/api/v1/system-fights/{id}/`` with ``…/actions/`` (the next turn, holds, forced actions,
reaction checks…), ``…/blows/`` (an attack or a combat round; ``…/blows/preview/`` its odds) and
``…/undo/`` (the last blow).

Members read; the GM starts a fight and runs it; a player holds, takes a held turn, forces an
action, rolls a reaction check or strikes for their own character.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.permissions import access_campaign
from characters.api_system_sheets import StandingOut
from zenergate_site import limits
from zenergate_site.api_fields import StrictInput, TextField, WholeNumberField

from . import selectors, system_blows, system_fights
from .permissions import access_system_fight
from .serializers import FacesField


class SystemFightIn(StrictInput):
    name = TextField(max_length=limits.ENCOUNTER_NAME)
    fighters = serializers.JSONField(
        help_text=_("[{\"sheet\": id} or {\"name\": an NPC, \"numbers\": its sheet numbers}, with \"total\" (the "
                    "order roll) and \"action_value\" (Intelligence, for ZeroSpace ties); in Core Rules "
                    "\"som\", \"empathy\", \"perception\" (a sheet's own when left out) and \"aware\"]"))
    tie_dice = FacesField(required=False, help_text=_("Core Rules: the d10s that break ties, typed at the table."))


class CoreScoresIn(StrictInput):
    som = WholeNumberField(min_value=1, max_value=10, required=False, help_text=_("State of Mind."))
    empathy = WholeNumberField(min_value=1, max_value=10, required=False)
    perception = WholeNumberField(min_value=1, max_value=10, required=False)


class FightActionIn(StrictInput):
    action = serializers.ChoiceField(choices=list(system_fights.ACTIONS))
    name = TextField(max_length=limits.NPC_NAME, required=False, help_text=_("Who holds, forces, leaves or joins."))
    after = TextField(max_length=limits.NPC_NAME, required=False, allow_blank=True,
                      help_text=_("A newcomer's place: after this fighter (first when left out)."))
    sheet = WholeNumberField(required=False, min_value=1, max_value=2**63 - 1,
                             help_text=_("A newcomer with a sheet of the campaign."))
    dice = FacesField(required=False, help_text=_("A reaction check's d10 or first aid's d100, typed at the table."))
    scores = CoreScoresIn(required=False, help_text=_("A Core Rules newcomer's scores (a sheet's own when left out)."))
    skill = WholeNumberField(required=False, min_value=0, max_value=200,
                             help_text=_("Rocket House first aid: the helper's First Aid, in percent."))


class BlowIn(StrictInput):
    attacker = TextField(max_length=limits.NPC_NAME, help_text=_("Who strikes (Rocket House: the first fighter)."))
    target = TextField(max_length=limits.NPC_NAME, help_text=_("Who is struck (Rocket House: the second)."))
    inputs = serializers.JSONField(
        help_text=_("ZeroSpace: av, dv, bonus_dice, defense_dice, dice. Success Check: bonus, tn, advantage, "
                    "edge_advantage, edge_damage, drop, weapon_dice, modifier, pt, dr (the target's armour when "
                    "left out), check_dice, damage_dice. Rocket House: first_skill, second_skill, first_weapon, "
                    "second_weapon, first_armour, second_armour (the sheets' when left out), first_stance, "
                    "second_stance, first_strength, second_strength, less_lethal, dice. Each system also takes "
                    "line (the attacker's sheet line) and, Rocket House, target_line."))
    idempotency_key = TextField(max_length=100, required=False)


class FighterOut(serializers.Serializer):
    name = serializers.CharField()
    sheet = serializers.IntegerField(allow_null=True)
    acting = serializers.BooleanField(help_text=_("Acts now (Core Rules: declares now)."))
    held = serializers.BooleanField(help_text=_("Holds a turn to take later this round or the next."))
    gives_up_next = serializers.BooleanField(help_text=_("Forced an action: the next regular turn is given up."))
    sits_out = serializers.BooleanField(help_text=_("Core Rules: sits this turn out (unaware, or a failed reaction)."))
    standing = StandingOut(help_text=_("The fighter's condition: Endurance, damage, Fatigue and wounds."))
    reaction = serializers.CharField(
        help_text=_("Core Rules: SOM and the reaction check's chance (an NPC's for the GM)."))


class BlowOut(serializers.Serializer):
    n = serializers.IntegerField()
    attacker = serializers.CharField()
    target = serializers.CharField()
    summary = serializers.CharField()
    breakdown = serializers.ListField(child=serializers.ListField(), help_text=_("[label, value] term by term."))
    dice = serializers.ListField(child=serializers.DictField(), help_text=_("Every die: sides, face, entered."))
    probability = serializers.CharField(help_text=_("The chance the blow had, before the roll."))
    by = serializers.CharField()
    undone = serializers.BooleanField()


class BlowOddsOut(serializers.Serializer):
    attacker = serializers.CharField()
    target = serializers.CharField()
    hit = serializers.CharField(help_text=_("The exact chance, as a fraction."))
    percent = serializers.CharField()
    says = serializers.CharField()


class RoundOut(serializers.Serializer):
    round = serializers.IntegerField()
    turns = serializers.ListField(child=serializers.CharField())


class SystemFightOut(serializers.Serializer):
    id = serializers.IntegerField()
    campaign = serializers.IntegerField()
    name = serializers.CharField()
    system = serializers.CharField()
    round = serializers.IntegerField(help_text=_("0 until the first turn."))
    acting = serializers.CharField(allow_null=True)
    order = FighterOut(many=True)
    unit = serializers.CharField(help_text=_("Round, or Turn in Core Rules."))
    rounds = RoundOut(many=True)
    blows = BlowOut(many=True, help_text=_("Newest first."))
    ended = serializers.BooleanField()


def fight_out(fight, is_gm: bool) -> dict:
    return SystemFightOut({"id": fight.pk, "campaign": fight.campaign_id, "name": fight.name, "system": fight.system,
                           **selectors.system_fight_view(fight=fight, is_gm=is_gm)}).data


class SystemFightListApi(APIView):
    @extend_schema(responses=SystemFightOut(many=True))
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        return Response([fight_out(fight, access.is_gm)
                         for fight in selectors.system_fight_list(campaign_id=access.campaign.pk)])

    @extend_schema(request=SystemFightIn, responses={201: SystemFightOut})
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = SystemFightIn(data=request.data)
        data.is_valid(raise_exception=True)
        fight = system_fights.system_fight_start(campaign=access.campaign, by=request.user, **data.validated_data)
        return Response(fight_out(fight, access.is_gm), status=status.HTTP_201_CREATED)


class SystemFightDetailApi(APIView):
    @extend_schema(responses=SystemFightOut)
    def get(self, request, fight_id: int):
        fight, access = access_system_fight(user=request.user, fight_id=fight_id)
        return Response(fight_out(fight, access.is_gm))


class SystemFightActionApi(APIView):
    @extend_schema(request=FightActionIn, responses=SystemFightOut)
    def post(self, request, fight_id: int):
        fight, access = access_system_fight(user=request.user, fight_id=fight_id, act=True)
        data = FightActionIn(data=request.data)
        data.is_valid(raise_exception=True)
        fight = system_fights.system_fight_act(fight=fight, by=request.user, is_gm=access.is_gm, **data.validated_data)
        return Response(fight_out(fight, access.is_gm))


class SystemFightBlowApi(APIView):
    @extend_schema(request=BlowIn, responses={201: BlowOut, 200: BlowOut})
    def post(self, request, fight_id: int):
        fight, access = access_system_fight(user=request.user, fight_id=fight_id, act=True)
        data = BlowIn(data=request.data)
        data.is_valid(raise_exception=True)
        blow, created = system_blows.system_fight_blow(fight=fight, by=request.user, is_gm=access.is_gm,
                                                       **data.validated_data)
        return Response(BlowOut(blow).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class SystemFightBlowPreviewApi(APIView):
    @extend_schema(request=BlowIn, responses=BlowOddsOut)
    def post(self, request, fight_id: int):
        fight, access = access_system_fight(user=request.user, fight_id=fight_id, act=True)
        data = BlowIn(data=request.data)
        data.is_valid(raise_exception=True)
        odds = system_blows.blow_preview(fight=fight, attacker=data.validated_data["attacker"],
                                         target=data.validated_data["target"], inputs=data.validated_data["inputs"],
                                         is_gm=access.is_gm)
        return Response(BlowOddsOut({**odds, "hit": str(odds["hit"]),
                                     "percent": f"{float(odds['hit']) * 100:.1f} %"}).data)


class SystemFightUndoApi(APIView):
    @extend_schema(request=None, responses=BlowOut)
    def post(self, request, fight_id: int):
        fight, access = access_system_fight(user=request.user, fight_id=fight_id, act=True)
        return Response(BlowOut(system_blows.system_fight_undo(fight=fight, by=request.user,
                                                               is_gm=access.is_gm)).data)
