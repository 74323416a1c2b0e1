"""The Karma ledger: every award and every spend, posted once, never below zero.

Every post locks the character's row, checks the idempotency key under that lock, writes an
append-only ``KarmaEntry`` and moves the cached balance in the same transaction. The database
backs each promise: the balance and every ``balance_after`` are ≥ 0 (CHECK), a key is used
once per character and an adventure pays a character once (UNIQUE).
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from campaign.changes import change_set
from campaign.errors import CampaignConflict, CampaignError
from characters.models import Character
from rulebook.words import Said, said
from zenergate_site import limits

from .common import in_sentence
from .models import KarmaEntry

Kind = KarmaEntry.Kind


class KarmaShort(CampaignConflict):
    """The balance cannot cover a spend (HTTP 409)."""


def client_key(key: str) -> str:
    """Return a client's idempotency key in the clients' namespace.

    Services key their own entries "system:…" (the opening, each payout); a client's key can
    therefore never replay, and so swallow, an entry the app itself must post.
    """
    return f"client:{key}"


def _existing(character_id: int, key: str | None, kind: str) -> KarmaEntry | None:
    if not key:
        return None
    entry = KarmaEntry.objects.filter(character_id=character_id, idempotency_key=key).first()
    if entry is not None and entry.kind != kind:
        raise CampaignConflict(_("That idempotency key was already used for a %(kind)s; send a new key for a new "
                                 "request.") % {"kind": in_sentence(entry.get_kind_display())},
                               field="idempotency_key")
    return entry


#: Each kind of entry inside a log line, in English in lower case (as ``Kind(kind).label.lower()``).
KIND_IN_SENTENCE = {
    "opening": said("starting karma"), "payout": said("adventure payout"),
    "complication": said("gm complication (+2)"), "npc_boost": said("npc boost (+1)"),
    "manual": said("gm correction"), "reroll": said("reroll"), "assist": said("+5 to another's roll"),
    "skill_points": said("converted to skill points"), "stat_raise": said("stat raise"),
    "disadvantage_removal": said("disadvantage rank removed"), "good_fortune": said("stroke of good fortune"),
    "delay_transition": said("delayed a zener transition"), "setback_payoff": said("setback paid off"),
    "macguffin": said("campaign macguffin"),
}


def karma_post(*, character: Character, amount: int, kind: str, by, reason: str | Said = "", adventure=None,
               macguffin=None, idempotency_key: str | None = None, data: dict | None = None,
               effect: Callable[[Character], dict | None] | None = None) -> tuple[KarmaEntry, bool]:
    """Post one ledger entry and move the balance; return (entry, created).

    Replaying an ``idempotency_key`` returns the first entry and changes nothing. ``effect``
    runs under the same lock and transaction before the entry is written (a stat raise, skill
    points…): if it raises, nothing is posted. A ``reason`` someone typed is kept as typed; the
    app's own (a Said) in English, and as the Said each reader reads in their language.
    """
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise CampaignError(_("The amount must be a whole number."), field="amount")
    if idempotency_key is not None and (not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 120):
        raise CampaignError(_("The idempotency key is a string of 1–100 characters."), field="idempotency_key")
    try:
        with transaction.atomic():
            locked = Character.objects.select_for_update(no_key=True).select_related("campaign").get(pk=character.pk)
            write = change_set(campaign=locked.campaign_id, by=by)
            replay = _existing(locked.pk, idempotency_key, kind)
            if replay is not None:
                return replay, False
            if locked.state != Character.State.ACTIVE and kind != Kind.OPENING:
                raise CampaignConflict(
                    _("%(name)s is %(state)s: Karma moves only once the GM has approved the sheet.")
                    % {"name": locked.name, "state": in_sentence(locked.get_state_display())}, field="character")
            balance = locked.karma + amount
            if balance < 0:
                raise KarmaShort(_("%(name)s has %(karma)s Karma; this needs %(cost)s.")
                                 % {"name": locked.name, "karma": locked.karma, "cost": -amount}, field="amount")
            extra = effect(locked) if effect else None
            locked.karma = balance
            locked.save(update_fields=["karma", "updated_at"])
            entry = KarmaEntry.objects.create(
                campaign_id=locked.campaign_id, character=locked, kind=kind, amount=amount, balance_after=balance,
                reason=(reason.english() if isinstance(reason, Said) else reason)[:limits.KARMA_REASON],
                said=reason.as_data() if isinstance(reason, Said) else {}, adventure=adventure, macguffin=macguffin,
                idempotency_key=idempotency_key,
                data={**(data or {}), **(extra or {})}, by=by if getattr(by, "is_authenticated", False) else None,
            )
            # The amount keeps its sign ("+2", "-1") in every language.
            line = dict(name=locked.name, amount=f"{amount:+d}", kind=KIND_IN_SENTENCE[kind])
            write.audit(f"karma.{kind}",
                        said("%(name)s: %(amount)s Karma (%(kind)s): %(reason)s", **line, reason=reason) if reason
                        else said("%(name)s: %(amount)s Karma (%(kind)s)", **line),
                        data={"character": locked.pk, "entry": entry.pk,
                              # An assist names the helped too: the log's filter finds it under both.
                              **({"characters": [locked.pk, helped]} if (helped := entry.data.get("helped")) else {})})
            character.karma = balance
            return entry, True
    except IntegrityError:
        # A concurrent request with the same key won the race between our check and insert.
        replay = _existing(character.pk, idempotency_key, kind)
        if replay is None:
            raise
        return replay, False


def karma_open(*, character: Character, by) -> KarmaEntry:
    """Open an approved character's ledger with its starting Karma (once)."""
    entry, _ = karma_post(character=character, amount=character.starting_karma or 0, kind=Kind.OPENING, by=by,
                          reason=said("Starting Karma at approval"), idempotency_key="system:opening")
    return entry


def open_on_approval(*, character: Character, by, **_) -> None:
    """``characters.signals.character_approved``: the approved character's ledger opens."""
    karma_open(character=character, by=by)


def karma_ledger(*, character: Character, limit: int = 200, before: int | None = None):
    """Return a page of the ledger, newest first; ``before`` (an entry id) pages further back."""
    entries = character.karma_entries.select_related("by", "adventure", "macguffin").order_by("-id")
    if before is not None:
        entries = entries.filter(id__lt=before)
    return entries[:limit]


def forget_campaign(sender, campaign, **_) -> None:
    """A deleted campaign takes its ledger with it (campaign.signals.campaign_clearing): the one
    time an entry goes, since everything it named goes in the same transaction."""
    KarmaEntry.objects.filter(campaign=campaign).delete()
