"""The campaign's economy under /api/v1/: Karma ledger and spends, GM awards, adventures and
their payout, Campaign MacGuffins, Karmic Debt / Starvation flags and Complications.

Thin views: the access helper decides who (404 outsiders, 403 members without the right),
a serializer checks the shape, ``economy`` does every write and every rule.
A replayed idempotency key answers 200 with the first result; a new write answers 201.
"""

from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.errors import CampaignConflict, CampaignError
from campaign.permissions import CampaignAccess, access_campaign
from characters.models import Character
from characters.permissions import access_character
from characters.selectors import character_with_sheet
from zenergate_site.api_fields import NoBodyIn
from economy.ledger import karma_ledger

from . import services as economy
from .models import Adventure, BadNewsToken, MacGuffin
from .serializers import (
    AdventureIn,
    AdventureOut,
    AwardIn,
    AwardOut,
    BadNewsTokenIn,
    BadNewsTokenOut,
    CloseIn,
    CloseOut,
    ComplicationIn,
    ComplicationOut,
    ContributionIn,
    ContributionOut,
    KarmaFlagsOut,
    KarmaLedgerOut,
    KarmaSpendIn,
    KarmaSpendOut,
    MacGuffinIn,
    MacGuffinOut,
)

TOKENS = Prefetch("tokens", queryset=BadNewsToken.objects.order_by("created_at", "id"))


def _created_or_replayed(entry, created: bool, *, kind: str, macguffin_id: int | None = None) -> int:
    """201 for a new entry, 200 for a replay; 409 when the key was first used for something else."""
    if created:
        return status.HTTP_201_CREATED
    if entry.kind != kind or entry.macguffin_id != macguffin_id:
        raise CampaignConflict(_("This idempotency key was already used for another entry of this character's "
                                 "ledger; send a new key for a new request."), field="idempotency_key")
    return status.HTTP_200_OK


def _valid(serializer_class, request):
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


def _access_via(model, object_id, *, user, write: bool = False) -> CampaignAccess:
    """Access to the campaign an adventure or MacGuffin belongs to (404 when there is none)."""
    campaign_id = model.objects.filter(pk=object_id).values_list("campaign_id", flat=True).first()
    return access_campaign(user=user, campaign_id=campaign_id, write=write)


def _gm_only(access) -> None:
    if not access.is_gm:
        raise PermissionDenied(_("Only the campaign's GM may do that."))


def _spending_character(access: CampaignAccess, character_id: int, *, user) -> Character:
    """Return a character of this campaign whose Karma the user may spend (owner or GM).

    A character that is not in the campaign is a bad request (400), whether or not it exists
    elsewhere, so another campaign's characters are never revealed.
    """
    character = Character.objects.select_related("campaign").filter(pk=character_id, campaign=access.campaign).first()
    if character is None:
        raise CampaignError(_("No such character in this campaign."), field="character")
    if not (access.is_gm or character.owner_id == user.pk):
        raise PermissionDenied(_("Only the character's player and the GM may spend its Karma."))
    return character


# --- A character's Karma ------------------------------------------------------------------
class CharacterKarmaApi(APIView):
    @extend_schema(responses=KarmaLedgerOut, summary="The Karma ledger, newest first")
    def get(self, request, character_id: int):
        character = access_character(user=request.user, character_id=character_id).character
        ledger = {"balance": character.karma, "results": karma_ledger(character=character)}
        return Response(KarmaLedgerOut(ledger).data)

    @extend_schema(request=KarmaSpendIn, responses={201: KarmaSpendOut, 200: KarmaSpendOut},
                   summary="Spend Karma (200: the key was used before; nothing more was spent)")
    def post(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id, write=True)
        data = _valid(KarmaSpendIn, request)
        kind, key = data.pop("kind"), data.pop("idempotency_key")
        entry, created = economy.karma_spend(character=access.character, kind=kind, idempotency_key=key,
                                             by=request.user, is_gm=access.is_gm, params=data)
        code = _created_or_replayed(entry, created, kind=kind)
        return Response(KarmaSpendOut({"balance": entry.balance_after, "entry": entry}).data, status=code)


class CharacterKarmaFlagsApi(APIView):
    @extend_schema(responses=KarmaFlagsOut, summary="Karmic Debt and Karmic Starvation: what must happen")
    def get(self, request, character_id: int):
        access_character(user=request.user, character_id=character_id)
        character = character_with_sheet(character_id=character_id)
        return Response(KarmaFlagsOut({"flags": economy.karma_flags(character)}).data)


class CharacterComplicationsApi(APIView):
    @extend_schema(responses=ComplicationOut(many=True), summary="The character's Complications, newest first")
    def get(self, request, character_id: int):
        character = access_character(user=request.user, character_id=character_id).character
        complications = character.complications.select_related("by")
        return Response(ComplicationOut(complications, many=True).data)

    @extend_schema(request=ComplicationIn, responses={201: ComplicationOut},
                   summary="Record a Complication that settles Karmic Debt or Starvation (GM)")
    def post(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id, write=True)
        _gm_only(access)
        data = _valid(ComplicationIn, request)
        complication = economy.complication_record(character=access.character, by=request.user, **data)
        return Response(ComplicationOut(complication).data, status=status.HTTP_201_CREATED)


