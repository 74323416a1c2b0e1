"""The encounter's tracker as a live part: rendered once per combat event for the players (the
tracker and log they may see) and once for the GM (hidden NPCs, approval requests, dying rounds).

The attack form is each viewer's own (their characters, on their turn): the shared copy leaves
its slot empty, named by the turn, so a page keeps its form while the turn stays and fetches
its own when the turn moves on.

The table display (a screen facing the players) has two parts of its own, the order and the last
rolls, both rendered for the players whoever watches.
"""

from __future__ import annotations

import hashlib

from campaign import keys
from campaign.audience import Audience
from campaign.events import last_event_id
from campaign.models import Membership
from campaign.parts import LivePart, audience_cached, render_shared
from campaign.permissions import CampaignAccess
from rolls import selectors as roll_selectors

from . import selectors
from .forms import DyingForm
from .models import Encounter
from .permissions import EncounterAccess


def turn_key(state: dict) -> str:
    """Names the attack form's slot by the turn: the same round, the same one acting and the same
    combatants keep the form (and what was typed in it); a new turn or a new target makes a new one."""
    offered = (state["round"], state["acting"], [(c["id"], c["dead"]) for c in state["combatants"]])
    return hashlib.blake2b(repr(offered).encode(), digest_size=6).hexdigest()


def empty_slot(turn_key: str) -> str:
    """The attack slot as the shared copy leaves it (_attack_slot.html, rendered with ``shared``)."""
    return f'<div class="attack-slot" id="attack-{turn_key}" hx-preserve="true" data-live-slot></div>'


def tracker_state(access: EncounterAccess, *, last_event: int) -> dict:
    """The tracker as the viewer's audience sees it (selectors.tracker), read once per write
    for every page of that audience, beside the part's render."""
    return audience_cached("tracker-state", access.encounter.pk, campaign_id=access.encounter.campaign_id,
                           gm=access.is_gm, last_event=last_event, make=lambda: selectors.tracker(access=access))


def shared_context(access: EncounterAccess, state: dict | None = None) -> dict:
    """What the tracker shows to the viewer's audience (the GM, or every player)."""
    state = selectors.tracker(access=access) if state is None else state
    log = selectors.log_after(access=access, after=max(state["last_event"] - 30, 0))
    context = {"campaign": access.encounter.campaign, "access": access, "encounter": access.encounter,
               "state": state, "log": list(reversed(log)), "is_gm": access.is_gm, "turn_key": turn_key(state)}
    if access.is_gm:
        context["requests"] = selectors.requests_pending(encounter=access.encounter)
        context["dying_forms"] = [(c, DyingForm(initial={"combatant": c["id"]})) for c in state["combatants"]
                                  if c["dying"]]
    else:  # the players' attacks waiting for the GM, as far as every player may read them
        context["waiting"] = [r for r in selectors.requests_pending(encounter=access.encounter)
                              if r.audience == Audience.EVERYONE]
    return context


def _tracker(campaign, key: int, gm: bool) -> str:
    encounter = Encounter.objects.select_related("campaign").filter(pk=key, campaign=campaign).first()
    if encounter is None:
        return ""
    role = Membership.Role.GM if gm else Membership.Role.PLAYER
    access = EncounterAccess(encounter, CampaignAccess(campaign=campaign, role=role), None)
    # The numbers as the pages of this audience read them (tracker_state), if one already has.
    state = tracker_state(access, last_event=last_event_id(campaign=campaign))
    return render_shared("combat/_live.html", shared_context(access, state))


def _fight_shows(campaign_id: int, key: int) -> list[str]:
    # The fight, and the characters in it: their wounds are on their sheets.
    return [f"encounter:{key}", keys.campaign(campaign_id, "characters")]


TRACKER = LivePart(name="encounter", shows=_fight_shows, render=_tracker, per_object=True)


# --- The table display: what the players may see, whoever opens it --------------------------------
def table_context(encounter: Encounter) -> dict:
    """The table display's order, turn and public log: always the players' view, so a GM's laptop
    turned to the table shows nothing the GM hides."""
    access = EncounterAccess(encounter, CampaignAccess(campaign=encounter.campaign, role=Membership.Role.PLAYER),
                             None)
    state = selectors.tracker(access=access)
    log = selectors.log_after(access=access, after=max(state["last_event"] - 30, 0))
    acting = next((c for c in state["combatants"] if c["acting"]), None)
    return {"encounter": encounter, "state": state, "acting": acting, "log": list(reversed(log))[:6]}


def _table(campaign, key: int, gm: bool) -> str:
    encounter = Encounter.objects.select_related("campaign").filter(pk=key, campaign=campaign).first()
    if encounter is None:
        return ""
    return render_shared("combat/_table.html", table_context(encounter))  # ``gm`` ignored: see table_context


def _table_rolls(campaign, key: None, gm: bool) -> str:
    rolls = roll_selectors.feed(campaign_id=campaign.pk, user=None, is_gm=False, limit=6)
    return render_shared("combat/_table_rolls.html", {"rolls": rolls, "campaign": campaign})


TABLE = LivePart(name="table", shows=_fight_shows, render=_table, per_object=True)
TABLE_ROLLS = LivePart(name="table-rolls", shows=lambda campaign_id, key: [keys.campaign(campaign_id, "rolls")],
                       render=_table_rolls)
