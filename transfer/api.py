"""Transfer endpoints under /api/v1/: export a campaign (GM), import a document (anyone logged in)."""

from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.models import Campaign
from campaign.permissions import access_campaign

from . import services
from .serializers import ImportInviteIn, ImportOut, ImportReportOut


def download_name(campaign: Campaign) -> str:
    return f"{slugify(campaign.name) or 'campaign'}-{timezone.now():%Y-%m-%d}.json"


class CampaignExportApi(APIView):
    # JSON whatever the client accepts: the settings page links here for a download.
    renderer_classes = [JSONRenderer]

    @extend_schema(responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="The campaign document "
                                                   "(docs/api.md, \"Campaign export and import\")."),
                              409: OpenApiResponse(description="A downtime is queued or running: export once it "
                                                               "has finished.")})
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        response = Response(services.export_campaign(access.campaign))
        response["Content-Disposition"] = f'attachment; filename="{download_name(access.campaign)}"'
        return response


class CampaignImportApi(APIView):
    @extend_schema(request={"application/json": OpenApiTypes.OBJECT}, responses={201: ImportOut})
    def post(self, request):
        # A body over DATA_UPLOAD_MAX_MEMORY_SIZE is refused (413) by the API's JSON parser
        # before a byte is read, as for every endpoint.
        campaign = services.import_campaign(request.data, request.user)
        report = services.import_report(campaign)
        return Response(ImportOut({"id": campaign.pk, "skipped_members": [p["username"] for p in report["people"]],
                                   **report}).data, status=status.HTTP_201_CREATED)


class CampaignImportInvitationsApi(APIView):
    def _access(self, request, campaign_id: int, write: bool):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=write)
        if not access.is_gm:
            raise PermissionDenied(_("The import's people are the GM's to invite."))
        return access

    @extend_schema(responses={200: ImportReportOut}, description="Whom the imported document named and what "
                   "became of each (GM); empty lists for a campaign that was not imported.")
    def get(self, request, campaign_id: int):
        report = services.import_report(self._access(request, campaign_id, write=False).campaign)
        return Response(ImportReportOut(report or {"people": [], "characters": []}).data)

    @extend_schema(request=ImportInviteIn, responses={200: ImportReportOut},
                   description="Invite as players the people named that the GM confirms (only those the document "
                               "named and this server knows); the GM promotes whom they choose once joined.")
    def post(self, request, campaign_id: int):
        access = self._access(request, campaign_id, write=True)
        data = ImportInviteIn(data=request.data)
        data.is_valid(raise_exception=True)
        report = services.import_invite(campaign=access.campaign, by=request.user,
                                        usernames=data.validated_data["usernames"])
        return Response(ImportReportOut(report).data)
