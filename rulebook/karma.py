"""Karma: disadvantages and their limits, Karmic Debt and Starvation, and spending Karma.

Article: "Disadvantages", "Karma Limits", "Removing/Reducing Disadvantages", "Karmic Debt",
"Karmic Starvation", "Other Uses For Karma". RULINGS.md sections 3 and 4. Earning Karma
(Experience) and Campaign MacGuffin pools are in rulebook.experience.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from rulebook import RulesError
from rulebook._numbers import ceil_div, require_int
from rulebook.stats import SKILL_POINTS_PER_KARMA, STAT_MAX, STAT_MIN, BreakdownLine
from rulebook.tables import time_index as _time_index
from rulebook.words import gettext as _
from rulebook.words import gettext_noop, ngettext

# --- Disadvantages ------------------------------------------------------------------------
#: Breadth values of a disadvantage's first rank: specific 1, narrow 2, broad 4.
DISADVANTAGE_VALUES = (1, 2, 4)
#: Each rank of a disadvantage is this much off the checks it affects.
DISADVANTAGE_RANK_PENALTY = 2


@dataclass(frozen=True)
class Disadvantage:
    """A disadvantage on a sheet: its name, breadth value (1, 2 or 4) and ranks."""

    name: str
    value: int
    ranks: int

    @property
    def points(self) -> int:
        """Return the skill points all its ranks are worth ("Disadvantages")."""
        return disadvantage_points(self.value, self.ranks)


def _check_value(value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in DISADVANTAGE_VALUES:
        raise RulesError(
            _("A disadvantage is worth 1, 2 or 4 points for its first rank, not %(value)s.") % {"value": repr(value)}
        )
    return value


def disadvantage_points(value: int, ranks: int) -> int:
    """Return the points a disadvantage's ranks give ("Disadvantages").

    Rank r is worth max(value − (r − 1), 1): a 4-point disadvantage gives 4, 3, 2, 1, 1, ….
    """
    _check_value(value)
    require_int(ranks, gettext_noop("Disadvantage ranks"), minimum=0)
    return sum(max(value - (rank - 1), 1) for rank in range(1, ranks + 1))


def disadvantage_check_modifier(ranks: int) -> int:
    """Return a disadvantage's target modifier on the checks it affects ("Disadvantages").

    Each rank counts as two negative ranks: −2 per rank.
    """
    require_int(ranks, gettext_noop("Disadvantage ranks"), minimum=0)
    return -DISADVANTAGE_RANK_PENALTY * ranks


def max_disadvantage_ranks(starting_karma: int) -> int:
    """Return the rank limit of any one disadvantage: ⌈starting Karma / 3⌉ ("Karma Limits")."""
    require_int(starting_karma, gettext_noop("Starting Karma"), minimum=0)
    return ceil_div(starting_karma, 3)


def _as_disadvantage(item: Disadvantage | Mapping) -> Disadvantage:
    if isinstance(item, Disadvantage):
        entry = item
    elif isinstance(item, Mapping):
        try:
            entry = Disadvantage(str(item["name"]), item["value"], item["ranks"])
        except KeyError as missing:
            raise RulesError(
                _("A disadvantage needs a name, value and ranks; %(missing)s is missing.") % {"missing": missing}
            ) from None
    else:
        raise RulesError(_("Not a disadvantage: %(item)s.") % {"item": repr(item)})
    _check_value(entry.value)
    require_int(entry.ranks, _("Ranks of %(name)s") % {"name": entry.name}, minimum=0)
    return entry


@dataclass(frozen=True)
class DisadvantageStanding:
    """One disadvantage measured against the Karma limits."""

    name: str
    value: int
    ranks: int
    points: int
    excess_ranks: int
    earning: bool
    points_earned: int


@dataclass(frozen=True)
class KarmicDebt:
    """Where a sheet's disadvantages stand against the Karma limits, and what must happen."""

    rank_limit: int
    earning_limit: int
    standings: list[DisadvantageStanding]
    points_earned: int
    debt_ranks: int
    worsen_capacity: int
    stat_points_lost: int
    actions: list[str]

    @property
    def in_debt(self) -> bool:
        """Return True when some ranks are over the limits and a Complication is due."""
        return self.debt_ranks > 0


