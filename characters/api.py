"""Character endpoints under /api/v1/: thin views over the access helper, services and selectors.

Every view asks ``access_character`` (or ``access_campaign``) first, validates types with an
input serializer, calls one service, and answers with the sheet as the selectors load it and
``sheet.compute_sheet`` computes it. The rules live in the services and the rulebook.
"""

from __future__ import annotations

from django.db import transaction
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign import pagecache
from campaign.permissions import access_campaign

from . import items, lifecycle, selectors, services
from .permissions import CharacterAccess, access_character, character_standing
from .serializers import (
    LINE_SERIALIZERS,
    BudgetOut,
    CharacterCreateIn,
    CharacterListQueryIn,
    CharacterPatchIn,
    CharacterSheetOut,
    CharacterSummaryOut,
    HistoryOut,
    NoBodyIn,
    ReturnIn,
    RevertIn,
    StateOut,
    budget_data,
)
from .sheet import compute_sheet


def _require_gm(access: CharacterAccess, refusal: str) -> None:
    """Refuse anyone but the campaign's GM, saying why (``refusal``: "Only the campaign's GM may …")."""
    if not access.is_gm:
        raise exceptions.PermissionDenied(refusal)


def _loaded(character_id: int):
    """Return the character with its sheet lines loaded and its computed sheet."""
    character = selectors.character_with_sheet(character_id=character_id)
    return character, compute_sheet(character)


def _sheet_response(character_id: int, *, is_gm: bool, status_code: int = status.HTTP_200_OK) -> Response:
    character, sheet = _loaded(character_id)
    return Response(CharacterSheetOut(character, context={"sheet": sheet, "is_gm": is_gm}).data,
                    status=status_code)


# --- Characters ------------------------------------------------------------------------------
class CharacterListApi(APIView):
    @extend_schema(parameters=[CharacterListQueryIn], responses=CharacterSummaryOut(many=True))
    def get(self, request):
        query = CharacterListQueryIn(data=request.query_params)
        query.is_valid(raise_exception=True)
        campaign_id = query.validated_data.get("campaign")
        if campaign_id is not None:
            access_campaign(user=request.user, campaign_id=campaign_id)  # 404 outside it
        characters = selectors.character_list(viewer=request.user, campaign_id=campaign_id)
        return Response(CharacterSummaryOut(characters, many=True).data)

    @extend_schema(request=CharacterCreateIn, responses={201: CharacterSheetOut})
    def post(self, request):
        data = CharacterCreateIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        access = access_campaign(user=request.user, campaign_id=values.pop("campaign"))
        if not (access.is_gm or access.is_player):
            raise exceptions.PermissionDenied(_("Viewers cannot create characters."))
        character = services.character_create(campaign=access.campaign, owner=request.user, by=request.user,
                                              is_gm=access.is_gm, **values)
        return _sheet_response(character.pk, is_gm=access.is_gm, status_code=status.HTTP_201_CREATED)


class CharacterDetailApi(APIView):
    @extend_schema(responses=CharacterSheetOut)
    def get(self, request, character_id: int):
        standing = character_standing(user=request.user, character_id=character_id)

        def build() -> bytes:
            character, sheet = _loaded(standing.character_id)
            return JSONRenderer().render(CharacterSheetOut(character, context={"sheet": sheet,
                                                                               "is_gm": standing.is_gm}).data)

        # Kept as the JSON it is sent as: encoding a sheet costs more than the look-up.
        body = pagecache.cached_data(request, name="character", object_id=standing.character_id,
                                     campaign_id=standing.campaign_id, version=standing.page_version, build=build)
        return HttpResponse(body, content_type="application/json")

    @extend_schema(request=CharacterPatchIn, responses=CharacterSheetOut)
    def patch(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id, write=True)
        data = CharacterPatchIn(data=request.data)
        data.is_valid(raise_exception=True)
        changes = dict(data.validated_data)
        if not changes.get("override_reason"):
            changes.pop("override_reason", None)
        if {"gm_notes", "state"} & set(changes):
            _require_gm(access, _("Only the campaign's GM may write GM notes or set a character's state."))
        state = changes.pop("state", None)
        with transaction.atomic():  # a name change and a state change land together or not at all
            if changes:
                services.character_update(character=access.character, by=request.user, is_gm=access.is_gm,
                                          data=changes)
            if state is not None:
                lifecycle.character_set_state(character=access.character, state=state, by=request.user)
        return _sheet_response(access.character.pk, is_gm=access.is_gm)

    @extend_schema(responses={204: None})
    def delete(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id, write=True)
        services.character_delete(character=access.character, by=request.user, is_gm=access.is_gm)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BudgetApi(APIView):
    @extend_schema(responses=BudgetOut)
    def get(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id)
        _character, sheet = _loaded(access.character.pk)
        return Response(BudgetOut(budget_data(sheet)).data)


# --- A character's life ----------------------------------------------------------------------
class SubmitApi(APIView):
    @extend_schema(request=None, responses=StateOut)
    def post(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id, write=True)
        NoBodyIn(data=request.data).is_valid(raise_exception=True)
        character = lifecycle.character_submit(character=access.character, by=request.user)
        return Response(StateOut(character).data)


