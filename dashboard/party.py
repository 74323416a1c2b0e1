"""What the dashboard shows of the party, the pools, the adventure and the ledger."""

from __future__ import annotations

from characters import sheet as sheet_rules
from characters.models import Character
from characters.selectors import budget_lines
from economy import services as economy
from economy.models import KarmaEntry
from rulebook import RulesError
from zenergate_site.templatetags.bars import share

Active = Character.State.ACTIVE


def _party_row(character: Character, lines: dict | None) -> dict:
    """Return what the party overview shows of one character (no queries: ``lines`` are read)."""
    hp, shk, end = character.hit_points, character.shock_threshold, character.endurance_max
    if hp is None:  # not approved yet: the values the sheet would freeze now
        try:
            d = sheet_rules.derived(character)
            hp, shk, end = d.hit_points.total, d.shock_threshold.total, d.endurance.total
        except RulesError:
            hp = shk = end = 0
    hp_now = hp - character.trauma  # below zero when trauma passes HP (RULINGS §8)
    end_now = max(end - character.endurance_spent, 0)
    return {
        "character": character, "hp": hp, "hp_now": hp_now, "hp_pct": share(hp_now, hp),
        "shk": shk, "shock_over": character.shock > shk, "shock_pct": share(character.shock, shk),
        "end": end, "end_now": end_now, "end_pct": share(end_now, end),
        "flags": economy.karma_flags(character, lines) if lines is not None else [],
    }


def dashboard_context(*, campaign) -> dict:
    """Return the economy half of the campaign dashboard in a fixed number of queries."""
    characters = list(campaign.characters.select_related("owner", "campaign").order_by("name", "id"))
    # The Karma flags of the characters in play read their budgets: their lines, as light rows.
    lines = budget_lines([c.pk for c in characters if c.state == Active])
    adventure = economy.current_adventure(campaign)
    tokens = list(adventure.tokens.all()) if adventure else []
    return {
        # Characters in play first, then drafts, the dead and the retired (each by name).
        "party": sorted((_party_row(c, lines.get(c.pk)) for c in characters),
                        key=lambda row: row["character"].state != Active),
        "pools": list(economy.macguffin_summary(campaign)),
        "adventure": adventure,
        "adventure_tokens": sum(1 for t in tokens if not t.voided),
        "adventure_voided": sum(1 for t in tokens if t.voided),
        "ledger_recent": list(KarmaEntry.objects.filter(campaign=campaign)
                              .select_related("character", "by", "macguffin", "adventure")[:10]),
    }
