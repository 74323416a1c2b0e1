"""The campaign's economy: Karma spends, GM awards, adventures and their payout, MacGuffins,
and the Complications that settle Karmic Debt and Starvation.

Every movement of Karma goes through ``campaign.karma.karma_post`` (locked, idempotent,
never below zero). Rules come from the rulebook; this module decides who, when and on what.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from characters import sheet as sheet_rules
from characters.models import STAT_FIELDS, Character, Disadvantage
from rulebook import RulesError
from rulebook.experience import COMPLICATION_AWARD, NPC_BOOST_AWARD, adventure_payout
from rulebook.karma import (
    DELAY_TRANSITION_UPGRADES,
    SPEND_KINDS,
    karmic_starvation,
    max_disadvantage_ranks,
    spend_cost,
)
from rulebook.stats import PRIMARY_STATS

from ..errors import CampaignConflict, CampaignError
from characters.ledger import KarmaShort, client_key, karma_post
from ..models import Adventure, BadNewsToken, Campaign, Complication, KarmaEntry, MacGuffin
from ..services import log_action

Kind = KarmaEntry.Kind
GM_ONLY_SPENDS = {"good_fortune"}  # the GM counts the rolls it replaces and enters the cost


def _rules(call, *args, field="detail", **kwargs):
    try:
        return call(*args, **kwargs)
    except RulesError as exc:
        raise CampaignError(str(exc), field=field) from None


def _refusal(call, *args, field="detail", **kwargs):
    """Run a rulebook call whose refusal depends on the sheet's state: a 409, not bad input."""
    try:
        return call(*args, **kwargs)
    except RulesError as exc:
        raise CampaignConflict(str(exc), field=field) from None


def lock_in_order(character_ids: Iterable[int]) -> None:
    """Lock characters in id order, so two writes naming the same characters never deadlock."""
    list(Character.objects.select_for_update().filter(pk__in=list(character_ids)).order_by("pk").values_list("pk"))


def removals_this_adventure(character: Character, disadvantage, adventure: Adventure | None) -> int:
    """Count ranks of this disadvantage removed during the adventure (or since the last one closed)."""
    entries = KarmaEntry.objects.filter(character=character, kind=Kind.DISADVANTAGE_REMOVAL,
                                        data__disadvantage=disadvantage.pk)
    if adventure is not None:
        return entries.filter(adventure=adventure).count()
    last = character.campaign.adventures.filter(closed_at__isnull=False).order_by("-closed_at").first()
    if last is not None:
        entries = entries.filter(created_at__gt=last.closed_at)
    return entries.filter(adventure__isnull=True).count()


def current_adventure(campaign: Campaign) -> Adventure | None:
    return campaign.adventures.filter(closed_at__isnull=True).order_by("-started_at", "-id").first()


def upgrades_in_effect(campaign: Campaign) -> set[str]:
    return set(campaign.macguffins.filter(status=MacGuffin.Status.IN_EFFECT).exclude(upgrade="")
               .values_list("upgrade", flat=True))


