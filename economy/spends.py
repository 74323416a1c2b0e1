"""Karma spends: the price a spend would cost (for the live preview) and the spend itself."""

from __future__ import annotations

from django.utils.translation import gettext as _

from campaign.errors import CampaignConflict, CampaignError
from characters.models import STAT_FIELDS, Character, Disadvantage
from economy.ledger import KarmaShort, client_key, karma_post
from rulebook import RulesError
from rulebook.karma import (
    DELAY_TRANSITION_UPGRADES,
    SPEND_KINDS,
    spend_cost,
)
from rulebook.stats import PRIMARY_STATS
from rulebook.words import Said, said
from zenergate_site import limits

from .common import (
    GM_ONLY_SPENDS,
    current_adventure,
    in_sentence,
    removals_this_adventure,
    rules_call,
    rules_refusal,
    upgrades_in_effect,
)
from .models import KarmaEntry


# --- Spends -------------------------------------------------------------------------------
def _gm_only_message(kind: str) -> str:
    """Why a player cannot make a spend only the GM prices or allows."""
    if kind == "good_fortune":
        return _("The GM sets the price of a stroke of good fortune; ask them to enter it.")
    return _("A setback is paid off when the GM deems it right: ask the GM.")


def _stat_to_raise() -> str:
    return _("Name the stat to raise: one of %(stats)s.") % {"stats": " ".join(PRIMARY_STATS)}


def spend_quote(*, character: Character, kind: str, params: dict, is_gm: bool):
    """Price a spend without posting it: the rulebook's ``KarmaSpend``, or the reason it is refused.

    Uses the same look-ups as ``karma_spend`` (the stat's current value, ranks removed this
    adventure, the upgrades in effect, who may set a price) so a preview never disagrees with
    the spend it previews. Raises CampaignError / CampaignConflict like the spend would.
    """
    if kind not in SPEND_KINDS or kind == "macguffin":
        raise CampaignError(_("Unknown spend %(kind)r.") % {"kind": kind}, field="kind")
    if kind in GM_ONLY_SPENDS and not is_gm:
        raise CampaignError(_gm_only_message(kind), field="kind")
    if character.state != Character.State.ACTIVE:
        raise CampaignConflict(_("%(name)s is %(state)s: Karma moves only once the GM has approved the sheet.")
                               % {"name": character.name, "state": in_sentence(character.get_state_display())},
                               field="character")
    rules_params: dict = {}
    if kind == "skill_points":
        rules_params["amount"] = params.get("amount")
    elif kind == "stat_raise":
        if params.get("stat") not in PRIMARY_STATS:
            raise CampaignError(_stat_to_raise(), field="stat")
        rules_params["current"] = getattr(character, STAT_FIELDS[params["stat"]])
    elif kind == "disadvantage_removal":
        wanted = params.get("disadvantage")
        item = (Disadvantage.objects.filter(pk=wanted, character=character).first()
                if isinstance(wanted, int) and not isinstance(wanted, bool) else None)
        if item is None:
            raise CampaignError(_("Name one of this character's disadvantages."), field="disadvantage")
        rules_params.update(removed_this_adventure=removals_this_adventure(character, item,
                                                                           current_adventure(character.campaign)),
                            gm_override=bool(params.get("override")) and is_gm,
                            current_ranks=item.ranks, value=item.value)
    elif kind == "good_fortune":
        rules_params["cost"] = params.get("cost")
    elif kind == "setback_payoff":
        stat = params.get("stat")
        if stat not in (character.stat_setbacks or {}):
            raise CampaignError(_("Name a stat this character lost to a Complication."), field="stat")
        rules_params["setback"] = character.stat_setbacks[stat]
    elif kind == "delay_transition":
        missing = set(DELAY_TRANSITION_UPGRADES) - upgrades_in_effect(character.campaign)
        rules_params.update(upgrades=upgrades_in_effect(character.campaign), time_index=params.get("time_index"))
        if missing:
            return rules_refusal(spend_cost, kind, field="kind", **rules_params)
    try:
        spend = spend_cost(kind, **rules_params)
    except RulesError as exc:
        bad_input = kind in ("skill_points", "good_fortune", "delay_transition")
        field = {"skill_points": "amount", "stat_raise": "stat", "disadvantage_removal": "disadvantage",
                 "good_fortune": "cost", "delay_transition": "time_index", "setback_payoff": "stat"}.get(kind, "kind")
        raise (CampaignError if bad_input else CampaignConflict)(str(exc), field=field) from None
    if spend.cost > character.karma:
        raise KarmaShort(_("%(name)s has %(karma)s Karma; this needs %(cost)s.")
                         % {"name": character.name, "karma": character.karma, "cost": spend.cost}, field="amount")
    return spend


