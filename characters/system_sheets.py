"""Writes to the sheets of the other rule sets: create, edit, and spend or refill a resource.

The shapes (lines, numbers, pools) are the rulebook's (``rulebook.systems.sheets``); this module
adds who, when and once. A resource moves one point at a time through ``pool_act``: the sheet's
row is locked, an idempotency key already used returns the first entry and changes nothing, and
every move is an append-only ``PoolEntry`` whose balance the database keeps at 0 or more.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from campaign.changes import change_set
from campaign.errors import CampaignConflict, CampaignError
from rulebook import RulesError
from rulebook.systems import get_system, success_check
from rulebook.systems.base import ParamError
from rulebook.systems.exchanges import condition_of, rally, standing
from rulebook.systems.sheets import (
    ACTIONS,
    AWARD,
    BURN,
    LONG_REST,
    NEW_FIGHT,
    SESSION,
    SHORT_REST,
    SPEND,
    spec_for,
)
from rulebook.words import Said, listed, said
from zenergate_site import limits

from .events import SystemSheetChanged
from .models import PoolEntry, SystemSheet


#: A sheet's parts as a log line names what changed.
SHEET_PARTS = {"name": said("name"), "lines": said("lines"), "numbers": said("numbers")}
#: Each action inside a log line: in English its label in lower case (``ACTIONS[action].lower()``).
ACTIONS_IN_SENTENCE = {SPEND: said("spend one"), SHORT_REST: said("short rest"), LONG_REST: said("long rest"),
                       SESSION: said("new session"), AWARD: said("gm's award (+1)"), NEW_FIGHT: said("new fight"),
                       BURN: said("edge burn")}


def _marked(word: str) -> Said:
    """A word the rulebook marked for the catalogue (``gettext_noop``: a rule set's name, a pool,
    what a point buys), told in each reader's language."""
    return Said(word)


def _rules(call, *args, **kwargs):
    try:
        return call(*args, **kwargs)
    except ParamError as exc:
        raise CampaignError(str(exc), field=exc.field) from None
    except RulesError as exc:
        raise CampaignError(str(exc)) from None


def _name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise CampaignError(_("Give the character a name."), field="name")
    if len(name.strip()) > limits.CHARACTER_NAME:
        raise CampaignError(_("A name has at most %(n)s characters.") % {"n": limits.CHARACTER_NAME}, field="name")
    return name.strip()


def _cap_pools(spec, pools: Mapping[str, int], numbers: Mapping[str, int]) -> dict[str, int]:
    """Keep each pool within its maximum once the numbers change (a lowered Edge maximum)."""
    capped = {}
    for pool in spec.pools:
        current = int(pools.get(pool.key, spec.starting_pools(numbers)[pool.key]))
        maximum = spec.pool_maximum(pool.key, numbers)
        capped[pool.key] = current if maximum is None else min(current, maximum)
    return capped


@transaction.atomic
def system_sheet_create(*, campaign, owner, by, name: object, lines: object = None,
                        numbers: object = None) -> SystemSheet:
    """Make a sheet of the campaign's rule set for ``owner`` (a Zener Gate campaign has its own)."""
    changes = change_set(campaign=campaign.pk, by=by)
    if campaign.rule_set == "zener":
        raise CampaignConflict(_("This campaign plays Zener Gate: its characters have the Zener Gate sheet "
                                 "(New character)."), field="campaign")
    spec = _rules(spec_for, campaign.rule_set)
    name = _name(name)
    cleaned_numbers = _rules(spec.clean_numbers, numbers if numbers is not None else {})
    cleaned_lines = _rules(spec.clean_lines, lines if lines is not None else [])
    sheet = SystemSheet.objects.create(
        campaign=campaign, owner=owner, name=name, system=spec.system, lines=cleaned_lines,
        numbers=cleaned_numbers, pools=spec.starting_pools(cleaned_numbers))
    changes.audit("sheet.create", said("%(by)s created %(name)s (%(system)s)", by=str(by), name=name,
                                       system=_marked(get_system(spec.system).name)),
                  data={"sheet": sheet.pk, "system": spec.system})
    return sheet