# --- Spends -------------------------------------------------------------------------------
def spend_quote(*, character: Character, kind: str, params: dict, is_gm: bool):
    """Price a spend without posting it: the rulebook's ``KarmaSpend``, or the reason it is refused.

    Uses the same look-ups as ``karma_spend`` (the stat's current value, ranks removed this
    adventure, the upgrades in effect, who may set a price) so a preview never disagrees with
    the spend it previews. Raises CampaignError / CampaignConflict like the spend would.
    """
    if kind not in SPEND_KINDS or kind == "macguffin":
        raise CampaignError(f"Unknown spend {kind!r}.", field="kind")
    if kind in GM_ONLY_SPENDS and not is_gm:
        raise CampaignError("The GM sets the price of a stroke of good fortune; ask them to enter it.", field="kind")
    if character.state != Character.State.ACTIVE:
        raise CampaignConflict(f"{character.name} is {character.get_state_display().lower()}: Karma moves only "
                               "once the GM has approved the sheet.", field="character")
    rules_params: dict = {}
    if kind == "skill_points":
        rules_params["amount"] = params.get("amount")
    elif kind == "stat_raise":
        if params.get("stat") not in PRIMARY_STATS:
            raise CampaignError(f"Name the stat to raise: one of {' '.join(PRIMARY_STATS)}.", field="stat")
        rules_params["current"] = getattr(character, STAT_FIELDS[params["stat"]])
    elif kind == "disadvantage_removal":
        wanted = params.get("disadvantage")
        item = (Disadvantage.objects.filter(pk=wanted, character=character).first()
                if isinstance(wanted, int) and not isinstance(wanted, bool) else None)
        if item is None:
            raise CampaignError("Name one of this character's disadvantages.", field="disadvantage")
        rules_params.update(removed_this_adventure=removals_this_adventure(character, item,
                                                                           current_adventure(character.campaign)),
                            gm_override=bool(params.get("override")) and is_gm,
                            current_ranks=item.ranks, value=item.value)
    elif kind == "good_fortune":
        rules_params["cost"] = params.get("cost")
    elif kind == "delay_transition":
        missing = set(DELAY_TRANSITION_UPGRADES) - upgrades_in_effect(character.campaign)
        rules_params.update(upgrades=upgrades_in_effect(character.campaign), time_index=params.get("time_index"))
        if missing:
            return _refusal(spend_cost, kind, field="kind", **rules_params)
    try:
        spend = spend_cost(kind, **rules_params)
    except RulesError as exc:
        bad_input = kind in ("skill_points", "good_fortune", "delay_transition")
        field = {"skill_points": "amount", "stat_raise": "stat", "disadvantage_removal": "disadvantage",
                 "good_fortune": "cost", "delay_transition": "time_index"}.get(kind, "kind")
        raise (CampaignError if bad_input else CampaignConflict)(str(exc), field=field) from None
    if spend.cost > character.karma:
        raise KarmaShort(f"{character.name} has {character.karma} Karma; this needs {spend.cost}.", field="amount")
    return spend


def karma_spend(*, character: Character, kind: str, idempotency_key: str, by, is_gm: bool,
                params: dict) -> tuple[KarmaEntry, bool]:
    """Spend Karma on one of the article's uses; return (entry, created).

    A replayed idempotency key returns the first entry before anything is checked again, so
    a double-click or a retried request never spends twice.
    """
    if kind not in SPEND_KINDS or kind == "macguffin":
        allowed = ", ".join(k for k in SPEND_KINDS if k != "macguffin")
        raise CampaignError(f"Unknown spend {kind!r}: use one of {allowed} (MacGuffins take contributions).",
                            field="kind")
    if not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 100:
        raise CampaignError("Send an idempotency key (1–100 characters) with every spend.", field="idempotency_key")
    idempotency_key = client_key(idempotency_key)
    replay = KarmaEntry.objects.filter(character=character, idempotency_key=idempotency_key).first()
    if replay is not None:
        if replay.kind != kind:
            raise CampaignConflict("That idempotency key was already used for another kind of spend; send a new "
                                   "key for a new request.", field="idempotency_key")
        return replay, False
    if kind in GM_ONLY_SPENDS and not is_gm:
        raise CampaignError("The GM sets the price of a stroke of good fortune; ask them to enter it.", field="kind")
    campaign = character.campaign
    adventure = current_adventure(campaign)
    reason = str(params.get("reason", ""))[:300]
    data: dict = {}

    if kind == "assist":
        helped_id = params.get("character")
        helped = (Character.objects.filter(pk=helped_id, campaign=campaign).first()
                  if isinstance(helped_id, int) and not isinstance(helped_id, bool) else None)
        if helped is None or helped.pk == character.pk:
            raise CampaignError("Name another character of this campaign to help.", field="character")
        price = _rules(spend_cost, kind)
        data["helped"] = helped.pk
        reason = reason or f"+5 to {helped.name}'s roll"
        return karma_post(character=character, amount=-price.cost, kind=kind, by=by, reason=reason,
                          adventure=adventure, idempotency_key=idempotency_key, data=data)

    if kind == "skill_points":
        price = _rules(spend_cost, kind, amount=params.get("amount"), field="amount")

        def effect(locked: Character):
            locked.karma_converted += price.cost
            locked.save(update_fields=["karma_converted"])
            return {"skill_points": price.skill_points_gained}

        return karma_post(character=character, amount=-price.cost, kind=kind, by=by,
                          reason=reason or f"{price.cost} Karma → {price.skill_points_gained} skill points",
                          adventure=adventure, idempotency_key=idempotency_key, effect=effect)

    if kind == "stat_raise":
        stat = params.get("stat")
        if stat not in PRIMARY_STATS:
            raise CampaignError(f"Name the stat to raise: one of {' '.join(PRIMARY_STATS)}.", field="stat")
        field = STAT_FIELDS[stat]

        def effect(locked: Character):
            current = getattr(locked, field)
            price = _refusal(spend_cost, kind, current=current, field="stat")
            if price.cost != cost_now:
                raise CampaignConflict("The stat changed meanwhile; check the new price and try again.", field="stat")
            setattr(locked, field, current + 1)
            raises = dict(locked.stat_raises or {})
            raises[stat] = raises.get(stat, 0) + 1
            locked.stat_raises = raises
            locked.save(update_fields=[field, "stat_raises"])
            return {"stat": stat, "from": current, "to": current + 1}

        cost_now = _refusal(spend_cost, kind, current=getattr(character, field), field="stat").cost
        return karma_post(character=character, amount=-cost_now, kind=kind, by=by,
                          reason=reason or f"{stat} +1", adventure=adventure,
                          idempotency_key=idempotency_key, effect=effect)

    if kind == "disadvantage_removal":
        wanted = params.get("disadvantage")
        disadvantage = (Disadvantage.objects.filter(pk=wanted, character=character).first()
                        if isinstance(wanted, int) and not isinstance(wanted, bool) else None)
        if disadvantage is None:
            raise CampaignError("Name one of this character's disadvantages.", field="disadvantage")
        override = bool(params.get("override")) and is_gm
        if params.get("override") and not is_gm:
            raise CampaignError("Only the GM may allow more than one rank per adventure.", field="override")

        def effect(locked: Character):
            item = Disadvantage.objects.select_for_update().get(pk=disadvantage.pk)
            removed = removals_this_adventure(locked, item, adventure)
            price = _refusal(spend_cost, kind, removed_this_adventure=removed, gm_override=override,
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
                          reason=reason or f"one rank off {disadvantage.name}", adventure=adventure,
                          idempotency_key=idempotency_key, effect=effect)

    if kind == "good_fortune":
        price = _rules(spend_cost, kind, cost=params.get("cost"), field="cost")
        return karma_post(character=character, amount=-price.cost, kind=kind, by=by,
                          reason=reason or "stroke of good fortune", adventure=adventure,
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
                          reason=reason or "delay the next Zener Transition", adventure=adventure,
                          idempotency_key=idempotency_key, data={"time_index": params.get("time_index")})

    price = _rules(spend_cost, kind)  # reroll
    return karma_post(character=character, amount=-price.cost, kind=kind, by=by,
                      reason=reason or "reroll a failed roll", adventure=adventure,
                      idempotency_key=idempotency_key)


