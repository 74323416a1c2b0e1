from django.urls import path

from . import views as economy_views

urlpatterns = [
    path("characters/<int:character_id>/karma/", economy_views.character_karma, name="character-karma"),
    path("characters/<int:character_id>/karma/preview/", economy_views.karma_preview, name="character-karma-preview"),
    path("characters/<int:character_id>/complications/", economy_views.character_complication,
         name="character-complication"),
    path("campaigns/<int:campaign_id>/adventures/", economy_views.adventures, name="campaign-adventures"),
    path("campaigns/<int:campaign_id>/awards/", economy_views.campaign_awards, name="campaign-awards"),
    path("adventures/<int:adventure_id>/tokens/", economy_views.token_add, name="adventure-token-add"),
    path("adventures/<int:adventure_id>/tokens/<int:token_id>/void/", economy_views.token_void,
         name="adventure-token-void"),
    path("adventures/<int:adventure_id>/close/", economy_views.adventure_close, name="adventure-close"),
    path("campaigns/<int:campaign_id>/macguffins/", economy_views.macguffins, name="campaign-macguffins"),
    path("campaigns/<int:campaign_id>/macguffins/live/", economy_views.macguffins_live,
         name="campaign-macguffins-live"),
    path("macguffins/<int:macguffin_id>/contribute/", economy_views.macguffin_contribute,
         name="macguffin-contribute"),
]
