from django.urls import path

from . import api

urlpatterns = [
    path("campaigns/<int:campaign_id>/sessions/", api.SessionListApi.as_view(), name="api-campaign-sessions"),
    path("campaigns/<int:campaign_id>/sessions/<int:number>/", api.SessionDetailApi.as_view(),
         name="api-campaign-session"),
    path("campaigns/<int:campaign_id>/sessions/<int:number>/notes/", api.SessionNotesApi.as_view(),
         name="api-campaign-session-notes"),
]