# --- GM awards ----------------------------------------------------------------------------
AWARD_KINDS = {"complication": COMPLICATION_AWARD, "npc_boost": NPC_BOOST_AWARD, "manual": None}


def _campaign_characters(campaign: Campaign, ids: Iterable) -> list[Character]:
    ids = list(ids)
    if not ids or any(isinstance(i, bool) or not isinstance(i, int) for i in ids):
        raise CampaignError("Name at least one character by id.", field="characters")
    found = {c.pk: c for c in Character.objects.filter(pk__in=ids, campaign=campaign)}
    missing = [i for i in ids if i not in found]
    if missing:
        raise CampaignError(f"Not characters of this campaign: {missing}.", field="characters")
    inactive = [c.name for c in found.values() if c.state != Character.State.ACTIVE]
    if inactive:
        raise CampaignConflict(f"Not approved yet: {', '.join(inactive)}.", field="characters")
    return [found[i] for i in dict.fromkeys(ids)]


@transaction.atomic
def award(*, campaign: Campaign, kind: str, character_ids: Iterable, by, reason: str,
          amount: int | None = None, idempotency_key: str | None = None) -> list[KarmaEntry]:
    """Pay a GM award at once: complication +2, NPC boost +1, or a manual correction (±)."""
    if kind not in AWARD_KINDS:
        raise CampaignError(f"Unknown award {kind!r}: use complication, npc_boost or manual.", field="kind")
    reason = (reason or "").strip()
    if not reason:
        raise CampaignError("Say why (it goes in the ledger).", field="reason")
    if kind == "manual":
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
            raise CampaignError("A manual award needs a non-zero whole amount.", field="amount")
    elif amount is not None and amount != AWARD_KINDS[kind]:
        raise CampaignError(f"A {kind} award is always {AWARD_KINDS[kind]}.", field="amount")
    value = amount if kind == "manual" else AWARD_KINDS[kind]
    characters = _campaign_characters(campaign, character_ids)
    lock_in_order(c.pk for c in characters)
    adventure = current_adventure(campaign)
    # One transaction: a correction that would take any one balance below zero posts nothing.
    return [karma_post(character=c, amount=value, kind=kind, by=by, reason=reason, adventure=adventure,
                       idempotency_key=client_key(f"award:{idempotency_key}:{c.pk}") if idempotency_key else None)[0]
            for c in characters]


