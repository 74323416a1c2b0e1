"""Downtime endpoints under /api/v1/: downtime jobs, Zener Transitions, therapies, treatments,
and the campaign's live event stream. Thin: access helper, input serializer, one service."""

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.models import Job
from campaign.permissions import access_campaign
from characters.permissions import access_character
from zenergate_site.api_fields import NoBodyIn

from . import immersion, services, transitions, treatments
from . import sheets as sheet_rest
from .models import TransitionBatch, Treatment
from .selectors import report_for, sheet_report_for
from .serializers import (
    DowntimeIn,
    DowntimePreviewOut,
    ImmersionIn,
    JobOut,
    JobStartedOut,
    TherapyIn,
    TherapyOut,
    TransitionIn,
    TreatmentIn,
    TreatmentOut,
)


def _job_response(job: Job, *, is_gm: bool, code=status.HTTP_200_OK) -> Response:
    return Response(JobOut(job, context={"report": report_for(job, is_gm=is_gm),
                                         "sheets": sheet_report_for(job)}).data, status=code)


class DowntimeApi(APIView):
    @extend_schema(request=DowntimeIn, responses={
        202: JobStartedOut,
        200: PolymorphicProxySerializer(component_name="DowntimeAnswer", resource_type_field_name=None,
                                        serializers=[DowntimePreviewOut, JobStartedOut]),
        503: OpenApiResponse(description="The job queue does not answer: nothing was started; try again.")},
        description="Start a downtime job (202), find the job a replayed idempotency key started (200, "
                    "the same job), or with `preview` say what it would do (200 `{\"report\"}`).")
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = DowntimeIn(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data["preview"]:
            report = services.downtime_preview(campaign=access.campaign, request=data.validated_data)
            sheets = sheet_rest.sheet_reports(campaign=access.campaign, hours=data.validated_data["hours"],
                                             rest=data.validated_data.get("rest", "comfortable"))
            return Response(DowntimePreviewOut({"report": report, "sheets": sheets}).data)
        job, created = services.downtime_start(campaign=access.campaign, by=request.user,
                                               request=data.validated_data)
        return Response(JobStartedOut(job, context={"report": []}).data,
                        status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK)


def _job(request, job_id: int, *, write: bool = False):
    campaign_id = Job.objects.filter(pk=job_id).values_list("campaign_id", flat=True).first()
    if campaign_id is None:
        raise Http404(_("No such job."))
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=write)
    return access, Job.objects.get(pk=job_id)


class JobDetailApi(APIView):
    @extend_schema(responses=JobOut)
    def get(self, request, job_id: int):
        access, job = _job(request, job_id)
        return _job_response(job, is_gm=access.is_gm)


class JobUndoApi(APIView):
    @extend_schema(request=None, responses=JobOut)
    def post(self, request, job_id: int):
        access, job = _job(request, job_id, write=True)
        NoBodyIn(data=request.data).is_valid(raise_exception=True)
        job = services.downtime_undo(job=job, by=request.user)
        return _job_response(job, is_gm=True)


class TransitionApi(APIView):
    @extend_schema(request=TransitionIn, responses={201: dict, 200: dict})
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = TransitionIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if values["preview"]:
            return Response({"characters": transitions.transition_preview(
                campaign=access.campaign, category=values["category"], character_ids=values["characters"])})
        response, created = transitions.transition_make(
            campaign=access.campaign, by=request.user, category=values["category"],
            character_ids=values["characters"], idempotency_key=values["idempotency_key"], dice=values["dice"])
        return Response(response, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


def _gm_owned(request, model, pk: int, missing: str):
    """Return a campaign's record for its GM: 404 (``missing`` says what) for an unknown one or an
    outsider, 403 for members."""
    record = model.objects.filter(pk=pk).first()
    if record is None:
        raise Http404(missing)
    access_campaign(user=request.user, campaign_id=record.campaign_id, write=True)
    return record


class TransitionUndoApi(APIView):
    @extend_schema(request=None, responses=dict)
    def post(self, request, transition_id: int):
        batch = _gm_owned(request, TransitionBatch, transition_id, _("No such transition."))
        NoBodyIn(data=request.data).is_valid(raise_exception=True)
        batch = transitions.transition_undo(batch=batch, by=request.user)
        return Response({"id": batch.pk, "undone": True})


class TherapyListApi(APIView):
    @extend_schema(responses=TherapyOut(many=True))
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        return Response(TherapyOut(access.campaign.therapies.all(), many=True, context={"is_gm": access.is_gm}).data)

    @extend_schema(request=TherapyIn, responses={201: TherapyOut})
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = TherapyIn(data=request.data)
        data.is_valid(raise_exception=True)
        therapy = treatments.therapy_define(campaign=access.campaign, by=request.user, **data.validated_data)
        return Response(TherapyOut(therapy, context={"is_gm": True}).data, status=status.HTTP_201_CREATED)


class TreatmentApi(APIView):
    @extend_schema(request=TreatmentIn, responses={201: TreatmentOut, 200: TreatmentOut})
    def post(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id, write=True)
        if not access.is_gm:
            raise exceptions.PermissionDenied(_("Only the campaign's GM gives treatments."))
        data = TreatmentIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        treatment, created = treatments.treatment_give(
            character=access.character, by=request.user, kind=values["kind"], therapy_id=values["therapy"],
            as_end=values["as_end"], dice=values["dice"], idempotency_key=values["idempotency_key"])
        return Response(TreatmentOut(treatment).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class TreatmentUndoApi(APIView):
    @extend_schema(request=None, responses=TreatmentOut)
    def post(self, request, treatment_id: int):
        treatment = _gm_owned(request, Treatment, treatment_id, _("No such treatment."))
        NoBodyIn(data=request.data).is_valid(raise_exception=True)
        treatment = treatments.treatment_undo(treatment=treatment, by=request.user)
        return Response(TreatmentOut(treatment).data)



class ImmersionApi(APIView):
    @extend_schema(request=ImmersionIn, responses={201: dict, 200: dict},
                   description="Log hours of immersion in one of the character's languages (GM). Each interval "
                               "ends in a LAN check on 4d6 (in the roll feed); the clock is kept on the language "
                               "between sessions and across Zener Transitions. A replayed idempotency key is 200 "
                               "with the first answer.")
    def post(self, request, character_id: int, line_id: int):
        access = access_character(user=request.user, character_id=character_id, write=True)
        if not access.is_gm:
            raise exceptions.PermissionDenied(_("Only the campaign's GM logs immersion."))
        data = ImmersionIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        answer, made = immersion.immersion_log(
            character=access.character, language_id=line_id, by=request.user, hours=v["hours"], aspect=v["aspect"],
            era_gap=v["era_gap"], related=v["related"], new_language=v["new_language"], gm_modifier=v["modifier"],
            dice=v["dice"], idempotency_key=v["idempotency_key"])
        return Response(answer, status=status.HTTP_201_CREATED if made else status.HTTP_200_OK)