def karmic_debt(disadvantages: Iterable[Disadvantage | Mapping], *, current_karma: int,
                starting_karma: int) -> KarmicDebt:
    """Measure disadvantages against the Karma limits ("Karma Limits", "Karmic Debt").

    Ranks over ⌈starting Karma / 3⌉ earn nothing. Only as many disadvantages as the current
    Karma earn points; the most valuable ones earn (ties: sheet order). Every rank that earns
    nothing is Karmic Debt: the player reduces it or takes a Complication of that many ranks,
    which worsens the other earning disadvantages one rank per rank up to the rank limit; what
    does not fit comes off a stat, one point per rank.

    Args:
        disadvantages: ``Disadvantage`` objects or mappings with name, value and ranks.
        current_karma: the Karma balance now.
        starting_karma: the character's starting Karma (sets the rank limit).
    """
    require_int(current_karma, gettext_noop("Current Karma"), minimum=0)
    entries = [_as_disadvantage(item) for item in disadvantages]
    rank_limit = max_disadvantage_ranks(starting_karma)
    capped = [disadvantage_points(d.value, min(d.ranks, rank_limit)) for d in entries]
    # The player keeps the most valuable disadvantages earning; sorted() is stable for ties.
    by_value = sorted((i for i, d in enumerate(entries) if d.ranks),
                      key=lambda i: -capped[i])
    earning = set(by_value[:current_karma])
    standings, actions = [], []
    debt_ranks = worsen_capacity = 0
    for i, d in enumerate(entries):
        excess = max(d.ranks - rank_limit, 0)
        earns = i in earning
        standings.append(DisadvantageStanding(
            name=d.name, value=d.value, ranks=d.ranks, points=d.points, excess_ranks=excess,
            earning=earns, points_earned=capped[i] if earns else 0,
        ))
        if not earns and d.ranks:
            debt_ranks += d.ranks
            actions.append(
                _("Karmic Debt: %(name)s earns nothing with %(karma)s Karma; reduce it or take a Complication of "
                  "%(ranks)s rank(s).") % {"name": d.name, "karma": current_karma, "ranks": d.ranks}
            )
        elif excess:
            debt_ranks += excess
            actions.append(
                _("Karmic Debt: %(name)s has %(ranks)s ranks, %(excess)s over the limit of %(limit)s; reduce it or "
                  "take a Complication of %(excess)s rank(s).")
                % {"name": d.name, "ranks": d.ranks, "excess": excess, "limit": rank_limit}
            )
        if earns:
            worsen_capacity += max(rank_limit - d.ranks, 0)
    stat_points_lost = max(debt_ranks - worsen_capacity, 0)
    if stat_points_lost:
        actions.append(
            _("A Complication can worsen other disadvantages by only %(ranks)s rank(s); the other %(lost)s come "
              "off stats (not Karma), 1 point per rank, in play.")
            % {"ranks": worsen_capacity, "lost": stat_points_lost}
        )
    return KarmicDebt(
        rank_limit=rank_limit,
        earning_limit=current_karma,
        standings=standings,
        points_earned=sum(s.points_earned for s in standings),
        debt_ranks=debt_ranks,
        worsen_capacity=worsen_capacity,
        stat_points_lost=stat_points_lost,
        actions=actions,
    )


@dataclass(frozen=True)
class KarmicStarvation:
    """Skill points spent against what the sheet can pay for ("Karmic Starvation")."""

    spent: int
    available: int
    shortfall: int
    complication_ranks: int

    @property
    def starving(self) -> bool:
        """Return True when more is spent than available and a Complication is due."""
        return self.shortfall > 0


#: A Complication against Karmic Starvation frees this many spent skill points per rank.
SKILL_POINTS_PER_COMPLICATION_RANK = 2


def karmic_starvation(spent: int, available: int) -> KarmicStarvation:
    """Detect Karmic Starvation: more skill points spent than available ("Karmic Starvation").

    The Complication it mandates needs ⌈shortfall / 2⌉ ranks, each freeing 2 spent points.
    """
    require_int(spent, gettext_noop("Skill points spent"), minimum=0)
    require_int(available, gettext_noop("Skill points available"))
    shortfall = max(spent - available, 0)
    return KarmicStarvation(
        spent=spent,
        available=available,
        shortfall=shortfall,
        complication_ranks=ceil_div(shortfall, SKILL_POINTS_PER_COMPLICATION_RANK),
    )


# --- Spending Karma -------------------------------------------------------------------------
REROLL_COST = 1
ASSIST_COST = 1
ASSIST_BONUS = 5
DISADVANTAGE_RANK_REMOVAL_COST = 1
#: Stat raises cost this while the stat is at most STAT_RAISE_THRESHOLD before the raise.
STAT_RAISE_BASE_COST = 2
STAT_RAISE_THRESHOLD = 25
STAT_RAISE_STEP = 5
#: The three campaign upgrades that must be in effect before a Zener Transition can be delayed
#: (their names marked for the catalogue: translated where shown).
DELAY_TRANSITION_UPGRADES: dict[str, str] = {
    "enlarged_meitner_field": gettext_noop("enlarged Meitner field"),
    "limited_comms": gettext_noop("limited comms to Zener Command"),
    "transition_threshold_detection": gettext_noop("Zener Transition threshold detection"),
}