# --- Adventures ---------------------------------------------------------------------------
@transaction.atomic
def adventure_start(*, campaign: Campaign, name: str, base_xp: int, by) -> Adventure:
    name = (name or "").strip()
    if not name:
        raise CampaignError("Name the adventure.", field="name")
    if isinstance(base_xp, bool) or not isinstance(base_xp, int) or not 0 <= base_xp <= 100:
        raise CampaignError("Base XP is a whole number from 0 to 100 (typically 1–3 per session).", field="base_xp")
    Campaign.objects.select_for_update().get(pk=campaign.pk)
    if current_adventure(campaign) is not None:
        raise CampaignConflict("Close the current adventure first.", field="name")
    adventure = Adventure.objects.create(campaign=campaign, name=name[:120], base_xp=base_xp)
    # MacGuffins funded during earlier adventures take effect now ("from the next adventure").
    for macguffin in campaign.macguffins.filter(status=MacGuffin.Status.FUNDED):
        macguffin.status = MacGuffin.Status.IN_EFFECT
        macguffin.save(update_fields=["status"])
        log_action(campaign=campaign, actor=by, action="macguffin.in_effect",
                   summary=f"{macguffin.name} is now in effect", data={"macguffin": macguffin.pk})
    log_action(campaign=campaign, actor=by, action="adventure.start",
               summary=f"{by} started the adventure {adventure.name} (base XP {base_xp})",
               data={"adventure": adventure.pk})
    return adventure


@transaction.atomic
def token_add(*, adventure: Adventure, note: str, by) -> BadNewsToken:
    adventure = Adventure.objects.select_for_update().get(pk=adventure.pk)
    if not adventure.is_open:
        raise CampaignConflict("That adventure is closed.", field="note")
    token = BadNewsToken.objects.create(adventure=adventure, note=(note or "")[:200])
    log_action(campaign=adventure.campaign, actor=by, action="adventure.token",
               summary=f"Bad news: {token.note or 'a token'} (+1 XP)", data={"adventure": adventure.pk})
    return token


@transaction.atomic
def token_void(*, token: BadNewsToken, by) -> BadNewsToken:
    adventure = Adventure.objects.select_for_update().get(pk=token.adventure_id)
    if not adventure.is_open:
        raise CampaignConflict("That adventure is closed.", field="token")
    token = BadNewsToken.objects.select_for_update().get(pk=token.pk)
    if token.voided:
        raise CampaignConflict("That token is already voided.", field="token")
    token.voided = True
    token.save(update_fields=["voided"])
    log_action(campaign=adventure.campaign, actor=by, action="adventure.token_void",
               summary=f"Token voided: {token.note or token.pk}", data={"adventure": adventure.pk})
    return token


def payout_preview(*, adventure: Adventure, outcome: str, permanent: bool, selfish: Iterable[int]) -> list[dict]:
    """Return each active character's payout with its breakdown; posts nothing."""
    selfish = set(selfish)
    tokens = adventure.tokens.filter(voided=False).count()
    characters = list(adventure.campaign.characters.filter(state=Character.State.ACTIVE).order_by("name", "id"))
    unknown = selfish - {c.pk for c in characters}
    if unknown:
        raise CampaignError(f"Not active characters of this campaign: {sorted(unknown)}.", field="selfish")
    rows = []
    for c in characters:
        payout = _rules(adventure_payout, adventure.base_xp, tokens, outcome, permanent, c.pk in selfish,
                        field="outcome")
        rows.append({"character": c.pk, "name": c.name, "karma": payout.total,
                     "breakdown": [(label, float(v) if not float(v).is_integer() else int(v))
                                   for label, v in payout.breakdown]})
    return rows


