from django.urls import path

from . import views
from .views import wounds as views_wounds

line = "characters/<int:character_id>/lines/<str:kind>/"

urlpatterns = [
    path("campaigns/<int:campaign_id>/characters/", views.party, name="character-party"),
    path("campaigns/<int:campaign_id>/characters/new/", views.character_new, name="character-new"),
    path("characters/<int:character_id>/", views.character_sheet, name="character-sheet"),
    path("characters/<int:character_id>/build/", views.character_build, name="character-build"),
    path("characters/<int:character_id>/stats/", views.stats_save, name="character-stats"),
    path("characters/<int:character_id>/stats/preview/", views.stats_preview, name="character-stats-preview"),
    path("characters/<int:character_id>/roll/", views.stats_roll, name="character-roll"),
    path(line, views.line_add, name="character-line-add"),
    path(line + "new/", views.line_new, name="character-line-new"),
    path(line + "<int:item_id>/", views.line_update, name="character-line-update"),
    path(line + "<int:item_id>/edit/", views.line_edit, name="character-line-edit"),
    path(line + "<int:item_id>/delete/", views.line_delete, name="character-line-delete"),
    path(line + "<int:item_id>/classify/", views.line_classify, name="character-line-classify"),
    path(line + "classify/", views.lines_classify, name="character-lines-classify"),
    path("characters/<int:character_id>/submit/", views.character_submit, name="character-submit"),
    path("characters/<int:character_id>/approve/", views.character_approve, name="character-approve"),
    path("characters/<int:character_id>/return/", views.character_return, name="character-return"),
    path("characters/<int:character_id>/state/", views.character_state, name="character-state"),
    path("characters/<int:character_id>/notes/", views.character_notes, name="character-notes"),
    path("characters/<int:character_id>/wounds/", views_wounds.wounds_panel, name="character-wounds-panel"),
    path("characters/<int:character_id>/wounds/record/", views_wounds.wounds_record, name="character-wounds-record"),
    path("characters/<int:character_id>/history/", views.character_history, name="character-history"),
    path("characters/<int:character_id>/revert/", views.character_revert, name="character-revert"),
    path("characters/<int:character_id>/sheet.pdf", views.character_pdf, name="character-pdf"),
    # The sheets of the other rule sets.
    path("campaigns/<int:campaign_id>/system-sheets/new/", views.system_sheet_new, name="system-sheet-new"),
    path("system-sheets/<int:sheet_id>/", views.system_sheet_page, name="system-sheet"),
    path("system-sheets/<int:sheet_id>/pools/", views.system_sheet_pool, name="system-sheet-pool"),
    # The API's copy lives here so the API's own urls module stays with its owners.
    path("api/v1/characters/<int:character_id>/sheet.pdf", views.CharacterSheetPdfApi.as_view(),
         name="api-character-pdf"),
]
