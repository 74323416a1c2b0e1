from django.urls import path

from . import views

urlpatterns = [
    path("campaigns/import/", views.import_page, name="campaign-import"),
    path("campaigns/<int:campaign_id>/imported/", views.imported_page, name="campaign-imported"),
]
