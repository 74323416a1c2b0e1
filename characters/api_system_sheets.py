"""The sheets of the other rule sets: ``/api/v1/campaigns/{id}/system-sheets/`` and
``/api/v1/system-sheets/{id}/`` (read, edit) with ``…/pools/`` (spend or refill a resource).

Members read; players and the GM make sheets (a player's own, the GM's for anyone); the
sheet's player and the GM edit and spend; a new session and an award are the GM's.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.models import Membership
from campaign.permissions import access_campaign
from rulebook.systems.sheets import ACTIONS
from zenergate_site import limits
from zenergate_site.api_fields import StrictInput, TextField

from . import selectors, system_sheets
from .permissions import access_system_sheet


class SystemSheetIn(StrictInput):
    name = TextField(max_length=limits.CHARACTER_NAME, required=False)
    lines = serializers.JSONField(required=False, help_text=gettext_lazy(
        "A list of {\"name\", \"inputs\"}: the check's inputs are av (ZeroSpace), bonus (Success Check), trait "
        "(Rocket House), ks, us and es (Core Rules)."))
    numbers = serializers.JSONField(required=False, help_text=gettext_lazy(
        "The sheet's numbers: brawn and presence (ZeroSpace), strength and edge_max (Success Check), toughness "
        "(Rocket House), build (Core Rules)."))
    owner = TextField(max_length=150, required=False,
                      help_text=gettext_lazy("The GM makes a sheet for a player: their username."))


class LadderStepOut(serializers.Serializer):
    label = serializers.CharField()
    value = serializers.IntegerField(help_text=gettext_lazy("The difficulty of this step (DV, TN, modifier step, "
                                                            "threshold)."))
    probability = serializers.FloatField()
    percent = serializers.CharField()


class LineOut(serializers.Serializer):
    name = serializers.CharField()
    inputs = serializers.DictField(child=serializers.IntegerField())
    odds = LadderStepOut(many=True)


class PoolOut(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    current = serializers.IntegerField()
    maximum = serializers.IntegerField(allow_null=True)
    uses = serializers.ListField(child=serializers.CharField())
    refills = serializers.ListField(child=serializers.CharField())


class StandingOut(serializers.Serializer):
    """A condition as the rulebook reads it: its lines, its state and the penalty it gives."""

    lines = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    state = serializers.CharField(help_text=gettext_lazy("fighting, down, defeated, unconscious, dead…"))
    penalty = serializers.CharField()


class SheetConditionOut(StandingOut):
    raw = serializers.DictField(help_text=gettext_lazy("The stored condition (Endurance, damage, Fatigue, wounds)."))


class SystemSheetOut(serializers.Serializer):
    id = serializers.IntegerField()
    campaign = serializers.IntegerField()
    owner = serializers.CharField()
    name = serializers.CharField()
    system = serializers.CharField()
    system_name = serializers.CharField()
    numbers = serializers.DictField(child=serializers.IntegerField())
    lines = LineOut(many=True)
    pools = PoolOut(many=True)
    condition = SheetConditionOut(help_text=gettext_lazy("What fights left: Endurance, damage, Fatigue and wounds, "
                                                         "with the state."))


class PoolIn(StrictInput):
    pool = TextField(max_length=20, help_text=gettext_lazy("plot_points (ZeroSpace), edge (Success Check) or "
                                                           "strength_effect (Rocket House)."))
    action = serializers.ChoiceField(choices=list(ACTIONS), help_text=gettext_lazy(
        "spend; short_rest, long_rest, session, award and new_fight are the GM's (a player asks for a rest: "
        "rest-asks/); burn: Success Check's Edge Burn, when down."))
    use = TextField(max_length=40, required=False, default="", allow_blank=True,
                    help_text=gettext_lazy("What a spent point buys (bonus die, advantage …), for the ledger."))
    idempotency_key = TextField(min_length=1, max_length=100, trim_whitespace=False, required=False)


class PoolEntryOut(serializers.Serializer):
    id = serializers.IntegerField()
    pool = serializers.CharField()
    action = serializers.CharField()
    use = serializers.CharField()
    amount = serializers.IntegerField()
    balance_after = serializers.IntegerField()


def sheet_out(sheet, campaign) -> dict:
    view = selectors.system_sheet_view(sheet=sheet, rulings=campaign.rulings)
    lines = [{"name": line["name"], "inputs": raw["inputs"],
              "odds": [{**odds, "probability": float(odds["probability"])} for odds in line["odds"]]}
             for line, raw in zip(view["lines"], sheet.lines, strict=True)]
    return SystemSheetOut({
        "id": sheet.pk, "campaign": sheet.campaign_id, "owner": sheet.owner.username, "name": sheet.name,
        "system": sheet.system, "system_name": view["system_name"], "numbers": sheet.numbers, "lines": lines,
        "pools": [{**pool, "uses": list(pool["uses"]), "refills": list(pool["refills"])} for pool in view["pools"]],
        "condition": {**view["condition"], "raw": sheet.condition},
    }).data


def _owner_for(access, request, username):
    """Whose sheet a new one is: the player's own; the GM's pick of a player."""
    if access.role == Membership.Role.VIEWER:
        raise exceptions.PermissionDenied(_("Viewers watch; players and the GM make characters."))
    if not username:
        return request.user
    if not access.is_gm:
        raise exceptions.PermissionDenied(_("Only the GM makes a sheet for another player."))
    member = Membership.objects.filter(campaign=access.campaign, user__username=username).select_related("user").first()
    if member is None:
        raise exceptions.ValidationError({"owner": [_("%(name)s is not in this campaign.") % {"name": repr(username)}]})
    return member.user


class SystemSheetListApi(APIView):
    @extend_schema(responses=SystemSheetOut(many=True))
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        return Response([sheet_out(sheet, access.campaign)
                         for sheet in selectors.system_sheet_list(campaign_id=access.campaign.pk)])

    @extend_schema(request=SystemSheetIn, responses={201: SystemSheetOut})
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        data = SystemSheetIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        owner = _owner_for(access, request, values.get("owner"))
        if "name" not in values:
            raise exceptions.ValidationError({"name": [_("Give the character a name.")]})
        sheet = system_sheets.system_sheet_create(campaign=access.campaign, owner=owner, by=request.user,
                                                  name=values["name"], lines=values.get("lines"),
                                                  numbers=values.get("numbers"))
        return Response(sheet_out(sheet, access.campaign), status=status.HTTP_201_CREATED)


class SystemSheetDetailApi(APIView):
    @extend_schema(responses=SystemSheetOut)
    def get(self, request, sheet_id: int):
        access = access_system_sheet(user=request.user, sheet_id=sheet_id)
        return Response(sheet_out(access.sheet, access.sheet.campaign))

    @extend_schema(request=SystemSheetIn, responses=SystemSheetOut)
    def patch(self, request, sheet_id: int):
        access = access_system_sheet(user=request.user, sheet_id=sheet_id, write=True)
        data = SystemSheetIn(data=request.data)
        data.is_valid(raise_exception=True)
        if "owner" in data.validated_data:
            raise exceptions.ValidationError({"owner": [_("A sheet keeps its player.")]})
        sheet = system_sheets.system_sheet_update(sheet=access.sheet, by=request.user, **data.validated_data)
        return Response(sheet_out(sheet, access.sheet.campaign))


class SystemSheetPoolsApi(APIView):
    @extend_schema(request=PoolIn, responses={200: PoolEntryOut, 201: PoolEntryOut},
                   description="Spend or refill one point of a resource; a replayed idempotency key answers 200 "
                               "with the first entry and changes nothing.")
    def post(self, request, sheet_id: int):
        access = access_system_sheet(user=request.user, sheet_id=sheet_id, write=True)
        data = PoolIn(data=request.data)
        data.is_valid(raise_exception=True)
        entry, created = system_sheets.pool_act(sheet=access.sheet, by=request.user, is_gm=access.is_gm,
                                                **data.validated_data)
        return Response(PoolEntryOut(entry).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class RestAskIn(StrictInput):
    rest = serializers.ChoiceField(choices=list(system_sheets.REST_ASKS), help_text=gettext_lazy("short_rest or long_rest."))


class RestAskOut(serializers.Serializer):
    asked = serializers.CharField(help_text=gettext_lazy("The line the campaign's log and the GM's view of the sheet "
                                                         "show."))


class SystemSheetRestAskApi(APIView):
    @extend_schema(request=RestAskIn, responses={201: RestAskOut},
                   description="A player asks the GM for a rest (rests are the GM's call): a line in the log "
                               "and a notice on the sheet for the GM until a rest is given. Nothing else changes.")
    def post(self, request, sheet_id: int):
        access = access_system_sheet(user=request.user, sheet_id=sheet_id, write=True)
        data = RestAskIn(data=request.data)
        data.is_valid(raise_exception=True)
        system_sheets.rest_ask(sheet=access.sheet, by=request.user, rest=data.validated_data["rest"])
        asked = selectors.rest_asked(sheet=access.sheet)
        return Response(RestAskOut({"asked": asked.summary if asked else ""}).data, status=status.HTTP_201_CREATED)


__all__ = ["SystemSheetDetailApi", "SystemSheetListApi", "SystemSheetPoolsApi", "SystemSheetRestAskApi"]