def karma_spend(*, character: Character, kind: str, idempotency_key: str, by, is_gm: bool,
                params: dict) -> tuple[KarmaEntry, bool]:
    """Spend Karma on one of the article's uses; return (entry, created).

    A replayed idempotency key returns the first entry before anything is checked again, so
    a double-click or a retried request never spends twice.
    """
    if kind not in SPEND_KINDS or kind == "macguffin":
        allowed = ", ".join(k for k in SPEND_KINDS if k != "macguffin")
        raise CampaignError(_("Unknown spend %(kind)r: use one of %(allowed)s (MacGuffins take contributions).")
                            % {"kind": kind, "allowed": allowed}, field="kind")
    if not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 100:
        raise CampaignError(_("Send an idempotency key (1–100 characters) with every spend."),
                            field="idempotency_key")
    idempotency_key = client_key(idempotency_key)
    replay = KarmaEntry.objects.filter(character=character, idempotency_key=idempotency_key).first()
    if replay is not None:
        if replay.kind != kind:
            raise CampaignConflict(_("That idempotency key was already used for another kind of spend; send a new "
                                     "key for a new request."), field="idempotency_key")
        return replay, False
    if kind in GM_ONLY_SPENDS and not is_gm:
        raise CampaignError(_gm_only_message(kind), field="kind")
    campaign = character.campaign
    adventure = current_adventure(campaign)
    # A reason typed by a person, or the app's own (a Said, as a reroll names its roll).
    reason = params.get("reason", "")
    reason = reason if isinstance(reason, Said) else str(reason)[:limits.KARMA_REASON]
    data: dict = {}

    if kind == "assist":
        helped_id = params.get("character")
        helped = (Character.objects.filter(pk=helped_id, campaign=campaign).first()
                  if isinstance(helped_id, int) and not isinstance(helped_id, bool) else None)
        if helped is None or helped.pk == character.pk:
            raise CampaignError(_("Name another character of this campaign to help."), field="character")
        price = rules_call(spend_cost, kind)
        data["helped"] = helped.pk
        reason = reason or said("+5 to %(name)s's roll", name=helped.name)
        return karma_post(character=character, amount=-price.cost, kind=kind, by=by, reason=reason,
                          adventure=adventure, idempotency_key=idempotency_key, data=data)

    if kind == "skill_points":
        price = rules_call(spend_cost, kind, amount=params.get("amount"), field="amount")

        def effect(locked: Character):
            locked.karma_converted += price.cost
            locked.save(update_fields=["karma_converted"])
            return {"skill_points": price.skill_points_gained}

        return karma_post(character=character, amount=-price.cost, kind=kind, by=by,
                          reason=reason or said("%(cost)s Karma → %(points)s skill points", cost=price.cost,
                                                points=price.skill_points_gained),
                          adventure=adventure, idempotency_key=idempotency_key, effect=effect)

    if kind == "stat_raise":
        stat = params.get("stat")
        if stat not in PRIMARY_STATS:
            raise CampaignError(_stat_to_raise(), field="stat")
        field = STAT_FIELDS[stat]

        def effect(locked: Character):
            current = getattr(locked, field)
            price = rules_refusal(spend_cost, kind, current=current, field="stat")
            if price.cost != cost_now:
                raise CampaignConflict(_("The stat changed meanwhile; check the new price and try again."), field="stat")
            setattr(locked, field, current + 1)
            raises = dict(locked.stat_raises or {})
            raises[stat] = raises.get(stat, 0) + 1
            locked.stat_raises = raises
            locked.save(update_fields=[field, "stat_raises"])
            return {"stat": stat, "from": current, "to": current + 1}

        cost_now = rules_refusal(spend_cost, kind, current=getattr(character, field), field="stat").cost
        return karma_post(character=character, amount=-cost_now, kind=kind, by=by,
                          reason=reason or said("%(stat)s +1", stat=stat), adventure=adventure,
                          idempotency_key=idempotency_key, effect=effect)

    if kind == "setback_payoff":
        stat = params.get("stat")
        if stat not in (character.stat_setbacks or {}):
            raise CampaignError(_("Name a stat this character lost to a Complication."), field="stat")
        field = STAT_FIELDS[stat]

        def pay_off(locked: Character):
            setbacks = dict(locked.stat_setbacks or {})
            rules_refusal(spend_cost, kind, setback=setbacks.get(stat, 0), field="stat")
            setbacks[stat] -= 1
            if not setbacks[stat]:
                del setbacks[stat]
            before = getattr(locked, field)
            setattr(locked, field, before + 1)
            locked.stat_setbacks = setbacks
            locked.save(update_fields=[field, "stat_setbacks"])
            return {"stat": stat, "from": before, "to": before + 1}

        return karma_post(character=character, amount=-1, kind=kind, by=by,
                          reason=reason or said("paid off a point of the %(stat)s setback", stat=stat),
                          adventure=adventure,
                          idempotency_key=idempotency_key, effect=pay_off)

    if kind == "disadvantage_removal":
        wanted = params.get("disadvantage")
        disadvantage = (Disadvantage.objects.filter(pk=wanted, character=character).first()
                        if isinstance(wanted, int) and not isinstance(wanted, bool) else None)
        if disadvantage is None:
            raise CampaignError(_("Name one of this character's disadvantages."), field="disadvantage")
        override = bool(params.get("override")) and is_gm
        if params.get("override") and not is_gm:
            raise CampaignError(_("Only the GM may allow more than one rank per adventure."), field="override")

        def effect(locked: Character):
            item = Disadvantage.objects.select_for_update().get(pk=disadvantage.pk)
            removed = removals_this_adventure(locked, item, adventure)
            price = rules_refusal(spend_cost, kind, removed_this_adventure=removed, gm_override=override,
                             current_ranks=item.ranks, value=item.value, field="disadvantage")
            result = {"disadvantage": item.pk, "name": item.name, "ranks_before": item.ranks,
                      "points_lost": price.disadvantage_points_lost}
            if item.ranks == 1:
                item.delete()
            else:
                item.ranks -= 1
                item.save(update_fields=["ranks"])
            return result

        return karma_post(character=character, amount=-1, kind=kind, by=by,
                          reason=reason or said("one rank off %(name)s", name=disadvantage.name),
                          adventure=adventure,
                          idempotency_key=idempotency_key, effect=effect)

    if kind == "good_fortune":
        price = rules_call(spend_cost, kind, cost=params.get("cost"), field="cost")
        return karma_post(character=character, amount=-price.cost, kind=kind, by=by,
                          reason=reason or said("stroke of good fortune"), adventure=adventure,
                          idempotency_key=idempotency_key, data={"cost": price.cost})

    if kind == "delay_transition":
        try:
            price = spend_cost(kind, upgrades=upgrades_in_effect(campaign), time_index=params.get("time_index"))
        except RulesError as exc:
            missing = set(DELAY_TRANSITION_UPGRADES) - upgrades_in_effect(campaign)
            if missing:
                raise CampaignConflict(str(exc), field="kind") from None
            raise CampaignError(str(exc), field="time_index") from None
        return karma_post(character=character, amount=-price.cost, kind=kind, by=by,
                          reason=reason or said("delay the next Zener Transition"), adventure=adventure,
                          idempotency_key=idempotency_key, data={"time_index": params.get("time_index")})

    price = rules_call(spend_cost, kind)  # reroll
    return karma_post(character=character, amount=-price.cost, kind=kind, by=by,
                      reason=reason or said("reroll a failed roll"), adventure=adventure,
                      idempotency_key=idempotency_key)
