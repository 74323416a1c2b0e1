from django.urls import path

from . import api

urlpatterns = [
    path("odds/", api.OddsApi.as_view(), name="api-odds"),
    path("campaigns/<int:campaign_id>/rolls/", api.RollFeedApi.as_view(), name="api-campaign-rolls"),
]
