from django.urls import path

from . import views

urlpatterns = [
    path("campaigns/import/", views.import_page, name="campaign-import"),
]