@transaction.atomic
def adventure_close(*, adventure: Adventure, outcome: str, permanent: bool, selfish: Iterable[int], by) -> list[dict]:
    """Close the adventure and post each active character's payout, once."""
    adventure = Adventure.objects.select_for_update().get(pk=adventure.pk)
    if not adventure.is_open:
        raise CampaignConflict("That adventure is already closed; its payout was posted.", field="outcome")
    rows = payout_preview(adventure=adventure, outcome=outcome, permanent=permanent, selfish=selfish)
    lock_in_order(row["character"] for row in rows)
    for row in rows:
        if row["karma"]:
            karma_post(character=Character(pk=row["character"]), amount=row["karma"], kind=Kind.PAYOUT, by=by,
                       reason=f"Payout for {adventure.name}", adventure=adventure,
                       idempotency_key=f"system:payout:{adventure.pk}", data={"breakdown": row["breakdown"]})
    adventure.closed_at = timezone.now()
    adventure.outcome = outcome
    adventure.permanent = permanent
    adventure.save(update_fields=["closed_at", "outcome", "permanent"])
    log_action(campaign=adventure.campaign, actor=by, action="adventure.close",
               summary=f"{by} closed {adventure.name}", data={"adventure": adventure.pk})
    return rows


# --- Campaign MacGuffins -------------------------------------------------------------------
@transaction.atomic
def macguffin_create(*, campaign: Campaign, name: str, limitation: str, target: int, upgrade: str, by) -> MacGuffin:
    name = (name or "").strip()
    if not name:
        raise CampaignError("Name the MacGuffin (e.g. “crystal radio set”).", field="name")
    if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 1000:
        raise CampaignError("The target is a whole number of Karma from 1 to 1000 (4 minor, 10 new capability, "
                            "20 limitation removed).", field="target")
    if upgrade and upgrade not in MacGuffin.Upgrade.values:
        raise CampaignError("Unknown upgrade.", field="upgrade")
    Campaign.objects.select_for_update().get(pk=campaign.pk)  # one pool per upgrade, even when two GMs race
    if upgrade and campaign.macguffins.filter(upgrade=upgrade).exists():
        raise CampaignConflict("That upgrade already has a MacGuffin.", field="upgrade")
    macguffin = MacGuffin.objects.create(campaign=campaign, name=name[:120], limitation=(limitation or "")[:200],
                                         target=target, upgrade=upgrade or "")
    log_action(campaign=campaign, actor=by, action="macguffin.create",
               summary=f"{by} opened the MacGuffin pool {macguffin.name} (target {target})",
               data={"macguffin": macguffin.pk})
    return macguffin


def macguffin_contribute(*, macguffin: MacGuffin, character: Character, amount: int, idempotency_key: str,
                         by) -> tuple[KarmaEntry, bool]:
    """Pay Karma from a character into a MacGuffin pool; never past its target, never twice."""
    if character.campaign_id != macguffin.campaign_id:
        raise CampaignError("That character is not in this MacGuffin's campaign.", field="character")
    if not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 100:
        raise CampaignError("Send an idempotency key (1–100 characters).", field="idempotency_key")
    price = _rules(spend_cost, "macguffin", amount=amount, field="amount")
    idempotency_key = client_key(idempotency_key)

    def effect(locked: Character):
        pool = MacGuffin.objects.select_for_update().get(pk=macguffin.pk)
        if pool.status != MacGuffin.Status.FUNDING:
            raise CampaignConflict(f"{pool.name} is already funded.", field="amount")
        if pool.progress + price.cost > pool.target:
            raise CampaignConflict(f"{pool.name} needs only {pool.target - pool.progress} more.", field="amount")
        pool.progress += price.cost
        fields = ["progress"]
        if pool.progress == pool.target:
            pool.status = MacGuffin.Status.FUNDED
            pool.funded_at = timezone.now()
            pool.funded_during = current_adventure(pool.campaign)
            fields += ["status", "funded_at", "funded_during"]
        pool.save(update_fields=fields)
        return {"progress": pool.progress, "target": pool.target}

    return karma_post(character=character, amount=-price.cost, kind=Kind.MACGUFFIN, by=by,
                      reason=f"Towards {macguffin.name}", macguffin=macguffin,
                      adventure=current_adventure(macguffin.campaign), idempotency_key=idempotency_key,
                      effect=effect)


