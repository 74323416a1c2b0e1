"""Campaign MacGuffins: pools every PC can pay Karma into, and what they have bought."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.changes import change_set
from campaign.errors import CampaignConflict, CampaignError
from campaign.models import Campaign
from characters.models import Character
from economy.ledger import client_key, karma_post
from rulebook.karma import (
    spend_cost,
)
from rulebook.words import said
from zenergate_site import limits

from .common import Kind, current_adventure, rules_call
from .events import PoolChanged
from .models import KarmaEntry, MacGuffin


# --- Campaign MacGuffins -------------------------------------------------------------------
@transaction.atomic
def macguffin_create(*, campaign: Campaign, name: str, limitation: str, target: int, upgrade: str, by) -> MacGuffin:
    write = change_set(campaign=campaign.pk, by=by)
    name = (name or "").strip()
    if not name:
        raise CampaignError(_("Name the MacGuffin (e.g. “crystal radio set”)."), field="name")
    if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 1000:
        raise CampaignError(_("The target is a whole number of Karma from 1 to 1000 (4 minor, 10 new capability, "
                              "20 limitation removed)."), field="target")
    if upgrade and upgrade not in MacGuffin.Upgrade.values:
        raise CampaignError(_("Unknown upgrade."), field="upgrade")
    # One pool per upgrade, even when two GMs race.
    write.lock(Campaign.objects.filter(pk=campaign.pk))
    if upgrade and campaign.macguffins.filter(upgrade=upgrade).exists():
        raise CampaignConflict(_("That upgrade already has a MacGuffin."), field="upgrade")
    macguffin = MacGuffin.objects.create(campaign=campaign, name=name[:limits.MACGUFFIN_NAME],
                                         limitation=(limitation or "")[:limits.MACGUFFIN_LIMITATION],
                                         target=target, upgrade=upgrade or "")
    write.audit("macguffin.create", said("%(by)s opened the MacGuffin pool %(macguffin)s (target %(target)s)",
                                         by=str(by), macguffin=macguffin.name, target=target),
                data={"macguffin": macguffin.pk})
    write.publish(PoolChanged(macguffin=macguffin.pk))
    return macguffin


def macguffin_contribute(*, macguffin: MacGuffin, character: Character, amount: int, idempotency_key: str,
                         by) -> tuple[KarmaEntry, bool]:
    """Pay Karma from a character into a MacGuffin pool; never past its target, never twice."""
    if character.campaign_id != macguffin.campaign_id:
        raise CampaignError(_("That character is not in this MacGuffin's campaign."), field="character")
    if not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 100:
        raise CampaignError(_("Send an idempotency key (1–100 characters)."), field="idempotency_key")
    price = rules_call(spend_cost, "macguffin", amount=amount, field="amount")
    idempotency_key = client_key(idempotency_key)

    def effect(locked: Character):
        pool = MacGuffin.objects.select_for_update(no_key=True).get(pk=macguffin.pk)
        if pool.status != MacGuffin.Status.FUNDING:
            raise CampaignConflict(_("%(name)s is already funded.") % {"name": pool.name}, field="amount")
        if pool.progress + price.cost > pool.target:
            raise CampaignConflict(_("%(name)s needs only %(left)s more.") % {"name": pool.name,
                                                                                "left": pool.target - pool.progress},
                                       field="amount")
        pool.progress += price.cost
        fields = ["progress"]
        if pool.progress == pool.target:
            pool.status = MacGuffin.Status.FUNDED
            pool.funded_at = timezone.now()
            pool.funded_during = current_adventure(pool.campaign)
            fields += ["status", "funded_at", "funded_during"]
        pool.save(update_fields=fields)
        change_set(campaign=pool.campaign_id, by=by).publish(PoolChanged(macguffin=pool.pk))
        return {"progress": pool.progress, "target": pool.target}

    return karma_post(character=character, amount=-price.cost, kind=Kind.MACGUFFIN, by=by,
                      reason=said("Towards %(macguffin)s", macguffin=macguffin.name), macguffin=macguffin,
                      adventure=current_adventure(macguffin.campaign), idempotency_key=idempotency_key,
                      effect=effect)


def macguffin_summary(campaign: Campaign):
    return campaign.macguffins.annotate(contributors=Count("contributions__character", distinct=True))


def pools_with_givers(campaign: Campaign) -> list[MacGuffin]:
    """The campaign's pools, each with its contributors and what they gave (two queries)."""
    pools = list(macguffin_summary(campaign))
    given: dict[int, list] = {}
    rows = (KarmaEntry.objects.filter(macguffin__campaign=campaign, kind=KarmaEntry.Kind.MACGUFFIN)
            .values("macguffin_id", "character__name").annotate(total=Sum("amount"))
            .order_by("macguffin_id", "total", "character__name"))
    for row in rows:
        given.setdefault(row["macguffin_id"], []).append((row["character__name"], -row["total"]))
    for pool in pools:
        pool.givers = given.get(pool.pk, [])
    return pools
