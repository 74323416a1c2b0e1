"""The game's words, explained for a player who has not read the article.

One entry per term: its short form as the sheet shows it, its name, and one or two sentences in
the project's own words. Pages show the explanation as the term's title and accessible
description (the ``term`` template tag), and all of them on the glossary page.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    code: str  # as the sheet shows it: "AWA", "Shock"
    name: str  # spelled out: "Awareness"
    explanation: str
    group: str


def _terms(group: str, *rows: tuple[str, str, str]) -> list[Term]:
    return [Term(code, name, explanation, group) for code, name, explanation in rows]


STATS = "Stats"
CALCULATED = "Calculated stats"
BREADTHS = "Skill breadths"
KARMA = "Karma and experience"
CAMPAIGN = "The campaign's shared things"
WOUNDS = "Wounds"
TABLES = "Tables"

TERMS: list[Term] = [
    *_terms(
        STATS,
        ("STR", "Strength", "Physical force: lifting, carrying, pushing, the damage of a punch."),
        ("CON", "Constitution", "Health: how much harm the body takes before it gives in, and how fast it heals."),
        ("RES", "Resistance", "How well the body shrugs off a blow, counted as if in the heaviest armour; "
                              "lighter armour takes some of it away, so the sheet shows it after the armour worn."),
        ("NIM", "Nimbleness", "Quickness of the whole body; heavy armour takes some of it away."),
        ("DEX", "Dexterity", "Skill of the hands with tools and keyboards; the stat in play is the rolled value "
                             "averaged with NIM, and gloves or gauntlets take some away."),
        ("ACC", "Accuracy", "Hitting with aimed weapons: guns, bows, anything thrown."),
        ("MEL", "Melee", "Fighting hand to hand, with or without a weapon."),
        ("PRAC", "Practical aptitude", "Talent for hands-on skills: repairing, driving, climbing."),
        ("THEO", "Theoretical aptitude", "Talent for skills of the mind: sciences, planning, analysis."),
        ("ENC", "Encyclopedic knowledge", "The store of facts and procedures the character simply knows."),
        ("LAN", "Languages", "How fast the character picks up languages; the check of an immersion."),
        ("AWA", "Awareness", "Noticing what is around: the spot and listen checks, and surprise."),
        ("PERS", "Personality", "Presence, charm and persuasion: the root of every social skill."),
    ),
    *_terms(
        CALCULATED,
        ("INT", "Intelligence", "The average of PRAC, THEO, ENC and LAN, plus one d6 and minus another, rolled "
                                "once at creation; every five points give a free starting language."),
        ("HP", "Hit points", "Twice CON plus RES plus NIM: the trauma a body takes before it is dying."),
        ("SHK", "Shock threshold", "A fifth of the hit points: more shock than this from one hit knocks a "
                                   "character down."),
        ("END", "Endurance", "Staying power, equal to CON at creation; effort, running and stimulants spend it, "
                             "rest brings it back."),
    ),
    *_terms(
        BREADTHS,
        ("specific", "Specific skill", "A skill for one narrow thing; the cheapest breadth."),
        ("narrow", "Narrow skill", "A skill for a small field of related things."),
        ("broad", "Broad skill", "A skill for a whole field; it costs the most."),
        ("weapon model", "Weapon model", "A weapon skill for one model of weapon."),
        ("weapon type", "Weapon type", "A weapon skill for a type of weapon (pistols, say)."),
        ("weapon category", "Weapon category", "A weapon skill for a whole category (firearms, say)."),
    ),
    *_terms(
        KARMA,
        ("Karma", "Karma", "The character's currency of luck and growth: earned after adventures and by "
                           "complications, spent on rerolls, raised stats, skills and the campaign's pools."),
        ("XP", "Experience", "What an adventure pays in Karma: its base plus the bad-news tokens, times how well "
                             "the group solved it."),
        ("Reroll", "Karma reroll", "One Karma rolls a failed check again; the new roll stands."),
        ("Complication", "Complication", "Trouble a disadvantage brings into play; it earns Karma and clears "
                                         "Karmic debt or starvation."),
        ("Karmic debt", "Karmic debt", "A disadvantage that has earned Karma without ever causing trouble; the "
                                       "GM should bring it into play."),
    ),
    *_terms(
        CAMPAIGN,
        ("Bad-news token", "Bad-news token", "A mark the GM gives an adventure each time things go wrong for "
                                             "the group; each one adds to the adventure's payout."),
        ("MacGuffin", "Campaign MacGuffin", "A shared project the whole group pays Karma into; funded, it takes "
                                            "effect from the next adventure."),
        ("NPC boost", "NPC boost", "One Karma the GM awards when a character makes a non-player character "
                                   "stronger in the story."),
        ("Zener Transition", "Zener Transition", "A jump through the gate: a CON save against its radiation, "
                                                 "then damage by the jump's category."),
        ("Downtime", "Downtime", "Hours between scenes in which wounds heal, END comes back and therapies work."),
    ),
    *_terms(
        WOUNDS,
        ("Shock", "Shock", "Short-lived pain and stun from hits; it fades within a fight's aftermath."),
        ("Trauma", "Trauma", "Real bodily harm; at the hit points a character is dying."),
        ("Stat damage", "Stat damage", "Points a hit or radiation takes off a stat for a while; they heal back."),
        ("Long-term CON loss", "Long-term CON loss", "Radiation's lasting harm to CON, which heals on its own "
                                                     "slow track."),
        ("Dying", "Dying", "Past the hit points: a CON check each round, with a medic's help if there is one."),
    ),
    *_terms(
        TABLES,
        ("Universal index table", "Universal index table", "One ladder of sizes, weights, ranges and times: "
                                                           "each row up is a step harder, or bigger, or farther."),
        ("Hit location", "Hit location", "Where a hit lands, from a d100 on the body table; it sets how much of "
                                         "the damage is shock and trauma."),
    ),
]

BY_CODE: dict[str, Term] = {term.code: term for term in TERMS}
GROUPS: tuple[str, ...] = (STATS, CALCULATED, BREADTHS, KARMA, CAMPAIGN, WOUNDS, TABLES)


def explain(code: str) -> Term | None:
    """The term a short form names (any case), or None."""
    return BY_CODE.get(code) or next((t for t in TERMS if t.code.casefold() == str(code).casefold()), None)
