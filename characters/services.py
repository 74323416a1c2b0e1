"""Every write to a character sheet: one transaction each, row-locked, logged, in its history.

Who may write is decided by ``permissions.access_character``; what may change in the
character's state is decided here (CharacterConflict → 409), and what the rules allow by the
rulebook (RulesError → CharacterError → 400).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from campaign.changes import change_set
from campaign.stat_dice import stat_dice_range
from rulebook import RulesError
from rulebook.stats import (
    PRIMARY_STATS,
    STAT_MAX,
    STAT_MIN,
    apply_karma_swap,
    validate_stats,
)
from rulebook.words import said
from zenergate_site import limits

from . import sheet as sheet_rules
from .errors import CharacterConflict, CharacterError
from .models import STAT_FIELDS, Character

State = Character.State


def _rules(call, *args, field: str = "detail", **kwargs):
    """Run a rulebook call, turning its refusal into a 400 on ``field``."""
    try:
        return call(*args, **kwargs)
    except RulesError as exc:
        raise CharacterError(str(exc), field=field) from None


def _validate_generation(*, rolled: Mapping, trades: Mapping, swaps: list) -> dict[str, int]:
    """Return the sheet stats from rolled stats, trades and Karma swaps, or raise with field messages."""
    if not isinstance(rolled, Mapping):
        raise CharacterError(_("Give the 13 stats as an object keyed STR … PERS."), field="stats")
    unknown = sorted(set(rolled) - set(PRIMARY_STATS))
    if unknown:
        raise CharacterError(_("Unknown stat(s): %(stats)s.") % {"stats": ", ".join(map(str, unknown))}, field="stats")
    _rules(validate_stats, rolled, field="stats")
    if not isinstance(trades, Mapping) or any(
            k not in PRIMARY_STATS or isinstance(v, bool) or not isinstance(v, int) for k, v in trades.items()):
        raise CharacterError(_("Trades are whole numbers keyed by stat, e.g. {\"STR\": 1, \"ENC\": -2}."), field="trades")
    stats = {code: rolled[code] + trades.get(code, 0) for code in PRIMARY_STATS}
    _rules(validate_stats, stats, field="trades")
    if not isinstance(swaps, list):
        raise CharacterError(_("Karma swaps are a list of {\"lowered\": stat, \"raised\": stat}."), field="karma_swaps")
    for swap in swaps:
        if not isinstance(swap, Mapping) or set(swap) != {"lowered", "raised"}:
            raise CharacterError(_("Each Karma swap names the stat lowered and the stat raised."), field="karma_swaps")
        stats = _rules(apply_karma_swap, stats, lowered=swap["lowered"], raised=swap["raised"], field="karma_swaps")
    return stats


def _check_entered_stats(campaign, rolled: Mapping, *, changed: set | None = None, is_gm: bool = False,
                         override_reason: str = "") -> list[str]:
    """Refuse entered stats the campaign's stat dice cannot roll, naming the range.

    The GM may enter one anyway with a reason (a house rule, an old character brought along);
    the reason goes in the log. Return the stats let through that way.
    """
    low, high = stat_dice_range(campaign.stat_dice)
    outside = [code for code in PRIMARY_STATS if code in rolled and (changed is None or code in changed)
               and isinstance(rolled[code], int) and not low <= rolled[code] <= high]
    if outside and not (is_gm and (override_reason or "").strip()):
        code = outside[0]
        raise CharacterError(
            _("%(stat)s %(value)s is outside what %(dice)s rolls (%(low)s–%(high)s). "
              "The GM may enter it anyway with a reason.") % {"stat": code, "value": rolled[code],
                                                              "dice": campaign.stat_dice, "low": low, "high": high},
            field="stats")
    return outside


def _check_int_dice(int_dice) -> tuple[int, int]:
    if (not isinstance(int_dice, list | tuple) or len(int_dice) != 2
            or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in int_dice)):
        raise CharacterError(_("The INT dice are two d6 results, each 1–6: [plus, minus]."), field="int_dice")
    return int(int_dice[0]), int(int_dice[1])


@transaction.atomic
def character_create(*, campaign, owner, name: str, stats: Mapping, int_dice, trades: Mapping | None = None,
                     karma_swaps: list | None = None, by, is_gm: bool = False, override_reason: str = "") -> Character:
    """Create a draft character owned by ``owner`` from its rolled stats and INT dice.

    Entered stats must be what the campaign's stat dice can roll, unless the GM gives a reason.
    """
    change_set(campaign=campaign.pk, by=by)
    name = (name or "").strip()
    if not name:
        raise CharacterError(_("Give the character a name."), field="name")
    trades, karma_swaps = dict(trades or {}), list(karma_swaps or [])
    final = _validate_generation(rolled=stats, trades=trades, swaps=karma_swaps)
    overridden = _check_entered_stats(campaign, stats, is_gm=is_gm, override_reason=override_reason)
    plus, minus = _check_int_dice(int_dice)
    character = Character(
        campaign=campaign, owner=owner, name=name[:limits.CHARACTER_NAME], rolled_stats=dict(stats), stat_trades=trades,
        karma_swaps=karma_swaps, int_plus_d6=plus, int_minus_d6=minus,
        **{STAT_FIELDS[code]: value for code, value in final.items()},
    )
    _rules(sheet_rules.starting_karma, character, field="karma_swaps")
    character.save()
    change_set(campaign=campaign, by=by).audit("character.create", said("%(by)s created %(name)s", by=str(by),
                                                                        name=character.name),
                                               data={"character": character.pk})
    if overridden:
        # The stats as the sheet writes them ("STR 25"), the same in every language; the GM's
        # reason as typed, cut where the log line is cut.
        change_set(campaign=campaign, by=by).audit(
            "character.stats_override", said("%(by)s entered %(stats)s for %(name)s outside %(dice)s: %(reason)s",
                                             by=str(by), stats=", ".join(f"{c} {stats[c]}" for c in overridden),
                                             name=character.name, dice=campaign.stat_dice,
                                             reason=override_reason.strip()[:300]),
            data={"character": character.pk, "stats": overridden, "reason": override_reason.strip()})
    return character


def rebuild_stats(character: Character) -> dict[str, int]:
    """Return the sheet stats from the character's build, with Karma raises and setbacks on top.

    Raises CharacterError (field "stats") when the build or the result leaves 1–40.
    """
    final = _validate_generation(rolled=character.rolled_stats, trades=character.stat_trades or {},
                                 swaps=list(character.karma_swaps or []))
    stats = {}
    for code in PRIMARY_STATS:
        value = final[code] + (character.stat_raises or {}).get(code, 0) - (character.stat_setbacks or {}).get(code, 0)
        if not STAT_MIN <= value <= STAT_MAX:
            raise CharacterError(_("%(stat)s would be %(value)s with its Karma raises and setbacks; stats run "
                                   "%(low)s–%(high)s.") % {"stat": code, "value": value, "low": STAT_MIN,
                                                           "high": STAT_MAX}, field="stats")
        stats[code] = value
    return stats


def _locked(character: Character) -> Character:
    """Lock a character to change it: other writes wait, rows that refer to it can still be added."""
    return Character.objects.select_for_update(no_key=True).select_related("campaign").get(pk=character.pk)


def apply_generation(character: Character, data: Mapping) -> Character:
    """Put new stats, trades, Karma swaps or INT dice on ``character`` in memory, with the sheet
    values they make: what ``character_update`` stores, and what the builder shows before saving
    (the same rules, so the preview and the saved sheet cannot disagree)."""
    rolled = dict(character.rolled_stats)
    if isinstance(data.get("stats"), Mapping):
        rolled.update(data["stats"])
    trades = dict(data.get("trades", character.stat_trades) or {})
    swaps = list(data.get("karma_swaps", character.karma_swaps) or [])
    character.rolled_stats, character.stat_trades, character.karma_swaps = rolled, trades, swaps
    for code, value in rebuild_stats(character).items():
        setattr(character, STAT_FIELDS[code], value)
    if "int_dice" in data:
        character.int_plus_d6, character.int_minus_d6 = _check_int_dice(data["int_dice"])
    return character


@transaction.atomic
def character_update(*, character: Character, by, is_gm: bool, data: Mapping) -> Character:
    """Change a character's name, stats, trades, swaps, INT dice or GM notes.

    A draft's owner changes anything but GM notes; once submitted or active, stats change
    only through Karma spends or a GM edit (409 for anyone else).
    """
    change_set(campaign=character.campaign_id, by=by)
    character = _locked(character)
    changed: list[str] = []
    generation_keys = {"stats", "trades", "karma_swaps", "int_dice"} & set(data)
    if generation_keys and character.state != State.DRAFT and not is_gm:
        raise CharacterConflict(
            _("%(name)s is %(state)s: stats change only through Karma spends or a GM edit.")
            % {"name": character.name, "state": character.state_word()}, field=sorted(generation_keys)[0])
    if "gm_notes" in data and not is_gm:
        raise PermissionDenied(_("Only the GM writes GM notes."))
    if "name" in data:
        name = (data["name"] or "").strip() if isinstance(data["name"], str) else ""
        if not name:
            raise CharacterError(_("Give the character a name."), field="name")
        character.name = name[:limits.CHARACTER_NAME]
        changed.append("name")
    if generation_keys:
        if "stats" in data:
            if not isinstance(data["stats"], Mapping):
                raise CharacterError(_("Give stats as an object keyed STR … PERS."), field="stats")
            changed_stats = {c for c, v in data["stats"].items() if character.rolled_stats.get(c) != v}
            overridden = _check_entered_stats(character.campaign, data["stats"], changed=changed_stats, is_gm=is_gm,
                                              override_reason=str(data.get("override_reason") or ""))
            if overridden:
                change_set(campaign=character.campaign, by=by).audit(
                    "character.stats_override",
                    said("%(by)s entered %(stats)s for %(name)s outside %(dice)s: %(reason)s", by=str(by),
                         stats=", ".join(overridden), name=character.name, dice=character.campaign.stat_dice,
                         reason=str(data.get("override_reason"))[:300]),
                    data={"character": character.pk, "stats": overridden})
        apply_generation(character, data)
        changed += [*STAT_FIELDS.values(), "rolled_stats", "stat_trades", "karma_swaps"]
        if "int_dice" in data:
            changed += ["int_plus_d6", "int_minus_d6"]
        _rules(sheet_rules.starting_karma, character, field="karma_swaps")
    if "gm_notes" in data:
        character.gm_notes = str(data["gm_notes"] or "")
        changed.append("gm_notes")
    if changed:
        character.save(update_fields=[*changed, "updated_at"])
        change_set(campaign=character.campaign, by=by).audit(
            "character.update", said("%(by)s edited %(name)s", by=str(by), name=character.name),
            data={"character": character.pk, "fields": changed})
    return character


@transaction.atomic
def character_delete(*, character: Character, by, is_gm: bool) -> None:
    """Delete a character that never played: its player while a draft, the GM until approval.

    An approved character has a Karma ledger, which is never thrown away: retire it instead.
    """
    change_set(campaign=character.campaign_id, by=by)
    # The full lock a delete needs: nothing may start to refer to the row meanwhile.
    character = Character.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=character.pk)
    if character.state not in (State.DRAFT, State.SUBMITTED):
        raise CharacterConflict(_("%(name)s has played and keeps its Karma ledger: mark it retired or dead instead "
                                  "of deleting it.") % {"name": character.name})
    if character.state != State.DRAFT and not is_gm:
        raise CharacterConflict(_("Only drafts can be deleted by their player; ask the GM."))
    change_set(campaign=character.campaign, by=by).audit(
        "character.delete", said("%(by)s deleted %(name)s", by=str(by), name=character.name),
        data={"character": character.pk})
    character.delete()
