from django.urls import path

from . import api, api_system_fights

encounter = "encounters/<int:encounter_id>/"

urlpatterns = [
    path("campaigns/<int:campaign_id>/encounters/", api.EncounterListApi.as_view(), name="api-campaign-encounters"),
    path(encounter, api.EncounterDetailApi.as_view(), name="api-encounter-detail"),
    path(encounter + "combatants/", api.CombatantListApi.as_view(), name="api-encounter-combatants"),
    path(encounter + "combatants/<int:combatant_id>/", api.CombatantDetailApi.as_view(),
         name="api-encounter-combatant"),
    path(encounter + "initiative/", api.InitiativeApi.as_view(), name="api-encounter-initiative"),
    path(encounter + "attacks/", api.AttackApi.as_view(), name="api-encounter-attacks"),
    path(encounter + "dying/", api.DyingApi.as_view(), name="api-encounter-dying"),
    path(encounter + "next-turn/", api.NextTurnApi.as_view(), name="api-encounter-next-turn"),
    path(encounter + "hold/", api.HoldApi.as_view(), name="api-encounter-hold"),
    path(encounter + "act-now/", api.ActNowApi.as_view(), name="api-encounter-act-now"),
    path(encounter + "reactions/", api.ReactionApi.as_view(), name="api-encounter-reactions"),
    path(encounter + "requests/<int:event_id>/", api.RequestAnswerApi.as_view(), name="api-encounter-request"),
    path(encounter + "log/", api.LogApi.as_view(), name="api-encounter-log"),
    path(encounter + "undo/", api.UndoApi.as_view(), name="api-encounter-undo"),
    path(encounter + "end/", api.EndApi.as_view(), name="api-encounter-end"),
    path(encounter + "again/", api.FightAgainApi.as_view(), name="api-encounter-again"),
    path("campaigns/<int:campaign_id>/npc-setups/", api.NpcSetupListApi.as_view(), name="api-campaign-npc-setups"),
    path("npc-setups/<int:setup_id>/", api.NpcSetupDetailApi.as_view(), name="api-npc-setup"),
    path("npc-setups/<int:setup_id>/fights/", api.FightFromSetupApi.as_view(), name="api-npc-setup-fights"),
    path("campaigns/<int:campaign_id>/system-fights/", api_system_fights.SystemFightListApi.as_view(),
         name="api-campaign-system-fights"),
    path("system-fights/<int:fight_id>/", api_system_fights.SystemFightDetailApi.as_view(), name="api-system-fight"),
    path("system-fights/<int:fight_id>/actions/", api_system_fights.SystemFightActionApi.as_view(),
         name="api-system-fight-actions"),
    path("system-fights/<int:fight_id>/blows/", api_system_fights.SystemFightBlowApi.as_view(),
         name="api-system-fight-blows"),
    path("system-fights/<int:fight_id>/blows/preview/", api_system_fights.SystemFightBlowPreviewApi.as_view(),
         name="api-system-fight-blow-preview"),
    path("system-fights/<int:fight_id>/undo/", api_system_fights.SystemFightUndoApi.as_view(),
         name="api-system-fight-undo"),
]
