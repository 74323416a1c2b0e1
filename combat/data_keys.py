"""The data keys of fights (campaign.keys).

A fight is ``encounter:<id>``, with three parts that change at different paces: ``/turn`` (the
state, the round, who acts), ``/fighters`` (the combatants and their wounds) and ``/log``. The
tracker shows the whole fight; the page's header only its name (``/about``), so a blow does not
send every phone for its page. A combatant, hidden or not, is its fight's ``/fighters``: a key
never names what the GM hides, and hiding an NPC again changes what the players see of the fight.
"""

from campaign.audience import GM_ONLY
from campaign.keys import campaign, register

from .models import CombatEvent, Combatant, Encounter, NpcSetup, SystemFight

#: What moves with every turn; anything else (the name, the GM's notes, approval) is the whole fight.
TURN_FIELDS = {"state", "round", "turn", "order"}


def _encounter(row, _, fields):
    keys = [f"encounter:{row.pk}/turn", campaign(row.campaign_id, "encounters")]
    if fields is None or fields - TURN_FIELDS:
        keys.append(f"encounter:{row.pk}")
    return keys


register(Encounter, _encounter)
register(Combatant, lambda row, _: [f"encounter:{row.encounter_id}/fighters"])
register(CombatEvent, lambda row, _: [(f"encounter:{row.encounter_id}/log", row.seen)])
register(NpcSetup, lambda row, _: [(campaign(row.campaign_id, "npc-setups"), GM_ONLY)])
register(SystemFight, lambda row, _: [f"fight:{row.pk}", campaign(row.campaign_id, "fights")])
