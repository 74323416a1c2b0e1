"""Anti-radiation therapies: the GM's treatments and what they do to the recovery track.

Article: "Radiation Damage", Anti-Radiation Therapies (including the efficacy that falls with
repeated usage). RULINGS.md section 7. The track they act on is rulebook.radiation's;
rulebook.recovery.undergo_therapy applies the outcome to a character's healing state.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from fractions import Fraction

from rulebook import RulesError
from rulebook._numbers import require_int
from rulebook.dice import roll_dice
from rulebook.radiation import DamageLine, RadiationTrack, heal_long_term_loss
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

_DICE = re.compile(r"^\s*(\d*)\s*[dD]\s*(3|6)\s*$")
#: Lowest and highest maximum an effect's dice may have (d3 to 3d6, d6 to 3d6, d3 to 2d6).
_THERAPY_LIMITS = {
    "extra_reduction": (3, 18),
    "track_steps_back": (3, 18),
    "shock": (6, 18),
    "trauma": (3, 12),
}
#: The most points a therapy's three benefits may each lose per earlier use.
EFFICACY_LOSS_MAX = 3
#: ``DamageLine.label`` of each rolled effect (kept in English, a key; marked for the catalogue,
#: translated where shown).
EFFECT_LABELS = {"extra_reduction": gettext_noop("extra reduction"),
                 "track_steps_back": gettext_noop("track steps back"),
                 "shock": gettext_noop("shock"), "trauma": gettext_noop("trauma")}
END_DELAY_LABEL = gettext_noop("END delay (hours)")


def _parse_dice(expression: str, effect: str) -> tuple[int, int]:
    if str(expression).strip() in ("", "0"):
        return 0, 6
    match = _DICE.match(str(expression))
    if not match:
        raise RulesError(_("%(effect)s: write dice as d3, 2d6, … or 0, not %(expression)s.")
                         % {"effect": effect, "expression": repr(expression)})
    count, sides = int(match.group(1) or 1), int(match.group(2))
    low, high = _THERAPY_LIMITS[effect]
    if not low <= count * sides <= high:
        raise RulesError(_("%(effect)s: %(expression)s is outside the article's range for therapies.")
                         % {"effect": effect, "expression": expression})
    return count, sides


@dataclass(frozen=True)
class Therapy:
    """An anti-radiation therapy as the GM defines it: dice expressions like "d3" or "2d6".

    ``efficacy_loss`` (0 to 3) is how many points each of its three benefits loses per earlier
    use by the same character ("Some anti-radiation therapies reduce in efficacy with repeated
    usage"); 0 for a therapy that works as well every time.
    """

    name: str
    con_healed: int = 1
    extra_reduction: str = "d3"
    track_steps_back: str = "d3"
    shock: str = "d6"
    trauma: str = "d3"
    efficacy_loss: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.con_healed, bool) or self.con_healed not in (0, 1, 2, 3):
            raise RulesError(_("A therapy heals 0 to 3 points of long-term CON loss at once."))
        require_int(
            self.efficacy_loss,
            _("%(name)s: the efficacy lost per earlier use") % {"name": self.name},
            minimum=0,
            maximum=EFFICACY_LOSS_MAX,
        )
        for effect in _THERAPY_LIMITS:
            _parse_dice(getattr(self, effect), effect)


@dataclass(frozen=True)
class TherapyRoll:
    """A therapy's rolled effects, before the player chooses any END swap."""

    therapy: Therapy
    extra_reduction: DamageLine
    track_steps_back: DamageLine
    shock: DamageLine
    trauma: DamageLine
    end_delay_hours: DamageLine


def roll_therapy(therapy: Therapy, *, rng: random.Random | None = None) -> TherapyRoll:
    """Roll a therapy's effects and the 4d6 hours of any END swap ("Anti-Radiation Therapies").

    Dice are rolled in this order: extra reduction, track steps, shock, trauma, END delay.
    """
    lines = {}
    for effect in ("extra_reduction", "track_steps_back", "shock", "trauma"):
        count, sides = _parse_dice(getattr(therapy, effect), effect)
        faces = roll_dice(count, sides, rng)
        dice = f"{count}d{sides}" if count else _("none")
        lines[effect] = DamageLine(EFFECT_LABELS[effect], sum(faces), [(dice, sum(faces))])
    delay = sum(roll_dice(4, 6, rng))
    return TherapyRoll(
        therapy,
        end_delay_hours=DamageLine(END_DELAY_LABEL, delay, [(_("4d6 hours"), delay)]),
        **lines,
    )


@dataclass(frozen=True)
class TherapyOutcome:
    """A therapy applied: the new track, what it healed, and the shock, trauma and END it costs."""

    track: RadiationTrack
    con_healed: dict[str, int]
    shock: int
    trauma: int
    end_loss: int
    end_delay_hours: int
    breakdown: list[tuple[str, int]]


def _weakened(
    label: str, amount: int, loss: int, shown: bool
) -> tuple[int, list[tuple[str, int]]]:
    # One benefit after repeated use: never below 0; its terms only for a therapy that weakens.
    left = max(amount - loss, 0)
    return left, [(label, amount), (_("lowered by earlier uses"), left - amount)] if shown else []


def apply_therapy(
    track: RadiationTrack, rolled: TherapyRoll, *, as_end: int = 0, earlier_uses: int = 0
) -> TherapyOutcome:
    """Apply a rolled anti-radiation therapy ("Radiation Damage", Anti-Radiation Therapies).

    Heals long-term loss at once, cuts the repeat-transition extra for every later transition,
    moves the track back toward its first steps (the step's period starts afresh), and inflicts
    shock and trauma. ``as_end`` points come off both shock and trauma (the same on each, at
    most half of either) and are lost as twice that much END, which comes back only after the
    rolled 4d6 hours.

    *Reading* of "Some anti-radiation therapies reduce in efficacy with repeated usage": each
    of the three benefits (loss healed at once, extra removed, steps back) is lowered by the
    therapy's ``efficacy_loss`` per earlier use, never below 0; shock and trauma are not.

    Args:
        track: The character's radiation track.
        rolled: The therapy's rolled effects (``roll_therapy``).
        as_end: Points taken off both shock and trauma and lost as twice that much END.
        earlier_uses: How many times this character has had this therapy before.
    """
    require_int(as_end, "as_end", minimum=0)
    require_int(earlier_uses, gettext_noop("earlier_uses (times this therapy was used before)"), minimum=0)
    shock, trauma = rolled.shock.amount, rolled.trauma.amount
    most = min(shock // 2, trauma // 2)
    if as_end > most:
        raise RulesError(_("At most %(most)s of this therapy's shock and trauma can be taken as END.") % {"most": most})
    therapy = rolled.therapy
    loss, shown = therapy.efficacy_loss * earlier_uses, therapy.efficacy_loss > 0
    efficacy_terms: list[tuple[str, int]] = (
        [
            (_("earlier uses of this therapy"), earlier_uses),
            (_("efficacy lost per earlier use"), therapy.efficacy_loss),
            (_("each benefit lowered by (never below 0)"), loss),
        ]
        if shown
        else []
    )
    con_points, con_terms = _weakened(
        _("long-term loss the therapy heals"), therapy.con_healed, loss, shown
    )
    extra, extra_terms = _weakened(
        _("repeat-transition extra rolled"), rolled.extra_reduction.amount, loss, shown
    )
    steps, step_terms = _weakened(
        _("recovery-track steps rolled"), rolled.track_steps_back.amount, loss, shown
    )
    healed, remaining = heal_long_term_loss(track.damage, con_points)
    back = min(steps, track.step)
    new_track = replace(
        track,
        damage=remaining,
        extra_reduction=track.extra_reduction + extra,
    )
    if back:
        new_track = replace(
            new_track,
            step=track.step - back,
            step_hours=Fraction(0),
            step_restful_sleep_hours=Fraction(0),
            step_rough_rest_hours=Fraction(0),
        )
    return TherapyOutcome(
        track=new_track,
        con_healed=healed,
        shock=shock - as_end,
        trauma=trauma - as_end,
        end_loss=2 * as_end,
        end_delay_hours=rolled.end_delay_hours.amount if as_end else 0,
        breakdown=[
            *efficacy_terms,
            *con_terms,
            (_("long-term loss healed at once"), sum(healed.values())),
            *extra_terms,
            (_("repeat-transition extra removed"), extra),
            *step_terms,
            (_("recovery-track steps back"), back),
            (_("shock rolled"), shock),
            (_("trauma rolled"), trauma),
            (_("taken as END instead, from each"), -as_end),
            (_("shock suffered"), shock - as_end),
            (_("trauma suffered"), trauma - as_end),
            (_("END lost until the delay is over"), 2 * as_end),
        ],
    )
