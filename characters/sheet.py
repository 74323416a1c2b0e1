"""Everything a sheet shows that the rules compute: derived stats, budget, targets and odds.

Reads only: takes a character whose sheet lines are already loaded (see
``selectors.character_with_sheet``) and asks the rulebook. Nothing here queries the database,
so a sheet costs the same number of queries whatever it holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rulebook import RulesError
from rulebook.budget import Budget, PricedItem, SkillLike, character_budget
from rulebook.dice import check_odds
from rulebook.drugs import DrugEffect
from rulebook.equipment import armour_cost, armour_effects, armour_rating, weapon_cost
from rulebook.karma import Disadvantage as RulesDisadvantage
from rulebook.karma import max_disadvantage_ranks
from rulebook.languages import (
    ASPECTS,
    ImmersionProgress,
    aspects_from_purchase,
    effective_ranks,
    language_check_target,
    purchase_cost,
    starting_language_budget,
)
from rulebook.languages import MAX_RANK as MAX_LANGUAGE_RANK
from rulebook.skills import skill_check_target
from rulebook.stats import (
    PRIMARY_STATS,
    DerivedStats,
    derived_stats,
    effective_dex,
    starting_karma_breakdown,
    stat_check_target,
)

from zenergate_site.numbers import percent as percent_text

from .models import Character, Language

#: A language's aspects, as a sentence names them.
ASPECT_WORDS = {"spoken": gettext_lazy("spoken"), "heard": gettext_lazy("heard"), "written": gettext_lazy("written"),
                "read": gettext_lazy("read")}


def generation_stats(character: Character) -> dict[str, int]:
    """Return the stats as they stand at generation: the sheet values less any Karma raises."""
    stats = character.stat_values()
    for stat, raised in (character.stat_raises or {}).items():
        stats[stat] -= raised
    for stat, lost in (character.stat_setbacks or {}).items():
        stats[stat] += lost
    return stats


def derived(character: Character) -> DerivedStats:
    return derived_stats(generation_stats(character), (character.int_plus_d6, character.int_minus_d6))


def derived_values(character: Character) -> dict[str, tuple[int, list, bool]]:
    """Return DEX, INT, HP, SHK and END as (value, breakdown, frozen), with no query.

    Before approval the values follow the stats; from approval INT, HP, SHK and END are the
    frozen ones (DEX always follows the current NIM and rolled DEX).
    """
    d = derived(character)
    frozen = {"INT": character.intelligence, "HP": character.hit_points,
              "SHK": character.shock_threshold, "END": character.endurance_max}
    values = {}
    for code in ("DEX", "INT", "HP", "SHK", "END"):
        computed = d[code]
        is_frozen = frozen.get(code) is not None
        values[code] = (frozen[code] if is_frozen else computed.total,
                        [(k, int(v)) for k, v in computed.breakdown], is_frozen)
    return values


def starting_karma(character: Character):
    """Return the starting Karma with its breakdown (frozen at approval, computed before)."""
    return starting_karma_breakdown(generation_stats(character), len(character.karma_swaps or []))


def worn_armour_rating(character: Character) -> tuple[int, int, str]:
    """Return (armour type, tech shift, name) of the best armour worn; (0, 0, "no armour") if none."""
    best = (0, 0, _("no armour"))
    for armour in character.armour.all():
        if armour.worn and armour.fate != "consumed":  # used-up armour protects no one
            rating = armour_rating(armour.hardness, armour.coverage)
            if rating >= best[0]:
                best = (rating, armour.tech_shift, armour.name)
    return best


def stat_terms(character: Character) -> dict[str, list[tuple[str, int]]]:
    """Return each stat as it is in play, term by term: sheet value, effective DEX, worn armour,
    stat damage, radiation loss and drugs in force ("Stats", "Other Armour Effects", "Damage &
    Recovery", "Radiation Damage", "Other Drugs and Medications").

    Armour type 0 (none) costs 4 RES: RES is rated for the heaviest armour ("Stats", RES).
    """
    sheet = character.stat_values()
    terms = {code: [(_("%(stat)s on the sheet") % {"stat": code}, sheet[code])] for code in PRIMARY_STATS}
    dex = effective_dex(sheet["DEX"], sheet["NIM"])
    terms["DEX"] = [(_("DEX: ⌈(rolled %(dex)s + NIM %(nim)s) / 2⌉") % {"dex": sheet["DEX"], "nim": sheet["NIM"]}, dex)]
    armour_type, tech_shift, name = worn_armour_rating(character)
    for code, penalty in armour_effects(armour_type, tech_shift).items():
        if penalty:
            terms[code].append((_("%(armour)s (armour type %(type)s)") % {"armour": name, "type": armour_type}, penalty))
    for code, damage in (character.stat_damage or {}).items():
        if code in terms and damage:
            terms[code].append((_("stat damage"), -damage))
    radiation = dict((character.radiation_track or {}).get("damage") or {})
    radiation.setdefault("CON", character.long_term_con_damage)
    for code, loss in radiation.items():
        if code in terms and loss:
            terms[code].append((_("radiation (long-term %(stat)s loss)") % {"stat": code}, -loss))
    for effect in (character.wounds_detail or {}).get("effects", []):
        drug = DrugEffect.from_dict(effect)
        for code, change in drug.stat_changes.items():
            said = _("%(drug)s (the shakes)") if drug.phase == "shakes" else _("%(drug)s (boost)")
            terms[code].append((said % {"drug": drug.name}, change))
    return terms


def current_stats(character: Character) -> dict[str, int]:
    """Return each stat as it is in play (see ``stat_terms`` for the terms)."""
    return {code: sum(v for _, v in parts) for code, parts in stat_terms(character).items()}


def intelligence_value(character: Character) -> int:
    return character.intelligence if character.intelligence is not None else derived(character).intelligence.total


def karma_for_limits(character: Character) -> tuple[int, int]:
    """Return (current, starting) Karma for the Karma limits; before approval both are starting Karma."""
    start = character.starting_karma if character.starting_karma is not None else starting_karma(character).total
    current = character.karma if character.state not in (Character.State.DRAFT, Character.State.SUBMITTED) else start
    return current, start


def weapon_price(weapon) -> int:
    """A weapon's cost in skill points. Linked to one of the character's weapon skills, the
    character has "an appropriate skill": the cost is halved, rounded up (RULINGS 3), as the
    ``skilled`` tick says for a skill the sheet does not list."""
    skilled = weapon.skilled or weapon.skill_id is not None
    return _weapon_total(weapon.damage_points, weapon.rate_of_fire, weapon.extra_damage,
                         weapon.range_reduction_steps, skilled, weapon.melee, weapon.reach_steps)


@lru_cache(maxsize=4096)
def _weapon_total(damage_points, rate_of_fire, extra_damage, range_reduction_steps, skilled, melee, reach_steps) -> int:
    # A party's budgets price every weapon on every read; the few weapon shapes repeat.
    return weapon_cost(damage_points, rate_of_fire, extra_damage, range_reduction_steps, skilled,
                       melee=melee, reach_steps=reach_steps).total


def armour_price(armour) -> int:
    return armour_cost(armour.hardness, armour.coverage, armour.nim_penalty, armour.skilled).total


def budget(character: Character, lines: Mapping[str, Sequence] | None = None) -> Budget:
    """Return the skill-point budget of a character whose sheet lines are loaded, or of the
    ``lines`` given (each kind's rows with the fields ``selectors.BUDGET_FIELDS`` names: a party's
    overview reads them for every character at once, as light rows)."""
    def rows(kind: str):
        return lines[kind] if lines is not None else getattr(character, kind).all()

    current, start = karma_for_limits(character)
    priced = [PricedItem(_("Weapon: %(name)s") % {"name": w.name}, weapon_price(w), w.classified, w.fate)
              for w in rows("weapons")]
    priced += [PricedItem(_("Armour: %(name)s") % {"name": a.name}, armour_price(a), a.classified, a.fate)
               for a in rows("armour")]
    return character_budget(
        intelligence=intelligence_value(character),
        trades=character.stat_trades or {},
        karma_converted=character.karma_converted,
        disadvantages=[RulesDisadvantage(d.name, d.value, d.ranks) for d in rows("disadvantages")],
        current_karma=current,
        starting_karma=start,
        skills=[SkillLike(s.name, s.breadth, s.ranks, s.classified) for s in rows("skills")],
        equipment=[SkillLike(e.name, e.breadth, e.ranks, e.classified, e.fate) for e in rows("equipment")],
        priced_items=priced,
        max_ranks=character.campaign.max_skill_ranks,
        starvation_relief=character.starvation_relief,
    )


@dataclass(frozen=True)
class CheckLine:
    """A skill or stat with its check target, breakdown and exact chance of success."""

    label: str
    target: int
    breakdown: list
    dice: int
    probability: float
    rolled_dice: int  # dice actually rolled after the miracle rule
    exact: Fraction = Fraction(0)  # the chance as an exact fraction
    kind: str = "skill"  # "stat", "skill", "weapon" or "language": which situational terms apply
    proficient: bool = True  # False: a weapon no skill covers, at its foundation alone
    stat: str = ""  # the stat the line rests on (a spot check is an AWA stat line)
    level: int = 0  # what assistants are measured against: the ranks, or a stat line's stat
    aiming: str = ""  # a weapon's aiming class

    @property
    def successes(self) -> int:
        """Return how many of the 6^dice equally likely rolls succeed."""
        return int(self.exact * 6**self.rolled_dice)

    @property
    def percent(self) -> str:
        return percent_text(self.probability)


def _check_line(label: str, target) -> CheckLine:
    odds = check_odds(target.total, target.dice)
    return CheckLine(label, target.total, [(k, int(v)) for k, v in target.breakdown], target.dice,
                     float(odds.probability), odds.dice, odds.probability)


def stat_checks(character: Character) -> dict[str, CheckLine]:
    terms = stat_terms(character)
    lines = {}
    for code in PRIMARY_STATS:
        current = sum(v for _, v in terms[code])
        line = _check_line(code, stat_check_target(current))
        # Show how the stat itself came about, not only "stat = target".
        lines[code] = CheckLine(line.label, line.target, terms[code], line.dice, line.probability,
                                line.rolled_dice, line.exact, kind="stat", stat=code, level=current)
    return lines


def skill_checks(character: Character) -> dict[int, CheckLine]:
    stats = current_stats(character)
    lines = {}
    for skill in character.skills.all():
        line = _check_line(skill.name, skill_check_target(ranks=skill.ranks, stat=stats[skill.stat]))
        lines[skill.pk] = replace(line, stat=skill.stat, level=skill.ranks)
    return lines


def weapon_checks(character: Character) -> dict[int, CheckLine]:
    """Each weapon's attack before the target's Defense, range and aiming: the skill foundation
    of the attack stat (MEL for a melee weapon, else ACC) plus the ranks of the weapon skill that
    covers it, or the foundation alone when none does ("Unproficient")."""
    stats = current_stats(character)
    skills = {s.pk: s for s in character.skills.all()}
    lines = {}
    for weapon in character.weapons.all():
        if weapon.fate == "consumed":  # used up: nothing left to attack with
            continue
        stat = "MEL" if weapon.melee else "ACC"
        skill = skills.get(weapon.skill_id)
        target = skill_check_target(ranks=skill.ranks if skill else 0, stat=stats[stat])
        breakdown = [(_("%(skill)s ranks") % {"skill": skill.name} if k in ("skill ranks", _("skill ranks"))
                      else f"{stat} {k}", int(v)) for k, v in target.breakdown]
        odds = check_odds(target.total, target.dice)
        lines[weapon.pk] = CheckLine(_("%(weapon)s attack") % {"weapon": weapon.name}, target.total, breakdown, target.dice,
                                     float(odds.probability), odds.dice, odds.probability, kind="weapon",
                                     proficient=skill is not None, stat=stat, level=skill.ranks if skill else 0,
                                     aiming=weapon.aiming)
    return lines


def language_checks(character: Character) -> dict[str, CheckLine]:
    """Each aspect of each language as a LAN roll on 4d6 at the rank's modifier ("In-game language
    usage"), the ranks read after the era distance the GM set; keyed ``<id>:<aspect>``."""
    lan = current_stats(character)["LAN"]
    lines = {}
    for language in character.languages.all():
        held = {aspect: getattr(language, aspect) for aspect in ASPECTS}
        ranks = held
        if language.era_steps:
            ranks = effective_ranks(held, [str(language.era_step_loss)] * language.era_steps).ranks
        for aspect in ASPECTS:
            target = language_check_target(lan=lan, rank=ranks[aspect])
            line = _check_line(_("%(language)s (%(aspect)s)") % {"language": language.name,
                                                                  "aspect": ASPECT_WORDS.get(aspect, aspect)}, target)
            lines[f"{language.pk}:{aspect}"] = replace(line, kind="language", stat="LAN", level=ranks[aspect])
    return lines


def line_check(character: Character, line: str) -> CheckLine | None:
    """The check of one line of a sheet loaded with ``SHEET_PREFETCH``: ``stat:ACC``,
    ``skill:<id>``, ``weapon:<id>`` or ``language:<id>:<aspect>``; None for a line the sheet
    does not have."""
    kind, _colon, key = str(line).partition(":")
    if kind == "stat":
        return stat_checks(character).get(key)
    if kind == "language":
        return language_checks(character).get(key)
    if not key.isdigit() or kind not in ("skill", "weapon"):
        return None
    return (skill_checks if kind == "skill" else weapon_checks)(character).get(int(key))


@dataclass(frozen=True)
class ArmourView:
    rating: int
    effects: dict
    cost: int


def armour_views(character: Character) -> dict[int, ArmourView]:
    views = {}
    for armour in character.armour.all():
        rating = armour_rating(armour.hardness, armour.coverage)
        views[armour.pk] = ArmourView(rating, armour_effects(rating, armour.tech_shift), armour_price(armour))
    return views


@dataclass(frozen=True)
class LanguagePoints:
    """The starting languages' budget ("Starting Languages") and what each language costs."""

    free_languages: int
    points: int
    spent: int
    costs: dict  # {language id: points}
    breakdown: list

    @property
    def remaining(self) -> int:
        return self.points - self.spent


def language_points(character: Character) -> LanguagePoints:
    """Price the sheet's languages against LAN and INT ("Starting Languages", RULINGS 7).

    *Reading:* the native language is the line marked native (ranks below 3 given up for 2
    points each); free languages (1 per 5 INT) go to the dearest languages, each saving its
    first rank in its best aspect.
    """
    languages = list(character.languages.all())
    native = next((lang for lang in languages if lang.native), None)
    given_up = {a: MAX_LANGUAGE_RANK - getattr(native, a) for a in ASPECTS} if native else None
    found = starting_language_budget(intelligence=intelligence_value(character), lan=character.lan,
                                     native_given_up=given_up)
    costs = {}
    for lang in languages:
        if lang is not native:
            costs[lang.pk] = purchase_cost({a: getattr(lang, a) for a in ASPECTS})
    free_left = found.free_languages
    for lang in sorted((x for x in languages if x.pk in costs), key=lambda x: -costs[x.pk]):
        if not free_left:
            break
        ranks = {a: getattr(lang, a) for a in ASPECTS}
        best = max(ASPECTS, key=lambda a: ranks[a])
        if ranks[best]:
            costs[lang.pk] = purchase_cost(ranks, start=aspects_from_purchase(best, 1))
            free_left -= 1
    spent = sum(costs.values())
    return LanguagePoints(found.free_languages, found.points, spent, costs,
                          [*found.breakdown, (_("language points spent"), spent)])


@dataclass
class Sheet:
    """The computed half of a sheet, ready for a template or a serializer."""

    derived: dict = field(default_factory=dict)  # {"HP": (value, breakdown, frozen)}
    starting_karma: tuple = (0, [])
    budget: Budget | None = None
    stat_checks: dict = field(default_factory=dict)
    skill_checks: dict = field(default_factory=dict)
    weapon_checks: dict = field(default_factory=dict)
    armour: dict = field(default_factory=dict)
    weapon_costs: dict = field(default_factory=dict)
    languages: LanguagePoints | None = None
    disadvantage_rank_limit: int = 0
    problems: list = field(default_factory=list)


def compute_sheet(character: Character) -> Sheet:
    """Compute everything the sheet shows; a rule that cannot apply becomes a listed problem.

    Each part is computed on its own, so one line the rules refuse (a weapon with impossible
    numbers, say) does not blank the rest of the sheet.
    """
    sheet = Sheet()

    def part(compute):
        try:
            return compute()
        except RulesError as exc:
            if str(exc) not in sheet.problems:
                sheet.problems.append(str(exc))
            return None

    sheet.derived = part(lambda: derived_values(character)) or {}
    sk = part(lambda: starting_karma(character))
    if sk is not None:
        start = character.starting_karma if character.starting_karma is not None else sk.total
        sheet.starting_karma = (start, [(k, int(v)) for k, v in sk.breakdown])
        sheet.disadvantage_rank_limit = max_disadvantage_ranks(start)
    sheet.budget = part(lambda: budget(character))
    sheet.stat_checks = part(lambda: stat_checks(character)) or {}
    sheet.skill_checks = part(lambda: skill_checks(character)) or {}
    sheet.weapon_checks = part(lambda: weapon_checks(character)) or {}
    sheet.armour = part(lambda: armour_views(character)) or {}
    sheet.languages = part(lambda: language_points(character))
    sheet.weapon_costs = {}
    for weapon in character.weapons.all():
        cost = part(lambda w=weapon: weapon_price(w))
        if cost is not None:
            sheet.weapon_costs[weapon.pk] = cost
    if sheet.budget is not None:
        sheet.problems.extend(sheet.budget.debt_actions)
    return sheet


# --- Immersion ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Immersion:
    """A language line's immersion as the sheet shows it."""

    aspect: str
    held: bool
    era_gap: int
    hours: Fraction
    related: int
    purpose: str
    length: int
    complete: bool

    def text(self) -> str:
        if self.complete:
            return _("%(aspect)s at the top rank: nothing more to learn by immersion") % {
                "aspect": ASPECT_WORDS.get(self.aspect, self.aspect)}
        return _("%(hours)s of %(length)s h toward %(purpose)s") % {
            "hours": f"{float(self.hours):g}", "length": self.length, "purpose": self.purpose}


def progress_of(language: Language) -> ImmersionProgress:
    """The language line's immersion as the rulebook reads it."""
    state = language.immersion or {}
    held = state.get("held", True)
    ranks = {aspect: getattr(language, aspect) for aspect in ASPECTS} if held else None
    return ImmersionProgress(ranks=ranks, aspect=state.get("aspect", "spoken"), era_gap=state.get("era_gap", 0),
                             hours=Fraction(str(state.get("hours", "0"))), related_languages=state.get("related", 0))


def immersion_view(language: Language) -> Immersion | None:
    """What the sheet says of a language's immersion; None when it never started."""
    if not language.immersion:
        return None
    progress = progress_of(language)
    # At the top rank there is no next interval to show (and the rulebook names none).
    purpose, length = ("", 0) if progress.complete else progress.interval()
    return Immersion(progress.aspect, progress.ranks is not None, progress.era_gap, progress.hours,
                     progress.related_languages, purpose, length, progress.complete)
