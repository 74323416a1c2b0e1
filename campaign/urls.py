from django.urls import path

from . import stream, views

urlpatterns = [
    path("", views.home, name="home"),
    path("campaigns/<int:campaign_id>/settings/", views.settings_page, name="campaign-settings"),
    path("campaigns/<int:campaign_id>/log/", views.log_page, name="campaign-log"),
    path("join/<str:token>/", views.join, name="join"),
    path("campaigns/<int:campaign_id>/stream/", stream.campaign_stream, name="campaign-stream"),
]
