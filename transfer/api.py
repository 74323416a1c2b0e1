"""Transfer endpoints under /api/v1/: export a campaign (GM), import a document (anyone logged in)."""

from django.utils import timezone
from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.models import Campaign
from campaign.permissions import access_campaign

from . import services
from .serializers import ImportOut


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
        return Response(ImportOut({"id": campaign.pk, "skipped_members": campaign.skipped_members}).data,
                        status=status.HTTP_201_CREATED)
