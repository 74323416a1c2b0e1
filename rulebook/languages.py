"""Languages: aspects and ranks, starting languages, era distance, immersion, spot/listen checks.

Article: "Languages", "Starting Languages", "In-game language usage", "In-game language
acquisition & improvement", "Spot/Listen Checks". RULINGS.md sections 1 and 7.
"""

from __future__ import annotations

import functools
import math
import random
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from numbers import Real

from rulebook import RulesError
from rulebook._numbers import require_int
from rulebook.dice import CheckRoll, roll_check, target_terms
from rulebook.stats import STAT_CHECK_DICE, BreakdownLine, CheckTarget
from rulebook.tables import as_fraction
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

#: The four aspects; spoken–heard and written–read are the natural pairs.
ASPECTS: tuple[str, ...] = ("spoken", "heard", "written", "read")
#: Each aspect as people read it (marked for the catalogue: translated where shown).
ASPECT_NAMES: dict[str, str] = {"spoken": gettext_noop("spoken"), "heard": gettext_noop("heard"),
                                "written": gettext_noop("written"), "read": gettext_noop("read")}
PAIR_PARTNER: dict[str, str] = {
    "spoken": "heard",
    "heard": "spoken",
    "written": "read",
    "read": "written",
}
MAX_RANK = 3
#: Marked for the catalogue: translated where shown.
RANK_NAMES: dict[int, str] = {0: gettext_noop("marginal"), 1: gettext_noop("conversational"),
                              2: gettext_noop("functional"), 3: gettext_noop("colloquial")}
#: Language roll modifiers by rank, target-side (the article's "+15" on the roll is −15).
CHECK_MODIFIERS: dict[int, int] = {0: -15, 1: -10, 2: -5, 3: 0}
ERA_STEP_MAX_LOSS = Fraction(1, 2)
INT_PER_FREE_LANGUAGE = 5
POINTS_PER_NATIVE_RANK = 2
#: Immersion hours to gain the next rank, by the rank held now (None: not yet held at all).
IMMERSION_HOURS: dict[int | None, int] = {None: 3, 0: 6, 1: 12, 2: 24}
ERA_GAP_HOURS_PER_RANK = 6
ERA_GAP_CHECK_MODIFIER = -15
RELATED_LANGUAGE_BONUS = 2
ACTIVELY_LOOKING_MAX = 5


def _aspect(aspect: str) -> str:
    if aspect not in ASPECTS:
        raise RulesError(_("Unknown language aspect %(aspect)s: use spoken, heard, written or read.")
                         % {"aspect": repr(aspect)})
    return aspect


def _rank(rank: int, aspect: str | None = None) -> int:
    """A rank of 0 to MAX_RANK; the message names the ``aspect`` when given."""
    if isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank <= MAX_RANK:
        said = {"max": MAX_RANK, "rank": repr(rank)}
        if aspect is None:
            raise RulesError(_("A language rank is 0 to %(max)s, not %(rank)s.") % said)
        raise RulesError(_("A language %(aspect)s rank is 0 to %(max)s, not %(rank)s.")
                         % {**said, "aspect": _(ASPECT_NAMES[aspect])})
    return rank


def _ranks(ranks: Mapping[str, int]) -> dict[str, int]:
    for aspect in ranks:
        _aspect(aspect)
    return {aspect: _rank(ranks.get(aspect, 0), aspect) for aspect in ASPECTS}


def aspect_distance(a: str, b: str) -> int:
    """Return how far apart two aspects are: 0 the same, 1 pair partners, 2 the other pair."""
    return 0 if _aspect(a) == _aspect(b) else 1 if PAIR_PARTNER[a] == b else 2


_distance = aspect_distance


def aspects_from_purchase(aspect: str, rank: int) -> dict[str, int]:
    """Return all four ranks of a language bought in one aspect ("Languages").

    The bought aspect has ``rank``, its pair partner one less and the other pair two less,
    never below 0.
    """
    _aspect(aspect)
    _rank(rank)
    return {other: max(rank - _distance(aspect, other), 0) for other in ASPECTS}


def raise_aspect(ranks: Mapping[str, int], aspect: str) -> dict[str, int]:
    """Raise one aspect by a rank; the others follow as if bought from it ("Starting Languages")."""
    current = _ranks(ranks)
    if current[_aspect(aspect)] >= MAX_RANK:
        raise RulesError(_("%(aspect)s is already at the maximum of %(max)s ranks.")
                         % {"aspect": _(ASPECT_NAMES[aspect]).capitalize(), "max": MAX_RANK})
    new = current[aspect] + 1
    return {other: max(current[other], new - _distance(aspect, other)) for other in ASPECTS}