@transaction.atomic
def system_sheet_update(*, sheet: SystemSheet, by, name: object = None, lines: object = None,
                        numbers: object = None) -> SystemSheet:
    """Change a sheet's name, lines or numbers (each only when given); the history keeps the old."""
    changes = change_set(campaign=sheet.campaign_id, by=by)
    sheet = changes.lock(SystemSheet.objects.filter(pk=sheet.pk))[0]
    spec = _rules(spec_for, sheet.system)
    changed = []
    if name is not None:
        sheet.name = _name(name)
        changed.append("name")
    if lines is not None:
        sheet.lines = _rules(spec.clean_lines, lines)
        changed.append("lines")
    if numbers is not None:
        sheet.numbers = _rules(spec.clean_numbers, {**sheet.numbers, **numbers} if isinstance(numbers, Mapping)
                               else numbers)
        sheet.pools = _cap_pools(spec, sheet.pools, sheet.numbers)
        changed.append("numbers")
    if not changed:
        raise CampaignError(_("Nothing to change: send name, lines or numbers."))
    sheet.save()
    changes.audit("sheet.update", said("%(by)s changed %(name)s's %(fields)s", by=str(by), name=sheet.name,
                                       fields=listed(SHEET_PARTS[part] for part in changed)),
                  data={"sheet": sheet.pk, "fields": changed})
    changes.publish(SystemSheetChanged(sheets=[sheet.pk]))
    return sheet


def move_pool(sheet: SystemSheet, *, pool: str, to: int, action: str, use: str = "", by=None,
              key: str | None = None, save: bool = True) -> PoolEntry | None:
    """Set one resource of a (locked) sheet to ``to`` and write the move to its ledger, as a blow,
    a new fight, a downtime or an undo moves it (a player's own tap is ``pool_act``). Nothing
    moves, and None is returned, when the pool is there already. ``save=False`` leaves saving
    the sheet to a caller that changes more of it."""
    current = int(sheet.pools.get(pool, 0))
    if to == current:
        return None
    sheet.pools = {**sheet.pools, pool: to}
    if save:
        sheet.save(update_fields=["pools", "updated_at"])
    return PoolEntry.objects.create(sheet=sheet, campaign_id=sheet.campaign_id, pool=pool, action=action, use=use,
                                    amount=to - current, balance_after=to, idempotency_key=key,
                                    by=by if getattr(by, "pk", None) else None)


def _edge_burn(sheet: SystemSheet, rule, current: int) -> int:
    """Success Check's Edge Burn: a character about to die burns a point of Edge and a point of
    the maximum for good (002, "Edge Burn"). Only a character the fights have put down may."""
    if rule.key != "edge":
        raise CampaignError(_("Only Edge is burnt."), field="pool")
    values = {p.name: sheet.numbers.get(p.name, p.default) for p in spec_for(sheet.system).numbers}
    if standing(sheet.system, sheet.condition, values)["state"] != "down":
        raise CampaignConflict(_("An Edge Burn only keeps a character from dying: this one is not down."),
                               field="action")
    after, maximum = _rules(success_check.edge_burn, current, values["edge_max"])
    sheet.numbers = {**sheet.numbers, "edge_max": maximum}
    condition = condition_of(sheet.system, sheet.condition, values)
    sheet.condition = {**condition, "burned": condition["burned"] + 1}
    return after


