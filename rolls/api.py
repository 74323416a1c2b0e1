"""The roll feed and exact odds under /api/v1/. Thin: access helper, input serializer, one service."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.permissions import access_campaign
from characters.permissions import access_character
from rulebook.systems import ParamError, get_system

from . import checks, selectors, services
from .forms import eventual_of, situation_of
from .permissions import access_roll
from .serializers import (
    CheckIn,
    CheckPreviewOut,
    FeedQueryIn,
    OddsIn,
    OddsOut,
    RerollIn,
    RollFeedOut,
    RollIn,
    RollOut,
    SheetRollIn,
)


def odds_answer(system_key: str, odds) -> dict:
    """The odds of a check as JSON: exact fractions as "a/b"."""
    return {
        "system": system_key,
        "probability": services.fraction_text(odds.probability),
        "percent": round(float(odds.probability) * 100, 4),
        "outcome": odds.outcome,
        "distribution": [[outcome, services.fraction_text(p)] for outcome, p in odds.distribution],
        "success": sorted(odds.success),
        "breakdown": [[str(label), services.plain(value)] for label, value in odds.breakdown],
    }


class OddsApi(APIView):
    @extend_schema(request=OddsIn, responses=OddsOut,
                   description="Exact odds of a check of any of the five rule sets. The body is the rule set "
                               "and the check's inputs; a missing or bad input is 400 naming it.")
    def post(self, request):
        if not isinstance(request.data, dict):
            raise exceptions.ValidationError({"system": [_("Send an object: the rule set and the check's inputs.")]})
        raw = dict(request.data)
        system = raw.pop("system", None)
        try:
            rule_set = get_system(system)
            odds = rule_set.odds(**rule_set.clean(raw))
        except ParamError as exc:
            raise exceptions.ValidationError({exc.field: [str(exc)]}) from None
        return Response(odds_answer(rule_set.key, odds))


class RollFeedApi(APIView):
    @extend_schema(parameters=[FeedQueryIn], responses=RollFeedOut,
                   description="The campaign's rolls, newest first; ?before=<id> pages back. Private rolls "
                               "are listed for GMs only.")
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        query = FeedQueryIn(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        rolls = selectors.feed(campaign_id=access.campaign.pk, user=request.user, is_gm=access.is_gm,
                               before=query.validated_data.get("before"), limit=query.validated_data["limit"])
        return Response({"rolls": RollOut(rolls, many=True).data,
                         "next_before": rolls[-1].pk if len(rolls) == query.validated_data["limit"] else None})

    @extend_schema(request=RollIn, responses={201: RollOut, 200: RollOut},
                   description="Roll a check of the campaign's rule set ({\"check\": {…}}) or free-form dice "
                               "({\"notation\": \"2d6+3\"}). Players and GMs roll; only a GM rolls in private.")
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        if access.role == "viewer":
            raise PermissionDenied(_("Viewers watch the feed; players and GMs roll."))
        data = RollIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if values["private"] and not access.is_gm:
            raise PermissionDenied(_("Only the campaign's GM rolls in private."))
        common = {"campaign": access.campaign, "by": request.user, "label": values["label"],
                  "private": values["private"], "idempotency_key": values.get("idempotency_key")}
        if "check" in values:
            roll = services.roll_check(check=values["check"], dice=values.get("dice"), is_gm=access.is_gm, **common)
        else:
            roll = services.roll_notation(text=values["notation"], **common)
        # A request sent again with its key gets the roll it made the first time.
        made = not getattr(roll, "replayed", False)
        return Response(RollOut(roll).data, status=status.HTTP_201_CREATED if made else status.HTTP_200_OK)


class SheetRollApi(APIView):
    @extend_schema(request=SheetRollIn, responses={201: RollOut, 200: RollOut},
                   description="Roll the check of one line of the sheet (a stat, a skill, a weapon's attack "
                               "before Defense and range) with a situational modifier; the roll goes in the "
                               "campaign's feed. The character's player and the GM roll; a replayed "
                               "idempotency key is 200 with the first roll.")
    def post(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id, write=True)
        data = SheetRollIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if values["private"] and access.role != "gm":
            raise PermissionDenied(_("Only the campaign's GM rolls in private."))
        roll, made = services.sheet_roll(character=access.character, by=request.user, line=values["line"],
                                         situation=situation_of(values), extra=values["extra"],
                                         eventual=eventual_of(values), dice=values.get("dice"),
                                         private=values["private"], idempotency_key=values["idempotency_key"],
                                         is_gm=access.role == "gm")
        return Response(RollOut(roll).data, status=status.HTTP_201_CREATED if made else status.HTTP_200_OK)


def _campaign_check(request, campaign_id: int):
    """The GM's access, the cleaned request and the check its subject names."""
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
    data = CheckIn(data=request.data)
    data.is_valid(raise_exception=True)
    values = data.validated_data
    built = checks.subject_built(access.campaign, checks.party(access.campaign), values["subject"],
                                 situation_of(values), target=values["target"], dice=values["dice_count"],
                                 label=values["label"], strength=values["strength"])
    return access, values, built


