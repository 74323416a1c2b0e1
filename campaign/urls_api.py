from django.urls import path

from . import api

urlpatterns = [
    path("campaigns/", api.CampaignListApi.as_view(), name="api-campaign-list"),
    path("campaigns/<int:campaign_id>/", api.CampaignDetailApi.as_view(), name="api-campaign-detail"),
    path("campaigns/<int:campaign_id>/archive/", api.CampaignArchiveApi.as_view(), name="api-campaign-archive"),
    path("campaigns/<int:campaign_id>/restore/", api.CampaignArchiveApi.as_view(), {"restore": True},
         name="api-campaign-restore"),
    path("campaigns/<int:campaign_id>/members/", api.MemberListApi.as_view(), name="api-campaign-members"),
    path("campaigns/<int:campaign_id>/invitations/", api.InvitationListApi.as_view(), name="api-campaign-invitations"),
    path("campaigns/<int:campaign_id>/invitations/<int:invitation_id>/", api.InvitationDetailApi.as_view(),
         name="api-campaign-invitation"),
    path("invitations/accept/", api.InvitationAcceptApi.as_view(), name="api-invitation-accept"),
    path("campaigns/<int:campaign_id>/events/", api.EventsApi.as_view(), name="api-campaign-events"),
    path("campaigns/<int:campaign_id>/log/", api.LogApi.as_view(), name="api-campaign-log"),
]
