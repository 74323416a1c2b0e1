from django.urls import path

from . import sessions, views

urlpatterns = [
    path("campaigns/<int:campaign_id>/", views.dashboard, name="campaign-dashboard"),
    path("campaigns/<int:campaign_id>/sessions/", sessions.sessions_page, name="campaign-sessions"),
    path("campaigns/<int:campaign_id>/sessions/<int:number>/", sessions.session_page, name="campaign-session"),
]
