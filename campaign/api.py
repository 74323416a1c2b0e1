"""Campaign endpoints under /api/v1/: thin views over the access helper, services and selectors."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from . import selectors, services
from .models import Job
from .permissions import access_campaign
from .serializers import CampaignCreateIn, CampaignOut, CampaignUpdateIn, DowntimeIn, JobOut, MemberAddIn, MemberOut


class CampaignListApi(APIView):
    @extend_schema(responses=CampaignOut(many=True))
    def get(self, request):
        campaigns = list(selectors.campaign_list(viewer=request.user))
        roles = dict(request.user.memberships.values_list("campaign_id", "role"))
        return Response(CampaignOut(campaigns, many=True, context={"roles": roles}).data)

    @extend_schema(request=CampaignCreateIn, responses={201: CampaignOut})
    def post(self, request):
        data = CampaignCreateIn(data=request.data)
        data.is_valid(raise_exception=True)
        campaign = services.campaign_create(by=request.user, **data.validated_data)
        return Response(CampaignOut(campaign, context={"roles": {campaign.pk: "gm"}}).data,
                        status=status.HTTP_201_CREATED)


class CampaignDetailApi(APIView):
    @extend_schema(responses=CampaignOut)
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        return Response(CampaignOut(access.campaign, context={"roles": {access.campaign.pk: access.role}}).data)

    @extend_schema(request=CampaignUpdateIn, responses=CampaignOut)
    def patch(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = CampaignUpdateIn(data=request.data)
        data.is_valid(raise_exception=True)
        campaign = services.campaign_update(campaign=access.campaign, by=request.user, **data.validated_data)
        return Response(CampaignOut(campaign, context={"roles": {campaign.pk: access.role}}).data)


class MemberListApi(APIView):
    @extend_schema(responses=MemberOut(many=True))
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        return Response(MemberOut(selectors.membership_list(campaign=access.campaign), many=True).data)

    @extend_schema(request=MemberAddIn, responses={201: MemberOut})
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = MemberAddIn(data=request.data)
        data.is_valid(raise_exception=True)
        membership = services.membership_add(campaign=access.campaign, by=request.user, **data.validated_data)
        return Response(MemberOut(membership).data, status=status.HTTP_201_CREATED)


class DowntimeApi(APIView):
    @extend_schema(request=DowntimeIn, responses={202: JobOut})
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = DowntimeIn(data=request.data)
        data.is_valid(raise_exception=True)
        job = services.downtime_start(campaign=access.campaign, by=request.user, **data.validated_data)
        return Response(JobOut(job).data, status=status.HTTP_202_ACCEPTED)


class JobDetailApi(APIView):
    @extend_schema(responses=JobOut)
    def get(self, request, job_id: int):
        campaign_id = Job.objects.filter(pk=job_id).values_list("campaign_id", flat=True).first()
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        return Response(JobOut(selectors.job_get(campaign=access.campaign, job_id=job_id)).data)