@transaction.atomic
def pool_act(*, sheet: SystemSheet, by, is_gm: bool, pool: object, action: object, use: object = "",
             idempotency_key: object = None) -> tuple[PoolEntry, bool]:
    """Spend or refill one resource of the sheet; return (entry, created).

    The sheet's player and the GM spend; rests, a new session and an award are the GM's (a rest
    happens in the fiction, which the GM calls: RULINGS §8); a player asks (``rest_ask``).
    Replaying ``idempotency_key`` returns the first entry and changes nothing.
    """
    changes = change_set(campaign=sheet.campaign_id, by=by)
    if idempotency_key is not None and (not isinstance(idempotency_key, str)
                                        or not 1 <= len(idempotency_key) <= 100):
        raise CampaignError(_("The idempotency key is a string of 1–100 characters."), field="idempotency_key")
    if not isinstance(action, str) or action not in ACTIONS:
        raise CampaignError(_("Choose an action: %(actions)s.") % {"actions": ", ".join(ACTIONS)}, field="action")
    if action in (SHORT_REST, LONG_REST) and not is_gm:
        raise PermissionDenied(_("%(action)s: the GM calls rests; ask the GM for one.") % {"action": _(ACTIONS[action])})
    if action in (SESSION, AWARD, NEW_FIGHT) and not is_gm:
        raise PermissionDenied(_("%(action)s: the GM's to give.") % {"action": _(ACTIONS[action])})
    sheet = changes.lock(SystemSheet.objects.filter(pk=sheet.pk))[0]
    key = f"client:{idempotency_key}" if idempotency_key else None
    if key is not None:
        entry = PoolEntry.objects.filter(sheet=sheet, idempotency_key=key).first()
        if entry is not None:
            if (entry.pool, entry.action) != (pool, action):
                raise CampaignConflict(_("That idempotency key was already used for another change; send a new "
                                         "key for a new request."), field="idempotency_key")
            return entry, False
    spec = _rules(spec_for, sheet.system)
    rule = _rules(spec.pool, pool if isinstance(pool, str) else "")
    if not isinstance(use, str) or (use and use not in rule.uses) or (use and action != SPEND):
        raise CampaignError(_("What the point buys: one of %(uses)s (spends only).") % {"uses": ", ".join(rule.uses)},
                            field="use")
    current = int(sheet.pools.get(rule.key, 0))
    if action == SPEND and current <= 0:
        raise CampaignConflict(_("No %(pool)s left to spend.") % {"pool": _(rule.label)}, field="pool")
    if action == BURN:
        after = _edge_burn(sheet, rule, current)
    else:
        after = _rules(spec.refill, rule.key, action, current, sheet.numbers)
    if rule.key == "plot_points" and use == "rally":  # half the lost Endurance back, at once
        sheet.condition = _rules(rally, sheet.condition,
                                 {p.name: sheet.numbers.get(p.name, p.default) for p in spec.numbers})
    sheet.pools = {**sheet.pools, rule.key: after}
    sheet._change_reason = f"by {by}: {rule.label} {ACTIONS[action].lower()}"
    sheet.save(update_fields=["pools", "numbers", "condition", "updated_at"])
    entry = PoolEntry.objects.create(sheet=sheet, campaign_id=sheet.campaign_id, pool=rule.key, action=action,
                                     use=use, amount=after - current, balance_after=after, idempotency_key=key,
                                     by=by if getattr(by, "pk", None) else None)
    moved = dict(name=sheet.name, pool=_marked(rule.label), current=current, after=after,
                 action=ACTIONS_IN_SENTENCE[action])
    changes.audit("sheet.pool", said("%(name)s: %(pool)s %(current)s → %(after)s, %(action)s (%(use)s)", **moved,
                                     use=_marked(use)) if use else
                  said("%(name)s: %(pool)s %(current)s → %(after)s, %(action)s", **moved),
                  data={"sheet": sheet.pk, "pool": rule.key, "action": action, "amount": after - current})
    changes.publish(SystemSheetChanged(sheets=[sheet.pk]))
    return entry, True


def forget_campaign(sender, campaign, **_) -> None:
    """A deleted campaign takes its sheets' pool ledgers with it (campaign.signals.campaign_clearing)."""
    PoolEntry.objects.filter(campaign=campaign).delete()


#: What a player may ask the GM for, in the log's words.
REST_ASKS = {SHORT_REST: said("a short rest"), LONG_REST: said("a long rest")}


@transaction.atomic
def rest_ask(*, sheet: SystemSheet, by, rest: str) -> None:
    """A player asks the GM for a rest: a line in the campaign's log and a notice on the sheet for
    the GM (``selectors.rest_asked``), until the GM gives a rest. Nothing else changes."""
    offered = spec_for(sheet.system).rests
    if not offered:
        raise CampaignConflict(_("No rest refills this sheet's resources: the GM's downtime restores them."),
                               field="rest")
    if rest not in REST_ASKS or rest not in offered:
        raise CampaignError(_("Ask for one of: %(rests)s.") % {"rests": ", ".join(offered)}, field="rest")
    changes = change_set(campaign=sheet.campaign_id, by=by)
    changes.audit("sheet.rest_asked", said("%(name)s: %(by)s asks the GM for %(rest)s", name=sheet.name,
                                           by=str(getattr(by, "username", by)), rest=REST_ASKS[rest]),
                  data={"sheet": sheet.pk, "rest": rest})
    changes.changed(sheet)  # the sheet's pages show the ask: their data key moves
    changes.publish(SystemSheetChanged(sheets=[sheet.pk]))
