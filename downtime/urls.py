from django.urls import path

from . import views

urlpatterns = [
    path("campaigns/<int:campaign_id>/downtime/", views.downtime_page, name="campaign-downtime"),
    path("campaigns/<int:campaign_id>/jobs/<int:job_id>/", views.job_page, name="campaign-job"),
    path("campaigns/<int:campaign_id>/jobs/<int:job_id>/undo/", views.job_undo, name="campaign-job-undo"),
    path("campaigns/<int:campaign_id>/treat/", views.treat_now, name="campaign-treat"),
    path("campaigns/<int:campaign_id>/treatments/<int:treatment_id>/undo/", views.treatment_undo,
         name="campaign-treatment-undo"),
    path("campaigns/<int:campaign_id>/transition/", views.transition_page, name="campaign-transition-new"),
    path("campaigns/<int:campaign_id>/transitions/<int:transition_id>/", views.transition_result,
         name="campaign-transition"),
]
