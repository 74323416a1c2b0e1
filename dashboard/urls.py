from django.urls import path

from . import views

urlpatterns = [
    path("campaigns/<int:campaign_id>/", views.dashboard, name="campaign-dashboard"),
]
