"""What the economy's services share: rules refusals as the app's errors, locks taken in id
order, the adventure in play and the upgrades in effect."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import translation

from campaign.errors import CampaignConflict, CampaignError
from campaign.models import Campaign
from characters.models import Character
from rulebook import RulesError

from .models import Adventure, KarmaEntry, MacGuffin

Kind = KarmaEntry.Kind
# The GM counts the rolls good fortune replaces, and deems when a setback may be paid off.
GM_ONLY_SPENDS = {"good_fortune", "setback_payoff"}


def in_sentence(label) -> str:
    """A choice's label inside a sentence ("a reroll", "is draft"): English writes it in lower case;
    German keeps its nouns' capitals."""
    text = str(label)
    return text.lower() if (translation.get_language() or "en").split("-")[0] == "en" else text


def rules_call(call, *args, field="detail", **kwargs):
    try:
        return call(*args, **kwargs)
    except RulesError as exc:
        raise CampaignError(str(exc), field=field) from None


def rules_refusal(call, *args, field="detail", **kwargs):
    """Run a rulebook call whose refusal depends on the sheet's state: a 409, not bad input."""
    try:
        return call(*args, **kwargs)
    except RulesError as exc:
        raise CampaignConflict(str(exc), field=field) from None


def lock_in_order(character_ids: Iterable[int]) -> None:
    """Lock characters in id order, so two writes naming the same characters never deadlock."""
    list(Character.objects.select_for_update(no_key=True).filter(pk__in=list(character_ids)).order_by("pk")
         .values_list("pk"))


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
