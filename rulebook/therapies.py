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


def _parse_dice(expression: str, effect: str) -> tuple[int, int]:
    if str(expression).strip() in ("", "0"):
        return 0, 6
    match = _DICE.match(str(expression))
    if not match:
        raise RulesError(f"{effect}: write dice as d3, 2d6, … or 0, not {expression!r}.")
    count, sides = int(match.group(1) or 1), int(match.group(2))
    low, high = _THERAPY_LIMITS[effect]
    if not low <= count * sides <= high:
        raise RulesError(f"{effect}: {expression} is outside the article's range for therapies.")
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
            raise RulesError("A therapy heals 0 to 3 points of long-term CON loss at once.")
        require_int(
            self.efficacy_loss,
            f"{self.name}: the efficacy lost per earlier use",
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
        label = effect.replace("_", " ")
        dice = f"{count}d{sides}" if count else "none"
        lines[effect] = DamageLine(label, sum(faces), [(dice, sum(faces))])
    delay = sum(roll_dice(4, 6, rng))
    return TherapyRoll(
        therapy,
        end_delay_hours=DamageLine("END delay (hours)", delay, [("4d6 hours", delay)]),
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
    return left, [(label, amount), ("lowered by earlier uses", left - amount)] if shown else []


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
    require_int(earlier_uses, "earlier_uses (times this therapy was used before)", minimum=0)
    shock, trauma = rolled.shock.amount, rolled.trauma.amount
    most = min(shock // 2, trauma // 2)
    if as_end > most:
        raise RulesError(f"At most {most} of this therapy's shock and trauma can be taken as END.")
    therapy = rolled.therapy
    loss, shown = therapy.efficacy_loss * earlier_uses, therapy.efficacy_loss > 0
    efficacy_terms: list[tuple[str, int]] = (
        [
            ("earlier uses of this therapy", earlier_uses),
            ("efficacy lost per earlier use", therapy.efficacy_loss),
            ("each benefit lowered by (never below 0)", loss),
        ]
        if shown
        else []
    )
    con_points, con_terms = _weakened(
        "long-term loss the therapy heals", therapy.con_healed, loss, shown
    )
    extra, extra_terms = _weakened(
        "repeat-transition extra rolled", rolled.extra_reduction.amount, loss, shown
    )
    steps, step_terms = _weakened(
        "recovery-track steps rolled", rolled.track_steps_back.amount, loss, shown
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
            ("long-term loss healed at once", sum(healed.values())),
            *extra_terms,
            ("repeat-transition extra removed", extra),
            *step_terms,
            ("recovery-track steps back", back),
            ("shock rolled", shock),
            ("trauma rolled", trauma),
            ("taken as END instead, from each", -as_end),
            ("shock suffered", shock - as_end),
            ("trauma suffered", trauma - as_end),
            ("END lost until the delay is over", 2 * as_end),
        ],
    )
