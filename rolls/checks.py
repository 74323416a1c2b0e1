"""The check builder's reads: what is rolled (a sheet line, the party's collective stat, or a
target the GM names), with every term of the situation, and its exact odds.

Nothing here writes; ``services.sheet_roll`` and ``services.built_roll`` roll what this builds.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from django.utils.translation import gettext as _

from campaign.errors import CampaignError
from campaign.models import Campaign
from characters.models import Character
from characters.selectors import SHEET_PREFETCH
from characters.sheet import current_stats, line_check
from rulebook import RulesError
from rulebook.dice import check_odds, extra_benefit_limit, extra_benefit_odds
from rulebook.situation import (
    LineFacts,
    Situation,
    SituationError,
    best_assistance,
    shared_load_term,
    situation_terms,
)
from rulebook.skills import eventual_success
from rulebook.stats import PRIMARY_STATS, SKILL_CHECK_DICE, STAT_CHECK_DICE, stat_check_target
from rulebook.words import Said, said

#: Modifiers beyond this are a typo, not a situation.
MODIFIER_LIMIT = 50
#: The most further relevant or indirectly related skills a check counts.
COUNT_LIMIT = 20
#: A target the GM names for a check no sheet holds (an NPC's, a trap's).
BARE_TARGET_LIMIT = 60
#: Stats the party checks together ("Initiative & Surprise": the collective AWA).
PARTY_STATS = PRIMARY_STATS


@dataclass(frozen=True)
class Built:
    """A check ready to roll: its label, target with every term, dice, and what it rests on."""

    label: str | Said  # the app's labels are Saids: each reader reads them in their language
    target: int
    dice: int
    breakdown: list
    check: str = ""  # what is checked, for the feed: "AWA", "Lockpicking", "collective AWA"
    line: str = ""  # "stat:AWA", "skill:12", "party:AWA", "" for a bare target
    character: Character | None = None
    situation: Situation = field(default_factory=Situation)
    kind: str = "bare"  # stat, skill, weapon, language, party or bare: which terms the form offers
    stat: str = ""
    proficient: bool = True

    @property
    def extra_limit(self) -> int:
        """Extra-benefit dice the roller may ask for: only when the check cannot fail."""
        return extra_benefit_limit(self.target, self.dice)

    def odds(self, extra: int = 0):
        try:
            return extra_benefit_odds(self.target, self.dice, extra) if extra else check_odds(self.target, self.dice)
        except RulesError as exc:
            raise CampaignError(str(exc), field="extra" if extra else "modifier") from None


def check_counts(situation: Situation) -> None:
    """Refuse numbers no table needs, before any rule reads them."""
    modifier = situation.modifier
    if isinstance(modifier, bool) or not isinstance(modifier, int) or abs(modifier) > MODIFIER_LIMIT:
        raise CampaignError(_("The modifier is a whole number from −%(limit)s to +%(limit)s.")
                            % {"limit": MODIFIER_LIMIT}, field="modifier")
    for name in ("relevant", "indirect"):
        count = getattr(situation, name)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= COUNT_LIMIT:
            raise CampaignError(_("Count the skills as a whole number from 0 to %(most)s.") % {"most": COUNT_LIMIT},
                                field=name)


def _terms(situation: Situation, facts: LineFacts) -> list:
    check_counts(situation)
    try:
        return situation_terms(situation, facts)
    except SituationError as exc:
        raise CampaignError(str(exc), field=exc.field) from None
    except RulesError as exc:
        raise CampaignError(str(exc), field="modifier") from None


def line_built(character: Character, line: str, situation: Situation = Situation()) -> Built:
    """One line of a sheet loaded with its lines (``character_with_sheet``), in this situation.

    Raises:
        CampaignError: a line the sheet does not have, or a term that does not fit the check.
    """
    check = line_check(character, line)
    if check is None:
        raise CampaignError(_("%(name)s's sheet has no line %(line)s to roll.")
                            % {"name": character.name, "line": repr(line)}, field="line")
    facts = LineFacts(kind=check.kind, proficient=check.proficient, stat=check.stat, level=check.level,
                      strength=current_stats(character)["STR"], aiming=check.aiming)
    terms = _terms(situation, facts)
    return Built(label=said("%(name)s: %(check)s check", name=character.name, check=check.label), target=check.target + sum(v for _, v in terms),
                 dice=check.dice, breakdown=[*check.breakdown, *terms], check=check.label, line=line,
                 character=character, situation=situation, kind=check.kind, stat=check.stat, proficient=check.proficient)


def party(campaign: Campaign) -> list[Character]:
    """The characters in play, loaded to read their stats as they are now."""
    return list(Character.objects.filter(campaign=campaign, state=Character.State.ACTIVE)
                .prefetch_related(*SHEET_PREFETCH).order_by("name", "pk"))


def party_built(campaign: Campaign, stat: str, situation: Situation = Situation()) -> Built:
    """The party's collective stat ("Initiative & Surprise": the GM knows the party's collective
    AWA "using the Assistance rules"): the best of them leads, the rest assist, a point of the
    stat being a level, and the GM's secret check is a stat check against it.

    Raises:
        CampaignError: an unknown stat, an empty party, or a term that does not fit.
    """
    if stat not in PARTY_STATS:
        raise CampaignError(_("The party checks one of %(stats)s, not %(stat)s.")
                            % {"stats": ", ".join(PARTY_STATS), "stat": repr(stat)}, field="line")
    characters = party(campaign)
    members = [(current_stats(c)[stat], c.name) for c in characters]
    if not members:
        raise CampaignError(_("No character is in play to check."), field="line")
    members.sort(key=lambda m: -m[0])
    (lead, lead_name), others = members[0], members[1:]
    breakdown = [(_("%(name)s's %(stat)s, the party's best") % {"name": lead_name, "stat": stat}, lead)]
    if others:
        breakdown += best_assistance(lead, tuple(value for value, _ in others))[1]
    if situation.assistants:
        raise CampaignError(_("The party's own members are its assistants."), field="assistants")
    if situation.load_kg is not None:  # the party shares it: the most burdened sets the pace ("Loads")
        try:
            breakdown.append(shared_load_term(situation.load_kg, situation.load_kind,
                                              {c.name: current_stats(c)["STR"] for c in characters}, situation.bearers))
        except SituationError as exc:
            raise CampaignError(str(exc), field=exc.field) from None
        terms = _terms(replace(situation, load_kg=None), LineFacts(kind="stat", stat=stat, level=lead))
    else:
        terms = _terms(situation, LineFacts(kind="stat", stat=stat, level=lead))
    breakdown += terms
    base = stat_check_target(sum(v for _, v in breakdown))
    return Built(label=said("Party: collective %(stat)s check", stat=stat), target=base.total, dice=STAT_CHECK_DICE,
                 breakdown=breakdown, check=f"collective {stat}", line=f"party:{stat}", situation=situation,
                 kind="party", stat=stat)


def bare_built(target: int, dice: int, label: str, situation: Situation = Situation(),
               strength: int | None = None) -> Built:
    """A check no sheet holds: the GM names its target and dice (3 for a skill, 4 for a stat), and
    for a load the STR that carries it (a vehicle's STR is its carrying capacity, "Loads")."""
    if isinstance(target, bool) or not isinstance(target, int) or not -BARE_TARGET_LIMIT <= target <= BARE_TARGET_LIMIT:
        raise CampaignError(_("The target is a whole number from −%(limit)s to %(limit)s.")
                            % {"limit": BARE_TARGET_LIMIT}, field="target")
    if dice not in (SKILL_CHECK_DICE, STAT_CHECK_DICE):
        raise CampaignError(_("A check rolls 3d6 (skill) or 4d6 (stat)."), field="dice_count")
    kind = "skill" if dice == SKILL_CHECK_DICE else "stat"
    if strength is not None and (isinstance(strength, bool) or not isinstance(strength, int)
                                 or not 0 <= strength <= 200):
        raise CampaignError(_("A STR is a whole number from 0 to 200."), field="strength")
    terms = _terms(situation, LineFacts(kind=kind, level=0, strength=strength))
    return Built(label=label or said("Check against %(target)s", target=target), target=target + sum(v for _, v in terms), dice=dice,
                 breakdown=[(_("target named by the GM"), target), *terms], check=label or f"target {target}",
                 situation=situation)


@dataclass(frozen=True)
class EventualTime:
    """How long a sure success took, from the check's margin ("Eventual Success")."""

    margin: int
    desired: int
    index: int
    multiplier: Fraction
    normal: Fraction
    unit: str

    @property
    def taken(self) -> Fraction:
        return self.normal * self.multiplier

    def text(self) -> str:
        if self.multiplier == 0:
            return f"under a tenth of {float(self.normal):g} {self.unit}"
        return f"{float(self.taken):.3g} {self.unit} (×{float(self.multiplier):g} of {float(self.normal):g})"

    def plain(self) -> dict:
        return {"margin": self.margin, "desired": self.desired, "index": self.index,
                "multiplier": f"{self.multiplier.numerator}/{self.multiplier.denominator}",
                "normal": str(self.normal), "unit": self.unit, "text": self.text()}


def eventual_time(margin: int, *, desired: int, normal, unit: str) -> EventualTime:
    result = eventual_success(margin, desired)
    return EventualTime(margin, desired, result.time_index, result.multiplier, Fraction(normal), unit)


def subject_built(campaign: Campaign, members: list[Character], subject: str, situation: Situation = Situation(),
                  *, target: int = 10, dice: int = 3, label: str = "", strength: int | None = None) -> Built:
    """The check the builder's ``subject`` names: "party:<STAT>", "bare" (``target`` on ``dice``
    d6) or "<character id>/<line>" of a character in ``members``.

    Raises:
        CampaignError: a subject that names nothing in play, or a term that does not fit.
    """
    if subject.startswith("party:"):
        return party_built(campaign, subject.split(":", 1)[1], situation)
    if subject == "bare":
        return bare_built(target, dice, label, situation, strength)
    owner, _slash, line = subject.partition("/")
    character = next((c for c in members if str(c.pk) == owner), None)
    if character is None:
        raise CampaignError(_("Name a character in play: <character id>/<line>, party:<STAT> or bare."),
                            field="subject")
    return line_built(character, line, situation)