# --- Karmic Debt, Starvation and Complications ----------------------------------------------
def karma_flags(character: Character) -> list[str]:
    """Return what must happen for this sheet's Karma standing (empty when all is well)."""
    if character.state != Character.State.ACTIVE:
        return []
    computed = sheet_rules.compute_sheet(character)
    flags = list(computed.budget.debt_actions) if computed.budget else []
    if computed.budget and computed.budget.overspent:
        s = karmic_starvation(computed.budget.spent, computed.budget.available)
        flags.append(f"Karmic Starvation: {s.shortfall} skill points overspent; the GM records a Complication "
                     f"of {s.complication_ranks} rank(s).")
    return flags


@transaction.atomic
def complication_record(*, character: Character, cause: str, form: str, ranks: int, description: str, by,
                        nullify: int | None = None, worsen: Iterable[int] = (), stat: str | None = None) -> Complication:
    """Record a Complication and apply its effect on the sheet (GM, in play)."""
    locked = Character.objects.select_for_update().select_related("campaign").get(pk=character.pk)
    if locked.state != Character.State.ACTIVE:
        raise CampaignConflict("Complications happen in play: approve the character first.", field="character")
    if cause not in Complication.Cause.values:
        raise CampaignError("The cause is debt or starvation.", field="cause")
    if form not in Complication.Form.values:
        raise CampaignError("The form is worsen, stat_loss or blown_roll.", field="form")
    if isinstance(ranks, bool) or not isinstance(ranks, int) or not 1 <= ranks <= 20:
        raise CampaignError("Ranks is a whole number from 1 to 20.", field="ranks")
    description = (description or "").strip()
    if not description:
        raise CampaignError("Describe the setback.", field="description")
    effects: dict = {}
    if nullify is not None and cause != Complication.Cause.DEBT:
        raise CampaignError("Only a Karmic Debt Complication nullifies a disadvantage.", field="nullify")
    if cause == Complication.Cause.DEBT and nullify is not None:
        target = Disadvantage.objects.select_for_update().filter(pk=nullify, character=locked).first()
        if target is None:
            raise CampaignError("Name the disadvantage the Complication nullifies.", field="nullify")
        effects["nullified"] = {"name": target.name, "ranks": target.ranks}
        target.delete()
    if form == Complication.Form.WORSEN:
        worsen = list(worsen)
        items = list(Disadvantage.objects.select_for_update().filter(pk__in=worsen, character=locked))
        if not items or len(items) != len(set(worsen)):
            raise CampaignError("Name the disadvantages to worsen.", field="worsen")
        limit = max_disadvantage_ranks(locked.starting_karma or 0)
        room = sum(max(limit - d.ranks, 0) for d in items)
        if room < ranks:
            raise CampaignError(f"Those disadvantages can take only {room} more rank(s) (limit {limit}); "
                                "make the rest a stat loss.", field="worsen")
        left = ranks
        for d in items:
            step = min(left, limit - d.ranks)
            if step > 0:
                d.ranks += step
                d.save(update_fields=["ranks"])
                effects.setdefault("worsened", []).append({"name": d.name, "ranks": step})
                left -= step
    elif form == Complication.Form.STAT_LOSS:
        if stat not in PRIMARY_STATS:
            raise CampaignError("Name the stat that is lost (not Karma).", field="stat")
        field = STAT_FIELDS[stat]
        if getattr(locked, field) - ranks < 1:
            raise CampaignError(f"{stat} cannot go below 1.", field="ranks")
        setattr(locked, field, getattr(locked, field) - ranks)
        setbacks = dict(locked.stat_setbacks or {})
        setbacks[stat] = setbacks.get(stat, 0) + ranks
        locked.stat_setbacks = setbacks
        locked.save(update_fields=[field, "stat_setbacks", "updated_at"])
        effects["stat_loss"] = {"stat": stat, "points": ranks}
    if cause == Complication.Cause.STARVATION:
        locked.starvation_relief += 2 * ranks
        locked.save(update_fields=["starvation_relief", "updated_at"])
        effects["skill_points_relieved"] = 2 * ranks
    complication = Complication.objects.create(
        campaign=locked.campaign, character=locked, cause=cause, form=form, ranks=ranks,
        description=description[:300], effects=effects, by=by)
    log_action(campaign=locked.campaign, actor=by, action="complication.record",
               summary=f"Complication for {locked.name}: {description[:120]}",
               data={"character": locked.pk, "complication": complication.pk})
    return complication


def macguffin_summary(campaign: Campaign):
    return campaign.macguffins.annotate(contributors=Count("contributions__character", distinct=True))
