from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("campaigns/<int:campaign_id>/", views.dashboard, name="campaign-dashboard"),
    path("campaigns/<int:campaign_id>/downtime/", views.downtime_start, name="campaign-downtime"),
    path("campaigns/<int:campaign_id>/jobs/<int:job_id>/", views.job_status, name="campaign-job"),
]
