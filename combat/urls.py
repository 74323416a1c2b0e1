from django.urls import path

from . import system_fight_pages, views

urlpatterns = [
    path("campaigns/<int:campaign_id>/encounters/", views.encounter_list, name="campaign-encounters"),
    path("encounters/<int:encounter_id>/", views.encounter_page, name="encounter"),
    path("encounters/<int:encounter_id>/live/", views.encounter_live, name="encounter-live"),
    path("encounters/<int:encounter_id>/preview/", views.attack_preview, name="encounter-preview"),
    path("encounters/<int:encounter_id>/act/", views.encounter_act, name="encounter-act"),
    path("encounters/<int:encounter_id>/table/", views.encounter_table, name="encounter-table"),
    path("npc-setups/<int:setup_id>/act/", views.npc_setup_act, name="npc-setup-act"),
    # Fights of the other rule sets (ZeroSpace's turn order).
    path("campaigns/<int:campaign_id>/system-fights/", system_fight_pages.system_fight_list,
         name="campaign-system-fights"),
    path("system-fights/<int:fight_id>/", system_fight_pages.system_fight_page, name="system-fight"),
    path("system-fights/<int:fight_id>/act/", system_fight_pages.system_fight_act, name="system-fight-act"),
    path("system-fights/<int:fight_id>/blow/", system_fight_pages.system_fight_blow, name="system-fight-blow"),
    path("system-fights/<int:fight_id>/undo/", system_fight_pages.system_fight_undo, name="system-fight-undo"),
]