def purchase_cost(ranks: Mapping[str, int], *, start: Mapping[str, int] | None = None) -> int:
    """Return the fewest language points that reach ``ranks`` ("Starting Languages").

    A new language costs 1 point at 0 ranks in every aspect; each further point raises one
    aspect by a rank (the others follow). ``start`` is what the character already has.
    """
    goal = tuple(_ranks(ranks).values())
    origin = tuple(_ranks(start).values()) if start is not None else (0,) * len(ASPECTS)
    if any(o > g for o, g in zip(origin, goal)):
        raise RulesError(_("Language points raise ranks; they cannot lower ranks already held."))
    raises = _fewest_raises(origin, goal)
    if raises is None:
        raise RulesError(_(
            "Those ranks cannot be bought: an aspect's pair partner is at most one rank lower and the "
            "other pair at most two lower than the best aspect bought."
        ))
    return raises + (1 if start is None else 0)


@functools.lru_cache(maxsize=4096)
def _fewest_raises(origin: tuple[int, ...], goal: tuple[int, ...]) -> int | None:
    """The fewest single raises from ``origin`` to ``goal`` (None: unreachable), searched breadth
    first. Kept per process: there are only (MAX_RANK + 1) ** 4 rank patterns, and a party's
    sheets ask the same few again and again."""
    seen, queue = {origin: 0}, deque([origin])
    while queue:
        here = queue.popleft()
        if here == goal:
            return seen[here]
        for aspect, value in zip(ASPECTS, here):
            if value < MAX_RANK:
                nxt = tuple(raise_aspect(dict(zip(ASPECTS, here)), aspect).values())
                if all(n <= g for n, g in zip(nxt, goal)) and nxt not in seen:
                    seen[nxt] = seen[here] + 1
                    queue.append(nxt)
    return None


@dataclass(frozen=True)
class LanguageBudget:
    """Free languages, language points and the native ranks a character starts with."""

    free_languages: int
    points: int
    native_ranks: dict[str, int]
    breakdown: list[tuple[str, int]]


def starting_language_budget(
    *, intelligence: int, lan: int, native_given_up: Mapping[str, int] | None = None
) -> LanguageBudget:
    """Return the starting languages a character may pick and pay for ("Starting Languages").

    One free language at 1 rank in one aspect per full 5 INT; points equal to LAN; and the
    native language at 3 ranks in every aspect, each rank given up worth 2 more points.
    """
    require_int(intelligence, "INT", minimum=0)
    require_int(lan, "LAN", minimum=0)
    given = _ranks(native_given_up or {})
    native = {aspect: MAX_RANK - given[aspect] for aspect in ASPECTS}
    free = intelligence // INT_PER_FREE_LANGUAGE
    from_native = POINTS_PER_NATIVE_RANK * sum(given.values())
    return LanguageBudget(
        free,
        lan + from_native,
        native,
        [
            ("INT", intelligence),
            (_("free languages: 1 per 5 INT"), free),
            ("LAN", lan),
            (_("native ranks given up"), sum(given.values())),
            (_("points from them, 2 each"), from_native),
            (_("language points"), lan + from_native),
        ],
    )


@dataclass(frozen=True)
class StartingLanguages:
    """A checked choice of starting languages: ranks by language and the points it uses."""

    languages: dict[str, dict[str, int]]
    points_spent: int
    points_left: int
    breakdown: list[tuple[str, int]]


def plan_starting_languages(
    *,
    intelligence: int,
    lan: int,
    native: str,
    native_given_up: Mapping[str, int] | None = None,
    free: Mapping[str, str] | None = None,
    bought: Mapping[str, Mapping[str, int]] | None = None,
) -> StartingLanguages:
    """Check and price a character's starting languages ("Starting Languages").

    Args:
        intelligence: INT. lan: LAN.
        native: The native language's name; it cannot be raised with points.
        native_given_up: Native ranks given up by aspect, for 2 points each.
        free: Free languages, name → the aspect that gets its 1 rank.
        bought: Final ranks wanted, name → {aspect: rank}; a free language may be improved.
    """
    budget = starting_language_budget(
        intelligence=intelligence, lan=lan, native_given_up=native_given_up
    )
    free, bought = dict(free or {}), dict(bought or {})
    if len(free) > budget.free_languages:
        raise RulesError(
            _("INT %(int)s allows %(allowed)s free languages, not %(picked)s.")
            % {"int": intelligence, "allowed": budget.free_languages, "picked": len(free)}
        )
    if native in free or native in bought:
        raise RulesError(
            _("%(native)s is the native language: it cannot be a free pick or bought with points.") % {"native": native}
        )
    languages = {native: budget.native_ranks}
    languages.update({name: aspects_from_purchase(aspect, 1) for name, aspect in free.items()})
    terms, spent = list(budget.breakdown), 0
    for name, ranks in bought.items():
        cost = purchase_cost(ranks, start=languages.get(name))
        languages[name] = _ranks(ranks)
        terms.append((f"{name}", cost))
        spent += cost
    if spent > budget.points:
        raise RulesError(
            _("These languages cost %(spent)s points; only %(available)s are available.")
            % {"spent": spent, "available": budget.points}
        )
    terms += [(_("points spent"), spent), (_("points left"), budget.points - spent)]
    return StartingLanguages(languages, spent, budget.points - spent, terms)


