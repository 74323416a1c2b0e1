"""GM awards, adventures, bad-news tokens and the close-out payout."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.changes import change_set
from campaign.errors import CampaignConflict, CampaignError
from campaign.models import Campaign
from characters.models import Character
from economy.ledger import client_key, karma_post
from rulebook.experience import COMPLICATION_AWARD, NPC_BOOST_AWARD, adventure_payout
from rulebook.words import said
from zenergate_site import limits

from .common import Kind, current_adventure, lock_in_order, rules_call
from .events import PoolChanged
from .models import Adventure, BadNewsToken, KarmaEntry, MacGuffin

# --- GM awards ----------------------------------------------------------------------------
AWARD_KINDS = {"complication": COMPLICATION_AWARD, "npc_boost": NPC_BOOST_AWARD, "manual": None}


def _campaign_characters(campaign: Campaign, ids: Iterable) -> list[Character]:
    ids = list(ids)
    if not ids or any(isinstance(i, bool) or not isinstance(i, int) for i in ids):
        raise CampaignError(_("Name at least one character by id."), field="characters")
    found = {c.pk: c for c in Character.objects.filter(pk__in=ids, campaign=campaign)}
    missing = [i for i in ids if i not in found]
    if missing:
        raise CampaignError(_("Not characters of this campaign: %(ids)s.") % {"ids": missing}, field="characters")
    inactive = [c.name for c in found.values() if c.state != Character.State.ACTIVE]
    if inactive:
        raise CampaignConflict(_("Not approved yet: %(names)s.") % {"names": ", ".join(inactive)}, field="characters")
    return [found[i] for i in dict.fromkeys(ids)]


def _award_replay(campaign: Campaign, kind: str, character_ids: Iterable, key: str | None) -> list[KarmaEntry] | None:
    """Return the entries a replayed key posted for every character named, or None."""
    ids = list(dict.fromkeys(character_ids)) if key else []
    if not ids or any(isinstance(i, bool) or not isinstance(i, int) for i in ids):
        return None
    keys = [client_key(f"award:{key}:{i}") for i in ids]
    found = {e.character_id: e for e in KarmaEntry.objects.filter(campaign=campaign, idempotency_key__in=keys)}
    if set(found) != set(ids):
        return None
    if any(e.kind != kind for e in found.values()):
        raise CampaignConflict(_("That idempotency key was already used for another award; send a new key for a "
                                 "new request."), field="idempotency_key")
    return [found[i] for i in ids]


def award(*, campaign: Campaign, kind: str, character_ids: Iterable, by, reason: str,
          amount: int | None = None, idempotency_key: str | None = None) -> list[KarmaEntry]:
    """Pay a GM award at once: complication +2, NPC boost +1, or a manual correction (±).

    A replayed idempotency key returns the first entries before anything is checked again
    (a character retired since, a correction the balance no longer covers).
    """
    return award_paid(campaign=campaign, kind=kind, character_ids=character_ids, by=by, reason=reason,
                      amount=amount, idempotency_key=idempotency_key)[0]


@transaction.atomic
def award_paid(*, campaign: Campaign, kind: str, character_ids: Iterable, by, reason: str,
               amount: int | None = None, idempotency_key: str | None = None) -> tuple[list[KarmaEntry], bool]:
    """``award``, saying whether it paid now (True) or a replayed key found the first entries."""
    change_set(campaign=campaign.pk, by=by)
    if kind not in AWARD_KINDS:
        raise CampaignError(_("Unknown award %(kind)r: use complication, npc_boost or manual.") % {"kind": kind},
                            field="kind")
    replay = _award_replay(campaign, kind, character_ids, idempotency_key)
    if replay is not None:
        return replay, False
    reason = (reason or "").strip()
    if not reason:
        raise CampaignError(_("Say why (it goes in the ledger)."), field="reason")
    if kind == "manual":
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
            raise CampaignError(_("A manual award needs a non-zero whole amount."), field="amount")
    elif amount is not None and amount != AWARD_KINDS[kind]:
        raise CampaignError(_("A %(kind)s award is always %(amount)s.") % {"kind": kind, "amount": AWARD_KINDS[kind]},
                             field="amount")
    value = amount if kind == "manual" else AWARD_KINDS[kind]
    characters = _campaign_characters(campaign, character_ids)
    lock_in_order(c.pk for c in characters)
    adventure = current_adventure(campaign)
    # One transaction: a correction that would take any one balance below zero posts nothing.
    posted = [karma_post(character=c, amount=value, kind=kind, by=by, reason=reason, adventure=adventure,
                         idempotency_key=client_key(f"award:{idempotency_key}:{c.pk}") if idempotency_key else None)
              for c in characters]
    return [entry for entry, _ in posted], any(created for _, created in posted)


# --- Adventures ---------------------------------------------------------------------------
@transaction.atomic
def adventure_start(*, campaign: Campaign, name: str, base_xp: int, by) -> Adventure:
    write = change_set(campaign=campaign.pk, by=by)
    name = (name or "").strip()
    if not name:
        raise CampaignError(_("Name the adventure."), field="name")
    if isinstance(base_xp, bool) or not isinstance(base_xp, int) or not 0 <= base_xp <= 100:
        raise CampaignError(_("Base XP is a whole number from 0 to 100 (typically 1–3 per session)."), field="base_xp")
    write.lock(Campaign.objects.filter(pk=campaign.pk))
    if current_adventure(campaign) is not None:
        raise CampaignConflict(_("Close the current adventure first."), field="name")
    adventure = Adventure.objects.create(campaign=campaign, name=name[:limits.ADVENTURE_NAME], base_xp=base_xp)
    # MacGuffins funded during earlier adventures take effect now ("from the next adventure").
    for macguffin in campaign.macguffins.filter(status=MacGuffin.Status.FUNDED):
        macguffin.status = MacGuffin.Status.IN_EFFECT
        macguffin.save(update_fields=["status"])
        write.audit("macguffin.in_effect", said("%(macguffin)s is now in effect", macguffin=macguffin.name),
                    data={"macguffin": macguffin.pk})
        write.publish(PoolChanged(macguffin=macguffin.pk))
    write.audit("adventure.start", said("%(by)s started the adventure %(adventure)s (base XP %(xp)s)", by=str(by),
                                        adventure=adventure.name, xp=base_xp),
                data={"adventure": adventure.pk})
    return adventure


@transaction.atomic
def token_add(*, adventure: Adventure, note: str, by) -> BadNewsToken:
    write = change_set(campaign=adventure.campaign_id, by=by)
    adventure = write.lock(Adventure.objects.filter(pk=adventure.pk))[0]
    if not adventure.is_open:
        raise CampaignConflict(_("That adventure is closed."), field="note")
    token = BadNewsToken.objects.create(adventure=adventure, note=(note or "")[:limits.TOKEN_NOTE])
    write.audit("adventure.token", said("Bad news: %(note)s (+1 XP)", note=token.note) if token.note
                else said("Bad news: a token (+1 XP)"), data={"adventure": adventure.pk})
    return token


@transaction.atomic
def token_void(*, token: BadNewsToken, by) -> BadNewsToken:
    adventure = Adventure.objects.select_for_update(no_key=True).get(pk=token.adventure_id)
    write = change_set(campaign=adventure.campaign_id, by=by)
    if not adventure.is_open:
        raise CampaignConflict(_("That adventure is closed."), field="token")
    token = BadNewsToken.objects.select_for_update(no_key=True).get(pk=token.pk)
    if token.voided:
        raise CampaignConflict(_("That token is already voided."), field="token")
    token.voided = True
    token.save(update_fields=["voided"])
    # A token without a note is named by its number.
    write.audit("adventure.token_void", said("Token voided: %(token)s", token=token.note or token.pk),
                data={"adventure": adventure.pk})
    return token


def payout_preview(*, adventure: Adventure, outcome: str, permanent: bool, selfish: Iterable[int]) -> list[dict]:
    """Return each active character's payout with its breakdown; posts nothing."""
    selfish = set(selfish)
    tokens = adventure.tokens.filter(voided=False).count()
    characters = list(adventure.campaign.characters.filter(state=Character.State.ACTIVE).order_by("name", "id"))
    unknown = selfish - {c.pk for c in characters}
    if unknown:
        raise CampaignError(_("Not active characters of this campaign: %(ids)s.") % {"ids": sorted(unknown)},
                            field="selfish")
    rows = []
    for c in characters:
        payout = rules_call(adventure_payout, adventure.base_xp, tokens, outcome, permanent, c.pk in selfish,
                        field="outcome")
        rows.append({"character": c.pk, "name": c.name, "karma": payout.total,
                     "breakdown": [(label, float(v) if not float(v).is_integer() else int(v))
                                   for label, v in payout.breakdown]})
    return rows


