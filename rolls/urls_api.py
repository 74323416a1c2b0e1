from django.urls import path

from . import api

urlpatterns = [
    path("odds/", api.OddsApi.as_view(), name="api-odds"),
    path("campaigns/<int:campaign_id>/rolls/", api.RollFeedApi.as_view(), name="api-campaign-rolls"),
    path("campaigns/<int:campaign_id>/checks/", api.CheckRollApi.as_view(), name="api-campaign-checks"),
    path("campaigns/<int:campaign_id>/checks/preview/", api.CheckPreviewApi.as_view(),
         name="api-campaign-checks-preview"),
    path("characters/<int:character_id>/rolls/", api.SheetRollApi.as_view(), name="api-character-rolls"),
    path("rolls/<int:roll_id>/reroll/", api.RerollApi.as_view(), name="api-roll-reroll"),
]