@dataclass(frozen=True)
class EffectiveRanks:
    """A language's ranks after era distance."""

    ranks: dict[str, int]
    era_loss: Fraction
    breakdown: list[tuple[str, int | Fraction]]


def effective_ranks(
    ranks: Mapping[str, int], era_steps_loss: Real | str | Sequence[Real | str]
) -> EffectiveRanks:
    """Return a language's ranks used in another era ("Languages", era steps).

    ``era_steps_loss`` is the GM's loss for each era step between the language's era and the
    one the character is in (0 to 0.5 each; one number is one step). Ranks round down, but an
    aspect held at 1 rank or more never drops below 1 through era distance.
    """
    steps = [era_steps_loss] if isinstance(era_steps_loss, (Real, str)) else list(era_steps_loss)
    losses = []
    for loss in steps:
        value = as_fraction(loss)
        if not 0 <= value <= ERA_STEP_MAX_LOSS:
            raise RulesError(_("Each era step removes 0 to 0.5 ranks, not %(loss)s.") % {"loss": repr(loss)})
        losses.append(value)
    total, held, terms = sum(losses, Fraction(0)), _ranks(ranks), []
    result = {}
    for aspect in ASPECTS:
        result[aspect] = max(math.floor(held[aspect] - total), min(held[aspect], 1))
        name = _(ASPECT_NAMES[aspect])
        terms += [
            (name, held[aspect]),
            (_("%(aspect)s after era loss, rounded down (min 1 if held)") % {"aspect": name}, result[aspect]),
        ]
    return EffectiveRanks(result, total, [(_("era steps"), len(losses)), (_("era loss"), -total), *terms])


def language_check_modifier(rank: int) -> int:
    """Return the target modifier of a language roll at ``rank`` ("In-game language usage")."""
    return CHECK_MODIFIERS[_rank(rank)]


def language_check_target(
    *, lan: int, rank: int, related_languages: int = 0, gm_modifier: int = 0
) -> CheckTarget:
    """Return the target of a language roll: a LAN check on 4d6 ("In-game language usage").

    Each related language the GM accepts adds +2, as a related skill does.
    """
    require_int(lan, "LAN")
    require_int(gm_modifier, gettext_noop("GM modifier"))
    modifier = language_check_modifier(rank)
    related = RELATED_LANGUAGE_BONUS * require_int(related_languages, "related_languages",
                                                   minimum=0)
    breakdown: list[BreakdownLine] = [
        ("LAN", lan),
        (_("%(ranks)s ranks (%(name)s)") % {"ranks": rank, "name": _(RANK_NAMES[rank])}, modifier),
        (_("related languages"), related),
        (_("GM modifier"), gm_modifier),
    ]
    return CheckTarget(lan + modifier + related + gm_modifier, breakdown, STAT_CHECK_DICE)


# --- Immersion ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImmersionProgress:
    """Where a character stands in picking up one language by immersion.

    ``ranks`` is None until the language is held at all. ``aspect`` is the aspect immersion
    raises (the others follow). ``era_gap`` is the ranks of era difference still to pay off.
    ``hours`` is the time logged toward the current interval.
    """

    ranks: dict[str, int] | None = None
    aspect: str = "spoken"
    era_gap: int = 0
    hours: Fraction = Fraction(0)
    related_languages: int = 0

    def __post_init__(self) -> None:
        if self.ranks is not None:
            object.__setattr__(self, "ranks", _ranks(self.ranks))
        _aspect(self.aspect)
        require_int(self.era_gap, "era_gap", minimum=0)
        require_int(self.related_languages, "related_languages", minimum=0)
        object.__setattr__(self, "hours", as_fraction(self.hours))
        if self.hours < 0:
            raise RulesError(_("Immersion hours cannot be negative."))

    @property
    def complete(self) -> bool:
        return self.ranks is not None and self.ranks[self.aspect] >= MAX_RANK and not self.era_gap

    def interval(self) -> tuple[str, int]:
        """Return what the current interval earns (words for people) and how many hours it takes."""
        if self.era_gap:
            return _("era adjustment"), ERA_GAP_HOURS_PER_RANK
        if self.ranks is None:
            return _("the language at 0 ranks"), IMMERSION_HOURS[None]
        rank = self.ranks[self.aspect]
        return (_("%(aspect)s rank %(rank)s") % {"aspect": _(ASPECT_NAMES[self.aspect]), "rank": rank + 1},
                IMMERSION_HOURS[rank])