# --- GM awards ----------------------------------------------------------------------------
class AwardApi(APIView):
    @extend_schema(request=AwardIn, responses={201: AwardOut, 200: AwardOut},
                   summary="Pay a GM award: complication +2, NPC boost +1, or a manual correction (200: replayed key)")
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = _valid(AwardIn, request)
        entries, paid = economy.award_paid(
            campaign=access.campaign, kind=data["kind"], character_ids=data["characters"], by=request.user,
            reason=data["reason"], amount=data.get("amount"), idempotency_key=data.get("idempotency_key"))
        return Response(AwardOut({"entries": entries}).data, status=status.HTTP_201_CREATED if paid else status.HTTP_200_OK)


# --- Adventures ---------------------------------------------------------------------------
class AdventureListApi(APIView):
    @extend_schema(responses=AdventureOut(many=True), summary="The campaign's adventures, newest first")
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        adventures = access.campaign.adventures.prefetch_related(TOKENS)
        return Response(AdventureOut(adventures, many=True).data)

    @extend_schema(request=AdventureIn, responses={201: AdventureOut}, summary="Start an adventure (GM)")
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = _valid(AdventureIn, request)
        adventure = economy.adventure_start(campaign=access.campaign, by=request.user, **data)
        return Response(AdventureOut(adventure).data, status=status.HTTP_201_CREATED)


class AdventureDetailApi(APIView):
    @extend_schema(responses=AdventureOut)
    def get(self, request, adventure_id: int):
        access = _access_via(Adventure, adventure_id, user=request.user)
        adventure = access.campaign.adventures.prefetch_related(TOKENS).get(pk=adventure_id)
        return Response(AdventureOut(adventure).data)


class TokenListApi(APIView):
    @extend_schema(request=BadNewsTokenIn, responses={201: BadNewsTokenOut},
                   summary="Add a bad-news token (+1 XP) (GM)")
    def post(self, request, adventure_id: int):
        access = _access_via(Adventure, adventure_id, user=request.user, write=True)
        data = _valid(BadNewsTokenIn, request)
        adventure = access.campaign.adventures.get(pk=adventure_id)
        token = economy.token_add(adventure=adventure, note=data["note"], by=request.user)
        return Response(BadNewsTokenOut(token).data, status=status.HTTP_201_CREATED)


class TokenVoidApi(APIView):
    @extend_schema(request=None, responses=BadNewsTokenOut, summary="Void a bad-news token (GM)")
    def post(self, request, adventure_id: int, token_id: int):
        _access_via(Adventure, adventure_id, user=request.user, write=True)
        token = BadNewsToken.objects.filter(pk=token_id, adventure_id=adventure_id).first()
        if token is None:
            raise Http404(_("No such token in this adventure."))
        NoBodyIn(data=request.data).is_valid(raise_exception=True)
        token = economy.token_void(token=token, by=request.user)
        return Response(BadNewsTokenOut(token).data)


class AdventureCloseApi(APIView):
    @extend_schema(request=CloseIn, responses=CloseOut,
                   summary="Close the adventure and pay each active character (preview: compute only)")
    def post(self, request, adventure_id: int):
        access = _access_via(Adventure, adventure_id, user=request.user, write=True)
        data = _valid(CloseIn, request)
        adventure = access.campaign.adventures.get(pk=adventure_id)
        preview = data.pop("preview")
        if preview:
            if not adventure.is_open:
                raise CampaignConflict(_("That adventure is already closed; its payout was posted."), field="outcome")
            payouts = economy.payout_preview(adventure=adventure, **data)
        else:
            payouts = economy.adventure_close(adventure=adventure, by=request.user, **data)
        return Response(CloseOut({"adventure": adventure.pk, "preview": preview, "payouts": payouts}).data)


# --- Campaign MacGuffins ------------------------------------------------------------------
class MacGuffinListApi(APIView):
    @extend_schema(responses=MacGuffinOut(many=True), summary="The campaign's MacGuffin pools")
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        return Response(MacGuffinOut(access.campaign.macguffins.all(), many=True).data)

    @extend_schema(request=MacGuffinIn, responses={201: MacGuffinOut}, summary="Open a MacGuffin pool (GM)")
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = _valid(MacGuffinIn, request)
        macguffin = economy.macguffin_create(campaign=access.campaign, by=request.user, **data)
        return Response(MacGuffinOut(macguffin).data, status=status.HTTP_201_CREATED)


class MacGuffinDetailApi(APIView):
    @extend_schema(responses=MacGuffinOut)
    def get(self, request, macguffin_id: int):
        access = _access_via(MacGuffin, macguffin_id, user=request.user)
        return Response(MacGuffinOut(access.campaign.macguffins.get(pk=macguffin_id)).data)


class ContributionApi(APIView):
    @extend_schema(request=ContributionIn, responses={201: ContributionOut, 200: ContributionOut},
                   summary="Pay Karma into the pool (the character's player or the GM; 200: replayed key)")
    def post(self, request, macguffin_id: int):
        access = _access_via(MacGuffin, macguffin_id, user=request.user)
        if access.role == "viewer":  # refused before the body is read: a viewer never pays in
            raise PermissionDenied(_("Viewers watch the pools; players and GMs contribute."))
        data = _valid(ContributionIn, request)
        character = _spending_character(access, data["character"], user=request.user)
        macguffin = access.campaign.macguffins.get(pk=macguffin_id)
        entry, created = economy.macguffin_contribute(macguffin=macguffin, character=character,
                                                      amount=data["amount"], idempotency_key=data["idempotency_key"],
                                                      by=request.user)
        code = _created_or_replayed(entry, created, kind="macguffin", macguffin_id=macguffin.pk)
        # The entry remembers the pool as this contribution left it: a replay gives the same answer.
        answer = {"progress": entry.data["progress"], "target": entry.data["target"],
                  "balance": entry.balance_after, "entry": entry}
        return Response(ContributionOut(answer).data, status=code)
