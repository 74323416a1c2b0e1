from django.urls import path

from . import views

urlpatterns = [
    path("campaigns/<int:campaign_id>/roller/", views.roller, name="campaign-roller"),
    path("campaigns/<int:campaign_id>/roller/roll/", views.roller_roll, name="campaign-roller-roll"),
    path("campaigns/<int:campaign_id>/checks/", views.check_builder, name="check-builder"),
    path("campaigns/<int:campaign_id>/checks/roll/", views.check_builder_roll, name="check-builder-roll"),
    path("campaigns/<int:campaign_id>/rolls/", views.feed, name="campaign-rolls-feed"),
    path("tables/", views.tables, name="tables"),
    path("glossary/", views.glossary, name="glossary"),
    path("characters/<int:character_id>/checks/", views.sheet_roll_form, name="sheet-roll-form"),
    path("characters/<int:character_id>/checks/roll/", views.sheet_roll_make, name="sheet-roll"),
    path("rolls/<int:roll_id>/reroll/", views.roll_reroll, name="roll-reroll"),
]