class CheckPreviewApi(APIView):
    @extend_schema(request=CheckIn, responses={200: CheckPreviewOut},
                   description="The check builder without the roll (GM only): the target term by term and the "
                               "exact odds of any check that is not an attack.")
    def post(self, request, campaign_id: int):
        _access, values, built = _campaign_check(request, campaign_id)
        odds = built.odds(values["extra"])
        return Response({"label": str(built.label), "target": built.target, "dice": odds.dice, "counted": odds.kept,
                         "probability": services.fraction_text(odds.probability),
                         "percent": round(float(odds.probability) * 100, 4),
                         "breakdown": [[str(k), services.plain(v)] for k, v in built.breakdown],
                         "extra_limit": built.extra_limit})


class CheckRollApi(APIView):
    @extend_schema(request=CheckIn, responses={201: RollOut, 200: RollOut},
                   description="Roll what the check builder builds (GM only): a character's line, the party's "
                               "collective stat (the secret surprise check is party:AWA with private) or a target "
                               "the GM names. A replayed idempotency key is 200 with the first roll.")
    def post(self, request, campaign_id: int):
        access, values, built = _campaign_check(request, campaign_id)
        common = {"extra": values["extra"], "eventual": eventual_of(values), "dice": values.get("dice"),
                  "private": values["private"], "idempotency_key": values["idempotency_key"]}
        if built.character is not None:
            roll, made = services.sheet_roll(character=built.character, by=request.user, line=built.line,
                                             situation=built.situation, **common)
        else:
            roll, made = services.built_roll(campaign=access.campaign, by=request.user, built=built, **common)
        return Response(RollOut(roll).data, status=status.HTTP_201_CREATED if made else status.HTTP_200_OK)


class RerollApi(APIView):
    @extend_schema(request=RerollIn, responses={201: RollOut, 200: RollOut},
                   description="Spend 1 Karma of the roll's character to roll a failed sheet check again. "
                               "The new roll names the one it replaces (reroll_of); a roll is rerolled once. "
                               "409 when the roll succeeded, was rerolled already, or the character has no "
                               "Karma; a replayed idempotency key is 200 with the first reroll.")
    def post(self, request, roll_id: int):
        access = access_roll(user=request.user, roll_id=roll_id, reroll=True)
        data = RerollIn(data=request.data)
        data.is_valid(raise_exception=True)
        roll, made = services.roll_reroll(roll=access.roll, by=request.user, is_gm=access.is_gm,
                                          idempotency_key=data.validated_data["idempotency_key"],
                                          dice=data.validated_data.get("dice"))
        return Response(RollOut(roll).data, status=status.HTTP_201_CREATED if made else status.HTTP_200_OK)
