from django.urls import path

from . import api as api_economy

urlpatterns = [
    path("characters/<int:character_id>/karma/", api_economy.CharacterKarmaApi.as_view(), name="api-character-karma"),
    path("characters/<int:character_id>/karma-flags/", api_economy.CharacterKarmaFlagsApi.as_view(),
         name="api-character-karma-flags"),
    path("characters/<int:character_id>/complications/", api_economy.CharacterComplicationsApi.as_view(),
         name="api-character-complications"),
    path("campaigns/<int:campaign_id>/awards/", api_economy.AwardApi.as_view(), name="api-campaign-awards"),
    path("campaigns/<int:campaign_id>/adventures/", api_economy.AdventureListApi.as_view(),
         name="api-campaign-adventures"),
    path("adventures/<int:adventure_id>/", api_economy.AdventureDetailApi.as_view(), name="api-adventure-detail"),
    path("adventures/<int:adventure_id>/tokens/", api_economy.TokenListApi.as_view(), name="api-adventure-tokens"),
    path("adventures/<int:adventure_id>/tokens/<int:token_id>/void/", api_economy.TokenVoidApi.as_view(),
         name="api-adventure-token-void"),
    path("adventures/<int:adventure_id>/close/", api_economy.AdventureCloseApi.as_view(), name="api-adventure-close"),
    path("campaigns/<int:campaign_id>/macguffins/", api_economy.MacGuffinListApi.as_view(),
         name="api-campaign-macguffins"),
    path("macguffins/<int:macguffin_id>/", api_economy.MacGuffinDetailApi.as_view(), name="api-macguffin-detail"),
    path("macguffins/<int:macguffin_id>/contributions/", api_economy.ContributionApi.as_view(),
         name="api-macguffin-contributions"),
]
