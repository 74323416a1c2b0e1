"""Stats rolled in the app ("roll in the app" campaigns): every roll is logged for the GM.

The 13 stats are rolled with the campaign's ``stat_dice`` (d20 notation, e.g. "4d6") and the
two INT dice with the rulebook's d6. The page fills its inputs from the logged roll, and the
server takes the numbers from the log, never from what the browser sends back.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from campaign.changes import change_set
from campaign.models import Campaign, LogEntry
from rulebook.dice import roll_die
from rulebook.stats import PRIMARY_STATS, STAT_MAX, STAT_MIN
from rulebook.words import said

from .errors import CharacterConflict, CharacterError
from .models import Character

ROLL_ACTION = "character.roll"


@dataclass(frozen=True)
class StatRoll:
    """One logged roll of all 13 stats and the two INT dice."""

    log_entry_id: int
    dice: str
    stats: dict[str, int]
    details: dict[str, str]  # d20's account of each stat's roll, e.g. "4d6 (6, 5, 3, 1) = 15"
    int_dice: tuple[int, int]


def _roll_stat(expression: str, stat: str) -> tuple[int, str]:
    import d20  # imported here: its parser is only needed when stats are rolled

    try:
        result = d20.roll(expression)
    except d20.RollError as exc:
        raise CharacterError(_("The campaign's stat dice “%(dice)s” cannot be rolled (%(error)s); ask the GM to fix "
                               "them.") % {"dice": expression, "error": exc}, field="stats") from None
    total = int(result.total)
    if not STAT_MIN <= total <= STAT_MAX:
        raise CharacterError(_("The campaign's stat dice “%(dice)s” rolled %(total)s for %(stat)s, outside "
                               "%(low)s–%(high)s; ask the GM to fix them.")
                             % {"dice": expression, "total": total, "stat": stat, "low": STAT_MIN, "high": STAT_MAX},
                             field="stats")
    return total, str(result)


@transaction.atomic
def stats_roll(*, campaign: Campaign, by, character: Character | None = None, is_gm: bool = False,
               rng: random.Random | None = None) -> StatRoll:
    """Roll the 13 stats and the INT dice, log the roll, and apply it to ``character`` if given.

    Without a character the roll waits in the log for ``character_create`` (see ``logged_roll``);
    with a draft it replaces the draft's rolled stats and INT dice at once.
    """
    change_set(campaign=campaign.pk, by=by)
    if campaign.stat_entry != Campaign.StatEntry.ROLL:
        raise CharacterConflict(_("In this campaign players enter the stats they rolled at the table."),
                                field="stats")
    if character is not None and character.state != Character.State.DRAFT:
        raise CharacterConflict(_("%(name)s is %(state)s: stats are rolled only while the character is a draft.")
                                % {"name": character.name, "state": character.state_word()}, field="stats")
    stats, details = {}, {}
    for stat in PRIMARY_STATS:
        stats[stat], details[stat] = _roll_stat(campaign.stat_dice, stat)
    int_dice = (roll_die(6, rng), roll_die(6, rng))
    # The stats as the sheet writes them ("STR 12"), the same in every language.
    rolled = dict(by=str(by), dice=campaign.stat_dice, stats=", ".join(f"{k} {v}" for k, v in stats.items()),
                  plus=int_dice[0], minus=int_dice[1])
    entry = change_set(campaign=campaign, by=by).audit(
        ROLL_ACTION,
        said("%(by)s rolled stats for %(name)s (%(dice)s): %(stats)s; INT dice +%(plus)s −%(minus)s",
             name=character.name, **rolled) if character is not None else
        said("%(by)s rolled stats for a new character (%(dice)s): %(stats)s; INT dice +%(plus)s −%(minus)s",
             **rolled),
        data={"dice": campaign.stat_dice, "stats": stats, "rolls": details, "int_dice": list(int_dice),
              "character": character.pk if character is not None else None})
    if character is not None:
        from .services import character_update

        character_update(character=character, by=by, is_gm=is_gm, data={"stats": stats, "int_dice": list(int_dice)})
    return StatRoll(entry.pk, campaign.stat_dice, stats, details, int_dice)


def logged_roll(*, campaign: Campaign, by, roll_id) -> StatRoll:
    """Return a roll ``by`` made in ``campaign`` for a new character, or raise CharacterError."""
    try:
        entry = LogEntry.objects.get(pk=int(roll_id), campaign=campaign, actor=by, action=ROLL_ACTION,
                                     data__character=None)
    except (LogEntry.DoesNotExist, TypeError, ValueError):
        raise CharacterError(_("Roll the stats first: in this campaign they are rolled in the app."),
                             field="stats") from None
    data = entry.data
    return StatRoll(entry.pk, data["dice"], dict(data["stats"]), dict(data["rolls"]), tuple(data["int_dice"]))


@transaction.atomic
def character_create_from_roll(*, campaign: Campaign, owner, name: str, roll_id, by) -> Character:
    """Create a draft from a roll ``by`` made in the app; each roll makes one character only."""
    change_set(campaign=campaign.pk, by=by)
    from .services import character_create

    rolled = logged_roll(campaign=campaign, by=by, roll_id=roll_id)
    entry = LogEntry.objects.select_for_update(no_key=True).get(pk=rolled.log_entry_id)
    if entry.data.get("character") is not None:  # a second tab raced us to the same roll
        raise CharacterConflict(_("That roll already made a character; roll again for a new one."), field="stats")
    character = character_create(campaign=campaign, owner=owner, name=name, stats=rolled.stats,
                                 int_dice=list(rolled.int_dice), by=by)
    entry.data = {**entry.data, "character": character.pk}
    entry.save(update_fields=["data"])
    return character
