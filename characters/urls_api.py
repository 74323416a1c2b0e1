from django.urls import path

from . import api, api_system_sheets, api_wounds
from .items import ITEM_KINDS

character = "characters/<int:character_id>/"

urlpatterns = [
    path("characters/", api.CharacterListApi.as_view(), name="api-character-list"),
    path(character, api.CharacterDetailApi.as_view(), name="api-character-detail"),
    path(character + "budget/", api.BudgetApi.as_view(), name="api-character-budget"),
    path(character + "submit/", api.SubmitApi.as_view(), name="api-character-submit"),
    path(character + "approve/", api.ApproveApi.as_view(), name="api-character-approve"),
    path(character + "return/", api.ReturnApi.as_view(), name="api-character-return"),
    path(character + "history/", api.HistoryApi.as_view(), name="api-character-history"),
    path(character + "wounds/", api_wounds.WoundsApi.as_view(), name="api-character-wounds"),
    # The sheets of the other rule sets (a campaign that plays ZeroSpace, Success Check, …).
    path("campaigns/<int:campaign_id>/system-sheets/", api_system_sheets.SystemSheetListApi.as_view(),
         name="api-campaign-system-sheets"),
    path("system-sheets/<int:sheet_id>/", api_system_sheets.SystemSheetDetailApi.as_view(),
         name="api-system-sheet"),
    path("system-sheets/<int:sheet_id>/pools/", api_system_sheets.SystemSheetPoolsApi.as_view(),
         name="api-system-sheet-pools"),
    path("system-sheets/<int:sheet_id>/rest-asks/", api_system_sheets.SystemSheetRestAskApi.as_view(),
         name="api-system-sheet-rest-asks"),
]

# Nested CRUD for each kind of sheet line: api-character-skills, api-character-skills-detail, …
for kind in ITEM_KINDS:
    list_view, detail_view = api.line_views(kind)
    urlpatterns += [
        path(f"{character}{kind}/", list_view.as_view(), name=f"api-character-{kind}"),
        path(f"{character}{kind}/<int:item_id>/", detail_view.as_view(), name=f"api-character-{kind}-detail"),
    ]