class ApproveApi(APIView):
    @extend_schema(request=None, responses=StateOut)
    def post(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id)
        _require_gm(access, _("Only the campaign's GM may approve a character."))
        NoBodyIn(data=request.data).is_valid(raise_exception=True)
        character = lifecycle.character_approve(character=access.character, by=request.user)
        return Response(StateOut(character).data)


class ReturnApi(APIView):
    @extend_schema(request=ReturnIn, responses=StateOut)
    def post(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id)
        _require_gm(access, _("Only the campaign's GM may return a submitted character."))
        data = ReturnIn(data=request.data)
        data.is_valid(raise_exception=True)
        character = lifecycle.character_return(character=access.character, by=request.user,
                                               comment=data.validated_data["comment"])
        return Response(StateOut(character).data)


class HistoryApi(APIView):
    @extend_schema(responses=HistoryOut(many=True))
    def get(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id)
        return Response(HistoryOut(lifecycle.history(access.character, is_gm=access.is_gm), many=True).data)

    @extend_schema(request=RevertIn, responses=CharacterSheetOut,
                   description="Revert the whole sheet to a point of its history (GM only).")
    def post(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id)
        _require_gm(access, _("Only the campaign's GM may revert a sheet."))
        data = RevertIn(data=request.data)
        data.is_valid(raise_exception=True)
        lifecycle.character_revert(character=access.character, by=request.user, **data.validated_data)
        return _sheet_response(access.character.pk, is_gm=True)


# --- Sheet lines: one pair of views per kind -------------------------------------------------
class LineListApi(APIView):
    kind: str = ""

    def get(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id)
        character, sheet = _loaded(access.character.pk)
        out = LINE_SERIALIZERS[self.kind][1]
        return Response(out(getattr(character, self.kind).all(), many=True, context={"sheet": sheet}).data)

    def post(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id, write=True)
        data = LINE_SERIALIZERS[self.kind][0](data=request.data)
        data.is_valid(raise_exception=True)
        line = items.item_create(character=access.character, kind_name=self.kind, data=data.validated_data,
                                 by=request.user, is_gm=access.is_gm)
        return _line_response(self.kind, access.character.pk, line.pk, status_code=status.HTTP_201_CREATED)


class LineDetailApi(APIView):
    kind: str = ""

    def _line(self, access: CharacterAccess, item_id: int):
        """Return the line if it is on this character's sheet, else 404."""
        line = items.ITEM_KINDS[self.kind].model.objects.filter(character=access.character, pk=item_id).first()
        if line is None:
            raise Http404(_("No such line on this sheet."))
        return line

    def get(self, request, character_id: int, item_id: int):
        access = access_character(user=request.user, character_id=character_id)
        return _line_response(self.kind, access.character.pk, item_id)

    def patch(self, request, character_id: int, item_id: int):
        access = access_character(user=request.user, character_id=character_id, write=True)
        line = self._line(access, item_id)
        data = LINE_SERIALIZERS[self.kind][0](data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        items.item_update(item=line, kind_name=self.kind, data=data.validated_data, by=request.user,
                          is_gm=access.is_gm)
        return _line_response(self.kind, access.character.pk, line.pk)

    def delete(self, request, character_id: int, item_id: int):
        access = access_character(user=request.user, character_id=character_id, write=True)
        line = self._line(access, item_id)
        items.item_delete(item=line, kind_name=self.kind, by=request.user, is_gm=access.is_gm)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _line_response(kind: str, character_id: int, item_id: int, *, status_code: int = status.HTTP_200_OK):
    """Answer with one line as the sheet shows it (target and odds, cost), or 404 if it is not there."""
    character, sheet = _loaded(character_id)
    line = next((obj for obj in getattr(character, kind).all() if obj.pk == item_id), None)
    if line is None:
        raise Http404(_("No such line on this sheet."))
    return Response(LINE_SERIALIZERS[kind][1](line, context={"sheet": sheet}).data, status=status_code)


def line_views(kind: str) -> tuple[type[APIView], type[APIView]]:
    """Return the list and detail views of one kind of sheet line, with their own schema."""
    line_in, line_out = LINE_SERIALIZERS[kind]
    label = items.ITEM_KINDS[kind].label
    tag = {"tags": ["characters"]}
    name = kind.title().replace("_", "")
    list_view = extend_schema_view(
        get=extend_schema(responses=line_out(many=True), summary=f"List the {kind} on a sheet", **tag),
        post=extend_schema(request=line_in, responses={201: line_out}, summary=f"Add a {label}", **tag),
    )(type(f"{name}ListApi", (LineListApi,), {"kind": kind}))
    detail_view = extend_schema_view(
        get=extend_schema(responses=line_out, summary=f"Read a {label}", **tag),
        patch=extend_schema(request=line_in, responses=line_out, summary=f"Change a {label}", **tag),
        delete=extend_schema(responses={204: None}, summary=f"Remove a {label}", **tag),
    )(type(f"{name}DetailApi", (LineDetailApi,), {"kind": kind}))
    return list_view, detail_view