@transaction.atomic
def adventure_close(*, adventure: Adventure, outcome: str, permanent: bool, selfish: Iterable[int], by) -> list[dict]:
    """Close the adventure and post each active character's payout, once."""
    write = change_set(campaign=adventure.campaign_id, by=by)
    adventure = write.lock(Adventure.objects.filter(pk=adventure.pk))[0]
    if not adventure.is_open:
        raise CampaignConflict(_("That adventure is already closed; its payout was posted."), field="outcome")
    rows = payout_preview(adventure=adventure, outcome=outcome, permanent=permanent, selfish=selfish)
    lock_in_order(row["character"] for row in rows)
    for row in rows:
        if row["karma"]:
            karma_post(character=Character(pk=row["character"]), amount=row["karma"], kind=Kind.PAYOUT, by=by,
                       reason=said("Payout for %(adventure)s", adventure=adventure.name), adventure=adventure,
                       idempotency_key=f"system:payout:{adventure.pk}", data={"breakdown": row["breakdown"]})
    adventure.closed_at = timezone.now()
    adventure.outcome = outcome
    adventure.permanent = permanent
    adventure.save(update_fields=["closed_at", "outcome", "permanent"])
    write.audit("adventure.close", said("%(by)s closed %(adventure)s", by=str(by), adventure=adventure.name),
                data={"adventure": adventure.pk})
    return rows
