"""Combat endpoints under /api/v1/: thin views over the access helper, services and selectors."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.permissions import access_campaign

from . import attacks, library, selectors, services
from .models import Combatant
from .permissions import access_encounter, access_npc_setup
from .serializers import (
    ActNowIn,
    AnswerIn,
    AttackIn,
    CombatantIn,
    CombatantPatchIn,
    DyingIn,
    EncounterIn,
    EncounterPatchIn,
    EncounterSummaryOut,
    FightFromSetupIn,
    InitiativeIn,
    LogQueryIn,
    NextTurnIn,
    NpcSetupIn,
    NpcSetupOut,
    ReactionIn,
)


def _valid(serializer_class, data):
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _tracker(request, encounter_id: int, code=status.HTTP_200_OK) -> Response:
    access = access_encounter(user=request.user, encounter_id=encounter_id)
    return Response(selectors.tracker(access=access), status=code)


class EncounterListApi(APIView):
    @extend_schema(responses=EncounterSummaryOut(many=True))
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        return Response(EncounterSummaryOut(access.campaign.encounters.all(), many=True).data)

    @extend_schema(request=EncounterIn, responses={201: dict})
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        encounter = services.encounter_create(campaign=access.campaign, by=request.user,
                                              **_valid(EncounterIn, request.data))
        return _tracker(request, encounter.pk, status.HTTP_201_CREATED)


class EncounterDetailApi(APIView):
    @extend_schema(responses=dict)
    def get(self, request, encounter_id: int):
        return _tracker(request, encounter_id)

    @extend_schema(request=EncounterPatchIn, responses=dict)
    def patch(self, request, encounter_id: int):
        access = access_encounter(user=request.user, encounter_id=encounter_id, write=True)
        services.encounter_update(encounter=access.encounter, by=request.user,
                                  **_valid(EncounterPatchIn, request.data))
        return _tracker(request, encounter_id)


class CombatantListApi(APIView):
    @extend_schema(responses={200: OpenApiResponse({"type": "array", "items": {"type": "object"}},
                                                   description=gettext_lazy(
                                                       "The tracker's combatants, in turn order, as "
                                                       "`GET /encounters/{id}/` lists them."))})
    def get(self, request, encounter_id: int):
        return Response(_tracker(request, encounter_id).data["combatants"])

    @extend_schema(request=CombatantIn, responses={201: dict})
    def post(self, request, encounter_id: int):
        access = access_encounter(user=request.user, encounter_id=encounter_id, write=True)
        data = _valid(CombatantIn, request.data)
        if "character" in data:
            combatant = services.combatant_add(encounter=access.encounter, by=request.user,
                                               character_id=data["character"])
        else:
            combatant = services.combatant_add(encounter=access.encounter, by=request.user, npc=data)
        return Response({"id": combatant.pk, "name": combatant.name}, status=status.HTTP_201_CREATED)


class CombatantDetailApi(APIView):
    @extend_schema(request=CombatantPatchIn, responses=dict)
    def patch(self, request, encounter_id: int, combatant_id: int):
        access = access_encounter(user=request.user, encounter_id=encounter_id, write=True)
        combatant = Combatant.objects.filter(encounter=access.encounter, pk=combatant_id).first()
        if combatant is None:
            raise exceptions.NotFound(_("No such combatant."))
        flags = _valid(CombatantPatchIn, request.data)
        if flags:
            services.combatant_update(combatant=combatant, by=request.user, **flags)
        return _tracker(request, encounter_id)


class InitiativeApi(APIView):
    @extend_schema(request=InitiativeIn, responses=dict)
    def post(self, request, encounter_id: int):
        access = access_encounter(user=request.user, encounter_id=encounter_id, write=True)
        services.initiative_roll(encounter=access.encounter, by=request.user, **_valid(InitiativeIn, request.data))
        return _tracker(request, encounter_id)


class NextTurnApi(APIView):
    @extend_schema(request=NextTurnIn, responses=dict)
    def post(self, request, encounter_id: int):
        access = access_encounter(user=request.user, encounter_id=encounter_id, write=True)
        services.turn_next(encounter=access.encounter, by=request.user, **_valid(NextTurnIn, request.data or {}))
        return _tracker(request, encounter_id)


class HoldApi(APIView):
    @extend_schema(request=None, responses=dict)
    def post(self, request, encounter_id: int):
        access = access_encounter(user=request.user, encounter_id=encounter_id, write=True)
        services.hold(encounter=access.encounter, by=request.user)
        return _tracker(request, encounter_id)


class ActNowApi(APIView):
    @extend_schema(request=ActNowIn, responses=dict)
    def post(self, request, encounter_id: int):
        access = access_encounter(user=request.user, encounter_id=encounter_id, write=True)
        services.act_now(encounter=access.encounter, by=request.user,
                         combatant_id=_valid(ActNowIn, request.data)["combatant"])
        return _tracker(request, encounter_id)


class ReactionApi(APIView):
    @extend_schema(request=ReactionIn, responses={201: dict})
    def post(self, request, encounter_id: int):
        access = access_encounter(user=request.user, encounter_id=encounter_id, write=True)
        data = _valid(ReactionIn, request.data)
        event = services.reaction(encounter=access.encounter, by=request.user, combatant_id=data["combatant"],
                                  milliseconds=data["milliseconds"], has_next_initiative=data["has_next_initiative"],
                                  dice=data["dice"])
        return Response(selectors.event_view(event, is_gm=True), status=status.HTTP_201_CREATED)


class RequestAnswerApi(APIView):
    @extend_schema(request=AnswerIn, responses={201: dict})
    def post(self, request, encounter_id: int, event_id: int):
        access = access_encounter(user=request.user, encounter_id=encounter_id, write=True)
        event = attacks.request_answer(encounter=access.encounter, by=request.user, request_id=event_id,
                                       approve=_valid(AnswerIn, request.data)["approve"])
        return Response(selectors.event_view(event, is_gm=True), status=status.HTTP_201_CREATED)


class AttackApi(APIView):
    """Preview an attack (200, changes nothing) or make it (201 with the whole outcome)."""

    @extend_schema(request=AttackIn, responses={200: dict, 201: dict})
    def post(self, request, encounter_id: int):
        access = access_encounter(user=request.user, encounter_id=encounter_id)
        if access.campaign_access.role == "viewer":  # refused before the body is read: viewers never act
            raise exceptions.PermissionDenied(_("Viewers follow the fight; players and the GM act."))
        data = _valid(AttackIn, request.data)
        attacker = access.combatant(data["attacker"], field="attacker")
        if not access.may_act_with(attacker):
            raise exceptions.PermissionDenied(_("Only the GM and the character's player act with it."))
        preview, dice, key = data.pop("preview"), data.pop("dice"), data.pop("idempotency_key")
        request_ = attacks.AttackRequest(**data)
        if preview:
            return Response(attacks.attack_preview(encounter=access.encounter, request=request_, is_gm=access.is_gm))
        if access.encounter.require_approval and not access.is_gm:
            event = attacks.attack_request(encounter=access.encounter, by=request.user, request=request_, dice=dice,
                                           idempotency_key=key)
            return Response(selectors.event_view(event, is_gm=False), status=status.HTTP_202_ACCEPTED)
        event = attacks.attack_make(encounter=access.encounter, by=request.user, request=request_, dice=dice,
                                    is_gm=access.is_gm, idempotency_key=key)
        return Response(selectors.event_view(event, is_gm=access.is_gm), status=status.HTTP_201_CREATED)


class DyingApi(APIView):
    @extend_schema(request=DyingIn, responses={201: dict})
    def post(self, request, encounter_id: int):
        access = access_encounter(user=request.user, encounter_id=encounter_id, write=True)
        data = _valid(DyingIn, request.data)
        event = attacks.dying_check(encounter=access.encounter, by=request.user, combatant_id=data["combatant"],
                                    medical_target=data["medical_target"], medical_help=data["medical_help"],
                                    dice=data["dice"])
        return Response(selectors.event_view(event, is_gm=True), status=status.HTTP_201_CREATED)


class LogApi(APIView):
    @extend_schema(parameters=[LogQueryIn], responses=dict)
    def get(self, request, encounter_id: int):
        access = access_encounter(user=request.user, encounter_id=encounter_id)
        after = _valid(LogQueryIn, request.query_params)["after"]
        events = selectors.log_after(access=access, after=after)
        return Response({"events": events, "last": events[-1]["id"] if events else after})


class UndoApi(APIView):
    @extend_schema(request=None, responses={201: dict})
    def post(self, request, encounter_id: int):
        access = access_encounter(user=request.user, encounter_id=encounter_id, write=True)
        event = services.undo_last(encounter=access.encounter, by=request.user)
        return Response(selectors.event_view(event, is_gm=True), status=status.HTTP_201_CREATED)


class EndApi(APIView):
    @extend_schema(request=None, responses=dict)
    def post(self, request, encounter_id: int):
        access = access_encounter(user=request.user, encounter_id=encounter_id, write=True)
        services.encounter_end(encounter=access.encounter, by=request.user)
        return _tracker(request, encounter_id)


class FightAgainApi(APIView):
    @extend_schema(request=None, responses={201: dict})
    def post(self, request, encounter_id: int):
        access = access_encounter(user=request.user, encounter_id=encounter_id, write=True)
        again = library.fight_again(encounter=access.encounter, by=request.user)
        return _tracker(request, again.pk, status.HTTP_201_CREATED)


class NpcSetupListApi(APIView):
    """The GM's NPC library: the campaign's saved casts of NPCs."""

    @extend_schema(responses=NpcSetupOut(many=True))
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        return Response(NpcSetupOut(access.campaign.npc_setups.all(), many=True).data)

    @extend_schema(request=NpcSetupIn, responses={201: NpcSetupOut, 200: NpcSetupOut})
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = _valid(NpcSetupIn, request.data)
        encounter = access.campaign.encounters.filter(pk=data["encounter"]).first()
        if encounter is None:
            raise exceptions.ValidationError({"encounter": [_("No such encounter in this campaign.")]})
        setup, created = library.setup_save(encounter=encounter, by=request.user, name=data["name"])
        return Response(NpcSetupOut(setup).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class NpcSetupDetailApi(APIView):
    @extend_schema(responses=NpcSetupOut)
    def get(self, request, setup_id: int):
        setup, _ = access_npc_setup(user=request.user, setup_id=setup_id)
        return Response(NpcSetupOut(setup).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, setup_id: int):
        setup, _ = access_npc_setup(user=request.user, setup_id=setup_id)
        library.setup_delete(setup=setup, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FightFromSetupApi(APIView):
    @extend_schema(request=FightFromSetupIn, responses={201: dict})
    def post(self, request, setup_id: int):
        setup, _ = access_npc_setup(user=request.user, setup_id=setup_id)
        data = _valid(FightFromSetupIn, request.data)
        encounter = library.fight_from_setup(setup=setup, by=request.user, **data)
        return _tracker(request, encounter.pk, status.HTTP_201_CREATED)
