from django.urls import path

from . import api

urlpatterns = [
    path("campaigns/<int:campaign_id>/export/", api.CampaignExportApi.as_view(), name="api-campaign-export"),
    path("campaigns/import/", api.CampaignImportApi.as_view(), name="api-campaign-import"),
    path("campaigns/<int:campaign_id>/import-invitations/", api.CampaignImportInvitationsApi.as_view(),
         name="api-campaign-import-invitations"),
]
