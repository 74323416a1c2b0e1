from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("campaigns/<int:campaign_id>/settings/", views.settings_page, name="campaign-settings"),
]