def stat_raise_cost(current: int) -> int:
    """Return the Karma for +1 to a stat now at ``current`` ("Other Uses For Karma").

    2 while the stat is 25 or less; 4 once it is over 25; 8 over 30; doubling each +5.
    """
    require_int(current, gettext_noop("The stat"), minimum=STAT_MIN)
    if current <= STAT_RAISE_THRESHOLD:
        return STAT_RAISE_BASE_COST
    doublings = ceil_div(current - STAT_RAISE_THRESHOLD, STAT_RAISE_STEP)
    return STAT_RAISE_BASE_COST * 2**doublings


@dataclass(frozen=True)
class KarmaSpend:
    """What a Karma spend costs, with its breakdown and what it buys."""

    kind: str
    cost: int
    breakdown: list[BreakdownLine]
    effect: str
    skill_points_gained: int = 0
    disadvantage_points_lost: int = 0
    roll_bonus: int = 0


def _reroll() -> KarmaSpend:
    return KarmaSpend("reroll", REROLL_COST, [(_("reroll a failed roll"), REROLL_COST)],
                      _("reroll one failed roll"))


def _assist() -> KarmaSpend:
    return KarmaSpend("assist", ASSIST_COST, [(_("help another character"), ASSIST_COST)],
                      _("+%(bonus)s to another character's mission-critical roll") % {"bonus": ASSIST_BONUS},
                      roll_bonus=ASSIST_BONUS)


def _skill_points(*, amount: int) -> KarmaSpend:
    require_int(amount, gettext_noop("Karma to convert"), minimum=1)
    gained = SKILL_POINTS_PER_KARMA * amount
    return KarmaSpend("skill_points", amount,
                      [(_("%(karma)s Karma → %(points)s skill points") % {"karma": amount, "points": gained}, amount)],
                      _("%(points)s skill points") % {"points": gained}, skill_points_gained=gained)


def _stat_raise(*, current: int, points: int = 1) -> KarmaSpend:
    require_int(current, gettext_noop("The stat"), minimum=STAT_MIN, maximum=STAT_MAX)
    require_int(points, gettext_noop("Points to raise"), minimum=1)
    if current + points > STAT_MAX:
        raise RulesError(_("A stat of %(stat)s cannot rise by %(points)s: stats stop at %(max)s.")
                         % {"stat": current, "points": points, "max": STAT_MAX})
    breakdown: list[BreakdownLine] = [
        (_("stat %(value)s → %(raised)s") % {"value": value, "raised": value + 1}, stat_raise_cost(value))
        for value in range(current, current + points)
    ]
    return KarmaSpend("stat_raise", sum(v for _term, v in breakdown), breakdown,
                      _("stat %(value)s → %(raised)s") % {"value": current, "raised": current + points})


def _disadvantage_removal(*, ranks: int = 1, removed_this_adventure: int = 0,
                          gm_override: bool = False, current_ranks: int | None = None,
                          value: int | None = None) -> KarmaSpend:
    require_int(ranks, gettext_noop("Ranks to remove"), minimum=1)
    require_int(removed_this_adventure, gettext_noop("Ranks already removed this adventure"), minimum=0)
    if ranks + removed_this_adventure > 1 and not gm_override:
        raise RulesError(_(
            "Only one rank of a disadvantage can be removed per adventure, unless the GM "
            "allows more."
        ))
    lost = 0
    if current_ranks is not None:
        require_int(current_ranks, gettext_noop("Current ranks"), minimum=0)
        if ranks > current_ranks:
            raise RulesError(_("The disadvantage has only %(ranks)s rank(s) to remove.") % {"ranks": current_ranks})
        if value is not None:
            # Ranks come off the top, which are the cheapest ones.
            lost = disadvantage_points(value, current_ranks) - disadvantage_points(
                value, current_ranks - ranks)
    cost = DISADVANTAGE_RANK_REMOVAL_COST * ranks
    return KarmaSpend("disadvantage_removal", cost, [(_("remove %(ranks)s rank(s)") % {"ranks": ranks}, cost)],
                      _("%(ranks)s disadvantage rank(s) removed") % {"ranks": ranks}, disadvantage_points_lost=lost)


def _good_fortune(*, cost: int) -> KarmaSpend:
    require_int(cost, gettext_noop("The cost of the stroke of good fortune (set by the GM)"), minimum=1)
    return KarmaSpend("good_fortune", cost,
                      [(_("stroke of good fortune (%(rolls)s successful roll(s) replaced)") % {"rolls": cost}, cost)],
                      _("a stroke of good fortune"))