@dataclass(frozen=True)
class ImmersionCheck:
    """The LAN check ending an immersion interval, ``at_hours`` into the span."""

    at_hours: Fraction
    purpose: str
    breakdown: list[tuple[str, int]]
    roll: CheckRoll
    success: bool


@dataclass(frozen=True)
class ImmersionResult:
    """The progress after a span of immersion and the checks made during it."""

    progress: ImmersionProgress
    checks: list[ImmersionCheck] = field(default_factory=list)


def immerse(
    progress: ImmersionProgress,
    *,
    hours: Real | str,
    lan: int,
    rng: random.Random | None = None,
    gm_modifier: int = 0,
) -> ImmersionResult:
    """Spend time immersed in a language ("In-game language acquisition & improvement").

    Each interval (3 h for the language at 0 ranks, then 6, 12 and 24 h for ranks 1–3) ends in
    a LAN check on 4d6; success gains the rank, failure restarts the interval. An era gap is
    paid off first, 6 h per rank, each ending in a LAN check at target modifier −15.
    """
    require_int(lan, "LAN")
    left = as_fraction(hours)
    if left < 0:
        raise RulesError(_("Immersion hours cannot be negative."))
    related = RELATED_LANGUAGE_BONUS * progress.related_languages
    spent, checks = Fraction(0), []
    while not progress.complete:
        purpose, length = progress.interval()
        need = length - progress.hours
        if left < need:
            progress = replace(progress, hours=progress.hours + left)
            break
        left, spent = left - need, spent + need
        era = bool(progress.era_gap)  # the interval pays off the era gap (``interval``)
        modifier = ERA_GAP_CHECK_MODIFIER if era else 0
        target = lan + modifier + related + gm_modifier
        roll = roll_check(target, dice=STAT_CHECK_DICE, rng=rng)
        checks.append(
            ImmersionCheck(
                spent,
                purpose,
                [
                    ("LAN", lan),
                    (_("era adjustment (LAN check at +15)") if era else _("immersion"), modifier),
                    (_("related languages"), related),
                    (_("GM modifier"), gm_modifier),
                    *target_terms(target, 4),
                ],
                roll,
                roll.success,
            )
        )
        progress = replace(progress, hours=Fraction(0))
        if not roll.success:
            continue
        if era:
            progress = replace(progress, era_gap=progress.era_gap - 1)
        elif progress.ranks is None:
            progress = replace(progress, ranks=aspects_from_purchase(progress.aspect, 0))
        else:
            progress = replace(progress, ranks=raise_aspect(progress.ranks, progress.aspect))
    return ImmersionResult(progress, checks)


# --- Spot / listen --------------------------------------------------------------------------


def spot_check_target(
    awa: int, range_size_modifier: int = 0, actively_looking: int = 0, gm_modifier: int = 0
) -> CheckTarget:
    """Return the target of a spot or listen check: an AWA check on 4d6 ("Spot/Listen Checks").

    Unlike most checks the range/size modifier applies; watching out for something actively
    adds up to +5, as the GM allows.
    """
    require_int(awa, "AWA")
    require_int(range_size_modifier, "range_size_modifier")
    require_int(gm_modifier, gettext_noop("GM modifier"))
    if require_int(actively_looking, "actively_looking", minimum=0) > ACTIVELY_LOOKING_MAX:
        raise RulesError(
            _("Actively looking adds 0 to %(max)s, not %(looking)s.")
            % {"max": ACTIVELY_LOOKING_MAX, "looking": actively_looking}
        )
    breakdown: list[BreakdownLine] = [
        ("AWA", awa),
        (_("range and size"), range_size_modifier),
        (_("actively looking"), actively_looking),
        (_("GM modifier"), gm_modifier),
    ]
    total = awa + range_size_modifier + actively_looking + gm_modifier
    return CheckTarget(total, breakdown, STAT_CHECK_DICE)
