from django.urls import path

from . import api

urlpatterns = [
    path("campaigns/<int:campaign_id>/downtime/", api.DowntimeApi.as_view(), name="api-campaign-downtime"),
    path("jobs/<int:job_id>/", api.JobDetailApi.as_view(), name="api-job-detail"),
    path("jobs/<int:job_id>/undo/", api.JobUndoApi.as_view(), name="api-job-undo"),
    path("campaigns/<int:campaign_id>/transitions/", api.TransitionApi.as_view(), name="api-campaign-transitions"),
    path("transitions/<int:transition_id>/undo/", api.TransitionUndoApi.as_view(), name="api-transition-undo"),
    path("campaigns/<int:campaign_id>/therapies/", api.TherapyListApi.as_view(), name="api-campaign-therapies"),
    path("characters/<int:character_id>/treatments/", api.TreatmentApi.as_view(), name="api-character-treatments"),
    path("characters/<int:character_id>/languages/<int:line_id>/immersion/", api.ImmersionApi.as_view(),
         name="api-language-immersion"),
    path("treatments/<int:treatment_id>/undo/", api.TreatmentUndoApi.as_view(), name="api-treatment-undo"),
]