def _delay_transition(*, upgrades: Iterable[str], time_index: int | None = None,
                      ratio: object = None) -> KarmaSpend:
    in_effect = set(upgrades)
    missing = [_(label) for key, label in DELAY_TRANSITION_UPGRADES.items() if key not in in_effect]
    if missing:
        raise RulesError(_("A Zener Transition can be delayed only once these upgrades are in effect; still "
                           "missing: %(missing)s.") % {"missing": ", ".join(missing)})
    if (time_index is None) == (ratio is None):
        raise RulesError(_("Give the delay either as a time-chart index or as a ratio, not both."))
    if ratio is not None:
        try:
            time_index = _time_index(ratio)
        except (TypeError, ValueError, ZeroDivisionError):
            raise RulesError(_("The delay ratio must be a number, not %(ratio)s.") % {"ratio": repr(ratio)}) from None
    require_int(time_index, gettext_noop("The delay's time-chart index"), minimum=1)
    return KarmaSpend("delay_transition", time_index,
                      [(_("delay of time-chart index %(index)s") % {"index": time_index}, time_index)],
                      _("the next Zener Transition waits until the adventure is done"))


def _setback_payoff(*, setback: int, points: int = 1) -> KarmaSpend:
    # *Reading:* a setback is a disadvantage worth "negative Karma", so each point is paid off
    # like a disadvantage rank: 1 Karma, when the GM deems it appropriate.
    require_int(setback, gettext_noop("The setback"), minimum=0)
    require_int(points, gettext_noop("Points to pay off"), minimum=1)
    if points > setback:
        raise RulesError(ngettext("Only %(left)s point of that setback are left to pay off.",
                                  "Only %(left)s points of that setback are left to pay off.", setback)
                         % {"left": setback})
    return KarmaSpend("setback_payoff", points, [(_("setback points paid off, 1 Karma each"), points)],
                      ngettext("%(points)s point of a Complication's stat loss restored",
                               "%(points)s points of a Complication's stat loss restored", points) % {"points": points})


def _macguffin(*, amount: int) -> KarmaSpend:
    require_int(amount, gettext_noop("The contribution"), minimum=1)
    return KarmaSpend("macguffin", amount, [(_("Campaign MacGuffin contribution"), amount)],
                      _("%(amount)s toward a Campaign MacGuffin, in effect from the next adventure")
                      % {"amount": amount})


_SPENDS: dict[str, Callable[..., KarmaSpend]] = {
    "reroll": _reroll,
    "assist": _assist,
    "skill_points": _skill_points,
    "stat_raise": _stat_raise,
    "disadvantage_removal": _disadvantage_removal,
    "good_fortune": _good_fortune,
    "delay_transition": _delay_transition,
    "setback_payoff": _setback_payoff,
    "macguffin": _macguffin,
}
SPEND_KINDS: tuple[str, ...] = tuple(_SPENDS)


def spend_cost(kind: str, *, available: int | None = None, **params: object) -> KarmaSpend:
    """Price a Karma spend of any kind ("Other Uses For Karma", "Removing/Reducing Disadvantages").

    Kinds and their parameters:
        reroll: 1 Karma. assist: 1 Karma, +5 to another's mission-critical roll.
        skill_points (amount): amount Karma, 2 skill points each.
        stat_raise (current, points=1): ``stat_raise_cost`` per point.
        disadvantage_removal (ranks=1, removed_this_adventure=0, gm_override=False,
            current_ranks=None, value=None): 1 Karma per rank, one rank per disadvantage per
            adventure unless the GM overrides; with current ranks and value, the points lost.
        good_fortune (cost): the GM's count of successful rolls replaced, at least 1.
        delay_transition (upgrades, time_index or ratio): the delay's time-chart index;
            only with all three DELAY_TRANSITION_UPGRADES in effect.
        setback_payoff (setback, points=1): 1 Karma per point of a Complication's stat loss.
        macguffin (amount): the contribution.

    Args:
        available: the Karma balance; when given, a spend it cannot cover is refused.

    Raises:
        RulesError: for an unknown kind, wrong parameters, or a spend the rules refuse.
    """
    try:
        handler = _SPENDS[kind]
    except (KeyError, TypeError):
        raise RulesError(
            _("Unknown Karma spend %(kind)s: use one of %(kinds)s.")
            % {"kind": repr(kind), "kinds": ", ".join(SPEND_KINDS)}
        ) from None
    signature = inspect.signature(handler)
    try:
        signature.bind(**params)
    except TypeError:
        expected = ", ".join(signature.parameters) or _("no parameters")
        raise RulesError(
            _("A %(kind)s spend takes %(expected)s; got %(got)s.")
            % {"kind": kind, "expected": expected, "got": ", ".join(params) or _("none")}
        ) from None
    spend = handler(**params)
    if available is not None:
        require_int(available, gettext_noop("Available Karma"), minimum=0)
        if spend.cost > available:
            raise RulesError(_("This costs %(cost)s Karma and only %(available)s is available.")
                             % {"cost": spend.cost, "available": available})
    return spend
