"""The game's words, explained for a player who has not read the rules.

One entry per term: its short form as a page shows it, its name, one or two sentences in the
project's own words, its group, and where the rule lives in the app (the page or section a user
reaches it on). Pages show the explanation as the term's title and accessible description (the
``term`` template tag), and all of them on the glossary page, grouped by rule set: the Zener Gate
groups first, then one group for each of the four other rule sets.

Every text a person reads is marked with ``gettext_noop`` and translated where it is shown (the
tag and the glossary page call Django's ``gettext`` on each); the rulebook itself imports no
Django. Short forms (AWA, TN, ARC …) are the game's notation and stay as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebook.words import gettext_noop

#: The rule sets, in the order the glossary shows them (keys as in ``rulebook.systems``).
ZENER, ZEROSPACE, SUCCESS_CHECK, ROCKET_HOUSE, CORE_RULES = (
    "zener", "zerospace", "success_check", "rocket_house", "core_rules")


@dataclass(frozen=True)
class Term:
    code: str  # as a page shows it: "AWA", "Shock", "TN"
    name: str  # spelled out: "Awareness"
    explanation: str
    group: str
    where: str = ""  # where the rule lives in the app: the page or section that shows it
    system: str = ZENER  # the rule set it belongs to
    aliases: tuple[str, ...] = ()  # other spellings a page may use ("Plot points", "Despair")


def _terms(group: str, *rows: tuple, system: str = ZENER) -> list[Term]:
    """Rows of (code, name, explanation, where[, aliases]) in one group of one rule set."""
    return [Term(code, name, explanation, group, where, system, tuple(rest[0]) if rest else ())
            for code, name, explanation, where, *rest in rows]


SYSTEM_NAMES: dict[str, str] = {
    ZENER: gettext_noop("Zener Gate"),
    ZEROSPACE: gettext_noop("ZeroSpace"),
    SUCCESS_CHECK: gettext_noop("Success Check (2d10)"),
    ROCKET_HOUSE: gettext_noop("Tales from the Rocket House"),
    CORE_RULES: gettext_noop("Core Rules (chapter V)"),
}

# --- The groups: Zener Gate's first, then one for each other rule set ----------------------------
STATS = gettext_noop("Stats")
CALCULATED = gettext_noop("Calculated stats")
BREADTHS = gettext_noop("Skill breadths")
SKILLS = gettext_noop("Skills, equipment and languages")
KARMA = gettext_noop("Karma and experience")
CAMPAIGN = gettext_noop("The campaign's shared things")
CHECKS = gettext_noop("Checks and dice")
FIGHTS = gettext_noop("Fights")
WOUNDS = gettext_noop("Wounds")
TABLES = gettext_noop("Tables")
ZEROSPACE_GROUP = SYSTEM_NAMES[ZEROSPACE]
SUCCESS_CHECK_GROUP = SYSTEM_NAMES[SUCCESS_CHECK]
ROCKET_HOUSE_GROUP = SYSTEM_NAMES[ROCKET_HOUSE]
CORE_RULES_GROUP = SYSTEM_NAMES[CORE_RULES]

# --- Where the rules live: the pages and sections that show them --------------------------------
AT_STATS = gettext_noop("The character sheet's Stats section, and the character builder")
AT_DERIVED = gettext_noop("The character sheet's Derived section")
AT_BREADTH = gettext_noop("The character sheet's Skills section: each skill's Breadth, which the GM sets")
AT_KARMA_PAGE = gettext_noop("The campaign's Karma page")
AT_SPEND_KARMA = gettext_noop("The campaign's Karma page: Spend Karma")
AT_ADVENTURES = gettext_noop("The campaign's Adventures page")
AT_MACGUFFINS = gettext_noop("The campaign's MacGuffins page")
AT_MORE_TERMS = gettext_noop("A sheet line's Roll → More terms, and the GM's check builder")
AT_ROLLS = gettext_noop("A sheet line's Roll, the Roller and the GM's check builder")
AT_RESULTS = gettext_noop("Every roll's result and the roll feed")
AT_TRACKER = gettext_noop("The encounter page's tracker (Combat)")
AT_ATTACK_FORM = gettext_noop("The encounter page's attack form")
AT_ATTACK_RESULT = gettext_noop("The encounter page's attack results")
AT_WOUNDS = gettext_noop("The character sheet's Wounds section, and the encounter page's tracker")
AT_DOWNTIME = gettext_noop("The campaign's Downtime page")
AT_TREAT = gettext_noop("The Downtime page: Treat now, and each character's treatment between sessions")
AT_TABLES = gettext_noop("The Universal tables page")
AT_ZS_SHEET = gettext_noop("A ZeroSpace sheet's numbers and Checks; the Roller")
AT_ZS_CHECK = gettext_noop("A ZeroSpace sheet's Checks, the Roller and a fight's attack form")
AT_ZS_DICE = gettext_noop("The Roller's check and a ZeroSpace fight's attack form")
AT_ZS_POOL = gettext_noop("A ZeroSpace sheet's Resources: Spend on")
AT_ZS_FIGHT = gettext_noop("A ZeroSpace fight's order (Combat)")
AT_ZS_CONDITION = gettext_noop("A ZeroSpace sheet's Condition, and a fight's order")
AT_SC_CHECK = gettext_noop("A Success Check sheet's Checks, the Roller and a fight's attack form")
AT_SC_RESULT = gettext_noop("Every Success Check roll's result, and a fight's blows")
AT_SC_POOL = gettext_noop("A Success Check sheet's Resources")
AT_SC_ARMOUR = gettext_noop("A Success Check sheet's numbers, and a fight's attack form")
AT_SC_CONDITION = gettext_noop("A Success Check sheet's Condition, and a fight's order")
AT_RH_CHECK = gettext_noop("A Rocket House sheet's Checks, and the Roller")
AT_RH_ROUND = gettext_noop("A Rocket House fight's combat round form and its blows")
AT_RH_CONDITION = gettext_noop("A Rocket House sheet's Condition, and a fight's order")
AT_RH_POOL = gettext_noop("A Rocket House sheet's Resources, and a fight's combat round form")
AT_RULING = gettext_noop("The campaign's settings: the rule set's rulings")
AT_CR_CHECK = gettext_noop("A Core Rules sheet's Checks, the Roller and a fight's declared action")
AT_CR_NUMBERS = gettext_noop("A Core Rules sheet's numbers, and the start of a fight")
AT_CR_FIGHT = gettext_noop("A Core Rules fight's order (Combat)")
AT_CR_LOAD = gettext_noop("A Core Rules sheet's numbers: Carried (kg)")

TERMS: list[Term] = [
    # ==== Zener Gate ==============================================================================
    *_terms(
        STATS,
        ("Stat", gettext_noop("Stat"),
         gettext_noop("One of the thirteen rolled numbers that make a character. A stat check rolls 4d6 and "
                      "succeeds at or under the stat; skill checks stand on half of it."),
         AT_STATS, ("stats",)),
        ("STR", gettext_noop("Strength"),
         gettext_noop("Physical force: lifting, carrying, pushing, the damage of a punch."), AT_STATS),
        ("CON", gettext_noop("Constitution"),
         gettext_noop("Health: how much harm the body takes before it gives in, and how fast it heals."),
         AT_STATS),
        ("RES", gettext_noop("Resistance"),
         gettext_noop("How well the body shrugs off a blow, counted as if in the heaviest armour; "
                      "lighter armour takes some of it away, so the sheet shows it after the armour worn."),
         AT_STATS),
        ("NIM", gettext_noop("Nimbleness"),
         gettext_noop("Quickness of the whole body; heavy armour takes some of it away."), AT_STATS),
        ("DEX", gettext_noop("Dexterity"),
         gettext_noop("Skill of the hands with tools and keyboards; the stat in play is the rolled value "
                      "averaged with NIM, and gloves or gauntlets take some away."), AT_STATS),
        ("ACC", gettext_noop("Accuracy"),
         gettext_noop("Hitting with aimed weapons: guns, bows, anything thrown."), AT_STATS),
        ("MEL", gettext_noop("Melee"), gettext_noop("Fighting hand to hand, with or without a weapon."), AT_STATS),
        ("PRAC", gettext_noop("Practical aptitude"),
         gettext_noop("Talent for hands-on skills: repairing, driving, climbing."), AT_STATS),
        ("THEO", gettext_noop("Theoretical aptitude"),
         gettext_noop("Talent for skills of the mind: sciences, planning, analysis."), AT_STATS),
        ("ENC", gettext_noop("Encyclopedic knowledge"),
         gettext_noop("The store of facts and procedures the character simply knows."), AT_STATS),
        ("LAN", gettext_noop("Languages"),
         gettext_noop("How fast the character picks up languages; the check of an immersion."), AT_STATS),
        ("AWA", gettext_noop("Awareness"),
         gettext_noop("Noticing what is around: the spot and listen checks, and surprise."), AT_STATS),
        ("PERS", gettext_noop("Personality"),
         gettext_noop("Presence, charm and persuasion: the root of every social skill."), AT_STATS),
    ),
    *_terms(
        CALCULATED,
        ("Calculated stat", gettext_noop("Calculated stat"),
         gettext_noop("A number worked out from the stats (INT, HP, SHK, END) and fixed when the GM approves "
                      "the character; later only the rules that name it change it, and radiation never does."),
         AT_DERIVED, ("derived",)),
        ("INT", gettext_noop("Intelligence"),
         gettext_noop("The average of PRAC, THEO, ENC and LAN, plus one d6 and minus another, rolled "
                      "once at creation; every five points give a free starting language."), AT_DERIVED),
        ("HP", gettext_noop("Hit points"),
         gettext_noop("Twice CON plus RES plus NIM: the trauma a body takes before it is dying."), AT_DERIVED),
        ("SHK", gettext_noop("Shock threshold"),
         gettext_noop("A fifth of the hit points: more shock than this from one hit knocks a character down."),
         AT_DERIVED),
        ("END", gettext_noop("Endurance"),
         gettext_noop("Staying power, equal to CON at creation; effort, running and stimulants spend it, "
                      "rest brings it back."),
         gettext_noop("The character sheet's Derived and Wounds sections; encounters and the Downtime page "
                      "spend it")),
    ),
    *_terms(
        BREADTHS,
        ("specific", gettext_noop("Specific skill"),
         gettext_noop("A skill for one narrow thing; the cheapest breadth."), AT_BREADTH),
        ("narrow", gettext_noop("Narrow skill"), gettext_noop("A skill for a small field of related things."),
         AT_BREADTH),
        ("broad", gettext_noop("Broad skill"), gettext_noop("A skill for a whole field; it costs the most."),
         AT_BREADTH),
        ("weapon model", gettext_noop("Weapon model"), gettext_noop("A weapon skill for one model of weapon."),
         AT_BREADTH),
        ("weapon type", gettext_noop("Weapon type"),
         gettext_noop("A weapon skill for a type of weapon (pistols, say)."), AT_BREADTH),
        ("weapon category", gettext_noop("Weapon category"),
         gettext_noop("A weapon skill for a whole category (firearms, say)."), AT_BREADTH),
    ),
    *_terms(
        SKILLS,
        ("Skill", gettext_noop("Skill"),
         gettext_noop("Something the character has learned, named by the player and classed by the GM. A skill "
                      "check rolls 3d6 against the ranks plus the foundation of the stat the GM picks."),
         gettext_noop("The character sheet's Skills section, each skill with its Roll"), ("skills",)),
        ("Skill points", gettext_noop("Skill points"),
         gettext_noop("What the builder spends: twice INT to start, plus the disadvantages' points, stat trades "
                      "(+1 to a stat costs 3, −1 gives 2) and 2 for each Karma converted."),
         gettext_noop("The character builder's budget, and the sheet's budget")),
        ("Budget", gettext_noop("Skill-point budget"),
         gettext_noop("The running count of skill points: what there is, what skills, equipment and stat trades "
                      "have spent, and what is left; lines the GM has not classed yet wait as pending."),
         gettext_noop("The character builder and the character sheet's budget")),
        ("Rank", gettext_noop("Rank"),
         gettext_noop("One step in a skill, a disadvantage or a language. A skill's first rank costs its breadth, "
                      "each further one 1 point, up to the campaign's maximum (3 unless the GM sets another)."),
         gettext_noop("Every skill, disadvantage and language line of the character sheet"), ("ranks",)),
        ("Breadth", gettext_noop("Breadth"),
         gettext_noop("How wide a skill, disadvantage or piece of equipment reaches: specific, narrow or broad, "
                      "worth 1, 2 or 4 points. The GM decides it."),
         gettext_noop("The character sheet's skill, disadvantage and equipment lines")),
        ("Skill foundation", gettext_noop("Skill foundation"),
         gettext_noop("Half a stat, rounded up, plus 2: what a skill check stands on before the ranks are added."),
         gettext_noop("The breakdown of every skill check and attack"), ("foundation",)),
        ("Unproficient", gettext_noop("Unproficient"),
         gettext_noop("A check with a skill the character lacks: the foundation alone, +1 for each indirectly "
                      "related skill or piece of equipment the GM accepts."), AT_MORE_TERMS),
        ("Skill standards", gettext_noop("Skill standards"),
         gettext_noop("What ranks make someone at the table: 3 an expert or professional, 2 a skilled assistant, "
                      "1 a trainee or junior assistant, 0 unskilled support staff. Assistants are counted by them."),
         gettext_noop("Each skill line's Ranks on the character sheet, and the assistants box of a check"),
         ("skill standard", "Expert", "Skilled assistant", "Trainee", "Unskilled")),
        ("Disadvantage", gettext_noop("Disadvantage"),
         gettext_noop("A weakness that pays skill points: 1, 2 or 4 by breadth, 1 less for each further rank "
                      "(never below 1). Each rank is −2 on the checks it touches; removing one costs 1 Karma."),
         gettext_noop("The character sheet's Disadvantages section"), ("disadvantages",)),
        ("Equipment", gettext_noop("Equipment"),
         gettext_noop("Gear bought like a skill, by breadth. It is never a check of its own, but used for the "
                      "task it counts as a further relevant skill (+2)."),
         gettext_noop("The character sheet's Equipment section")),
        ("Weapon", gettext_noop("Weapon"),
         gettext_noop("Priced by its damage, rate of fire, extra damage and range; a skill with it halves the "
                      "price. An attack adds the ranks of the skill that covers it."),
         gettext_noop("The character sheet's Weapons section, and the encounter page's attack form"),
         ("weapons",)),
        ("Armour", gettext_noop("Armour"),
         gettext_noop("Hardness times coverage gives its rating on the 0–10 scale, which adds to Defense and "
                      "takes trauma off each hit. Heavier types cost NIM, ACC, MEL and DEX; light or no armour "
                      "costs RES."),
         gettext_noop("The character sheet's Armour section"), ("armor", "armour rating")),
        ("Language", gettext_noop("Language"),
         gettext_noop("Known in four aspects (spoken, heard, written, read) of up to 3 ranks each. A language "
                      "roll is a LAN check at −15, −10, −5 or 0 for 0 to 3 ranks."),
         gettext_noop("The character sheet's Languages section, each aspect with its Roll")),
        ("Immersion", gettext_noop("Immersion"),
         gettext_noop("Learning a language by living in it: 3 hours for rank 0, then 6, 12 and 24 more hours "
                      "for the next ranks, each ending in a LAN check. A gap of eras is made up first."),
         gettext_noop("The Downtime page's Immersion, and the language's clock on the sheet")),
        ("Load", gettext_noop("Load"),
         gettext_noop("Weight carried: an unbalanced load counts in full, a balanced one half, a distributed one "
                      "a third, shared among its bearers. Each weight-table row it counts above STR is −1."),
         AT_MORE_TERMS, ("loads",)),
    ),
    *_terms(
        KARMA,
        ("Karma", gettext_noop("Karma"),
         gettext_noop("The character's currency of luck and growth: earned after adventures and by "
                      "complications, spent on rerolls, raised stats, skills and the campaign's pools."),
         gettext_noop("The character sheet's Karma section, and the campaign's Karma page")),
        ("XP", gettext_noop("Experience"),
         gettext_noop("What an adventure pays in Karma: its base plus the bad-news tokens, times how well "
                      "the group solved it."),
         gettext_noop("The campaign's Adventures page: closing an adventure pays it")),
        ("Reroll", gettext_noop("Karma reroll"),
         gettext_noop("One Karma rolls a failed check again; the new roll stands."),
         gettext_noop("A failed roll's Reroll, and the campaign's Karma page")),
        ("Complication", gettext_noop("Complication"),
         gettext_noop("Trouble a disadvantage brings into play; it earns Karma and clears "
                      "Karmic debt or starvation."),
         gettext_noop("The campaign's Karma page: Record a Complication")),
        ("Karmic debt", gettext_noop("Karmic debt"),
         gettext_noop("A disadvantage that has earned Karma without ever causing trouble; the "
                      "GM should bring it into play."), AT_KARMA_PAGE),
        ("Karmic starvation", gettext_noop("Karmic starvation"),
         gettext_noop("Fewer disadvantage points than the skills already bought need: the skills are overspent "
                      "until a Complication settles it in play."), AT_KARMA_PAGE),
        ("Stroke of good fortune", gettext_noop("Stroke of good fortune"),
         gettext_noop("Luck bought with Karma: the GM counts the successful rolls it saves, and that is its "
                      "price."), AT_SPEND_KARMA),
    ),
    *_terms(
        CAMPAIGN,
        ("Bad-news token", gettext_noop("Bad-news token"),
         gettext_noop("A mark the GM gives an adventure each time things go wrong for "
                      "the group; each one adds to the adventure's payout."),
         gettext_noop("The campaign's Adventures page: the current adventure's tokens")),
        ("MacGuffin", gettext_noop("Campaign MacGuffin"),
         gettext_noop("A shared project the whole group pays Karma into; funded, it takes "
                      "effect from the next adventure."), AT_MACGUFFINS, ("Campaign MacGuffin", "MacGuffins")),
        ("Pool", gettext_noop("Pool"),
         gettext_noop("The Karma gathered toward a Campaign MacGuffin's target, paid in by any player character: "
                      "4 for a minor improvement, 10 for a new capability, 20 to lift a limitation."),
         AT_MACGUFFINS, ("pools",)),
        ("Meitner field", gettext_noop("Meitner field"),
         gettext_noop("The field that carries a traveller's gear through a Zener Transition. Enlarging it is one "
                      "of three upgrades a MacGuffin can buy; with all three, Karma can delay a transition."),
         gettext_noop("The campaign's MacGuffins page: a pool's upgrade"), ("enlarged Meitner field",)),
        ("NPC boost", gettext_noop("NPC boost"),
         gettext_noop("One Karma the GM awards when a character makes a non-player character "
                      "stronger in the story."),
         gettext_noop("The campaign's Adventures page: GM awards")),
        ("Zener Transition", gettext_noop("Zener Transition"),
         gettext_noop("A jump through the gate: a CON save against its radiation, "
                      "then damage by the jump's category."),
         gettext_noop("Downtime → Zener Transition"), ("transition",)),
        ("Downtime", gettext_noop("Downtime"),
         gettext_noop("Hours between scenes in which wounds heal, END comes back and therapies work."),
         AT_DOWNTIME),
    ),
    *_terms(
        CHECKS,
        ("Check", gettext_noop("Check"),
         gettext_noop("Dice rolled against a target: a stat check is 4d6, a skill check or an attack 3d6, and a "
                      "sum at or under the target succeeds."), AT_ROLLS, ("checks", "stat check", "skill check")),
        ("Success", gettext_noop("Success and failure"),
         gettext_noop("A roll at or under the target succeeds, anything above fails; the margin says by how "
                      "much."), AT_RESULTS, ("failure",)),
        ("Margin", gettext_noop("Margin"),
         gettext_noop("Target minus roll: positive is a success by that much, negative a failure. Eventual "
                      "success reads it on the time chart."), AT_RESULTS),
        ("Modifier", gettext_noop("Modifier"),
         gettext_noop("A number added to the target: positive makes a check easier. The app keeps every "
                      "modifier on the target side, even the ones the rules write on the roll."),
         gettext_noop("The Modifier box of a sheet line's Roll, and the check builder's GM modifier"),
         ("GM modifier", "modifiers")),
        ("Difficulty", gettext_noop("Difficulty"),
         gettext_noop("How hard the GM rules a task; in Zener Gate it is a modifier on the target. The other "
                      "rule sets have ladders of their own: DV, TN, difficulty steps, thresholds."),
         gettext_noop("The check builder's GM modifier; each other rule set's sheet shows its ladder")),
        ("Critical hit", gettext_noop("Critical hit"),
         gettext_noop("An attack whose dice all show 1 and come in under the target. On a critical location it "
                      "deals d3 stat damage instead of 1; one with no extra damage gives +2 against the same "
                      "target next round."), AT_ATTACK_RESULT, ("critical", "critical location")),
        ("Miracle dice", gettext_noop("Miracle dice"),
         gettext_noop("When no roll can succeed, each die added raises the target by 2, until success becomes "
                      "possible; every die counts."),
         gettext_noop("The odds of a check: a sheet line's Roll, the check builder and the attack form"),
         ("miracle",)),
        ("Extra-benefit dice", gettext_noop("Extra-benefit dice"),
         gettext_noop("On a check that cannot fail, dice added for a trick or a bonus, each lowering the target "
                      "by 2; only the lowest three (four on a stat check) count."),
         gettext_noop("A check's Extra benefits, and the Roller"), ("Extra benefits",)),
        ("Eventual success", gettext_noop("Eventual success"),
         gettext_noop("For a task that will succeed in the end: the margin, less the margin the players want, "
                      "is read on the time chart as how long it took."), AT_MORE_TERMS),
        ("Odds", gettext_noop("Odds"),
         gettext_noop("The exact chance of a check, as a fraction and a percentage, counted over every possible "
                      "roll, with a chart of the totals."),
         gettext_noop("Every check form: a sheet line's Roll, the Roller, the check builder, the attack form"),
         ("chance",)),
        ("Typed dice", gettext_noop("Typed dice"),
         gettext_noop("Dice rolled on the table and typed in, instead of rolled by the app. The campaign's "
                      "settings say which ones a player may type; the roll feed marks such rolls."),
         gettext_noop("The campaign's settings (Dice you type at the table), and every form's Dice rolled at "
                      "the table"),
         ("Dice rolled at the table", "Dice you type at the table", "typed at the table")),
        ("Check builder", gettext_noop("Check builder"),
         gettext_noop("The GM's tool for any check that is not an attack: a character's line, the party's "
                      "stat or a target of the GM's own, the situation added term by term, the exact odds, "
                      "then the roll."), gettext_noop("Roller → Check builder (GM)")),
    ),
    *_terms(
        FIGHTS,
        ("Encounter", gettext_noop("Encounter"),
         gettext_noop("A Zener Gate fight: its combatants, initiative, rounds and every attack, live for "
                      "everyone at the table."), gettext_noop("The campaign's Combat tab"),
         ("encounters", "fight")),
        ("Round", gettext_noop("Round"),
         gettext_noop("One pass through the initiative order. A combat turn lasts until someone can change the "
                      "situation: about ten seconds, longer in a standoff."), AT_TRACKER, ("combat turn",)),
        ("Initiative", gettext_noop("Initiative"),
         gettext_noop("1d6 plus a rank for AWA (0 for the lowest present, +1 for each higher value) and one for "
                      "MEL (+2 for each higher value; ACC if the GM prefers). Highest acts first; equal "
                      "initiatives go to micro-time."),
         gettext_noop("The encounter page's tracker: Roll initiative"), ("init",)),
        ("Surprise", gettext_noop("Surprise"),
         gettext_noop("The GM's secret check of the party's collective AWA. If it fails, each of them counts 0 on "
                      "the initiative d6, with no ranks, that round."),
         gettext_noop("The check builder and the encounter page: Secret surprise check"),
         ("surprised", "Secret surprise check")),
        ("Micro-time", gettext_noop("Micro-time"),
         gettext_noop("When initiatives tie, actions are announced from the lowest RES to the highest and then "
                      "all resolve at once. A target may also react to a shot in flight with a NIM save."),
         AT_TRACKER),
        ("Attack", gettext_noop("Attack"),
         gettext_noop("A 3d6 check against the attack stat's foundation plus the weapon's ranks minus the "
                      "target's Defense, with range, size and aiming. END is paid first: 2 for a physical "
                      "attack, 1 for a pull of the trigger."), AT_ATTACK_FORM, ("attacks",)),
        ("Defense", gettext_noop("Defense"),
         gettext_noop("RES (after the armour's own change to it) minus 15 plus the armour rating; every attack "
                      "on the character loses it from its target."),
         gettext_noop("The encounter page's tracker and attack form"), ("defence",)),
        ("Called shot", gettext_noop("Called shot"),
         gettext_noop("Aiming at a smaller area: head and torso −1, head and neck −2, a hand −3, an eye −6. A near "
                      "miss still hits a larger area, for less."),
         gettext_noop("The encounter page's attack form: the area aimed at"), ("aimed area", "Aimed at")),
        ("Near miss", gettext_noop("Near miss"),
         gettext_noop("Aimed small and missed by up to 5: one area up, with −1 shock and −1 trauma. Aimed "
                      "smaller than head and torso and missed by up to 10: two areas up, −2 shock and no trauma."),
         AT_ATTACK_RESULT),
        ("Suppression fire", gettext_noop("Suppression fire"),
         gettext_noop("Firing in the target's general direction to pin it down: −5 to hit, no aiming."),
         AT_ATTACK_FORM, ("suppression",)),
        ("Aiming", gettext_noop("Aiming"),
         gettext_noop("Seconds spent aiming, read on the time chart as a bonus and capped by the weapon's class: "
                      "a pistol 2 s, a rifle 10 s, a sniper 10 min."),
         gettext_noop("The encounter page's attack form, and a weapon's Aiming class on the sheet")),
        ("Endurance use", gettext_noop("Endurance use"),
         gettext_noop("What spends END: 1 per half hour of ordinary activity, 4 per hour of strenuous activity, "
                      "2 per physical attack and 1 per trigger pull; a combat round alone costs nothing."),
         gettext_noop("Activity (END) on the encounter page and the Downtime page, and the GM's wounds form"),
         ("Activity (END)", "END cost")),
        ("NPC", gettext_noop("Non-player character"),
         gettext_noop("A character the GM runs. Players see an NPC's state and wounds, not its numbers."),
         gettext_noop("The encounter page: Add an NPC, and the NPC library"), ("NPCs",)),
    ),
    *_terms(
        WOUNDS,
        ("Wounds", gettext_noop("Wounds"),
         gettext_noop("The harm a character carries: trauma against HP, shock against SHK, stat damage, END "
                      "spent and long-term CON loss, each with when it heals next."),
         gettext_noop("The character sheet's Wounds section")),
        ("Shock", gettext_noop("Shock"),
         gettext_noop("Short-lived pain and stun from hits; it fades within a fight's aftermath."), AT_WOUNDS),
        ("Trauma", gettext_noop("Trauma"),
         gettext_noop("Real bodily harm; at the hit points a character is dying."), AT_WOUNDS),
        ("Stat damage", gettext_noop("Stat damage"),
         gettext_noop("Points a hit or radiation takes off a stat for a while; they heal back."), AT_WOUNDS),
        ("Long-term CON loss", gettext_noop("Long-term CON loss"),
         gettext_noop("Radiation's lasting harm to CON, which heals on its own slow track."),
         gettext_noop("The character sheet's Wounds section, and a transition's result")),
        ("Out cold", gettext_noop("Out cold"),
         gettext_noop("Knocked out by shock. More than SHK in one round calls for a CON save; failing it means "
                      "seconds out (d10 − 4 plus the excess, on the time chart). Shock above the hit points means "
                      "minutes (d10 − 7)."), AT_TRACKER, ("unconscious",)),
        ("Dying", gettext_noop("Dying"),
         gettext_noop("Past the hit points: a CON check each round, with a medic's help if there is one."),
         gettext_noop("The character sheet's Wounds section, and the encounter page's dying check")),
        ("Dead", gettext_noop("Dead"),
         gettext_noop("What a failed dying check means: the tracker marks the combatant dead."), AT_TRACKER),
        ("Healing", gettext_noop("Healing"),
         gettext_noop("Wounds mend with rest: trauma by a third plus the medic's ranks after a day, then daily; "
                      "shock by thirds from the fight's end to a night's sleep; END by the hour; stat damage by "
                      "the night. Downtime runs the clocks."),
         gettext_noop("The Downtime page, and Heals next in the sheet's Wounds"), ("heals",)),
        ("Radiation", gettext_noop("Radiation"),
         gettext_noop("A transition's CON check at −15: success costs 1 long-term CON and d3 shock and trauma, "
                      "failure more by the GM's category (1, 2, 3A or 3B). Each transition after the first adds 1 "
                      "per earlier jump. Its CON loss never changes HP, SHK or END."),
         gettext_noop("Downtime → Zener Transition, and the sheet's Wounds")),
        ("Therapy", gettext_noop("Anti-radiation therapy"),
         gettext_noop("A treatment the GM defines: it heals long-term CON loss at once, cuts the extra damage "
                      "of repeated transitions and moves the recovery track back, for a price in shock and "
                      "trauma (up to half of it may be taken as END)."),
         gettext_noop("The Downtime page: Anti-radiation therapies and Treat now"),
         ("therapies", "Anti-radiation therapy")),
        ("Stimutabs", gettext_noop("Stimutabs"),
         gettext_noop("A drug: +d3 STR for d3 + 3 hours (the players learn the bonus, not the hours), 1 more END "
                      "per use of the boosted STR, then the shakes: d6 + 6 points off NIM, DEX and ACC for "
                      "15 × d6 minutes."), AT_TREAT, ("the shakes",)),
        ("Hyperbaric chamber", gettext_noop("Hyperbaric chamber"),
         gettext_noop("Where an era has one, time in it heals trauma and stat damage up to three times as fast; "
                      "shock, END and radiation keep their pace."), AT_TREAT),
    ),
    *_terms(
        TABLES,
        ("Universal index table", gettext_noop("Universal index table"),
         gettext_noop("One ladder of sizes, weights, ranges and times: "
                      "each row up is a step harder, or bigger, or farther."), AT_TABLES, ("Universal tables",)),
        ("Time chart", gettext_noop("Time chart"),
         gettext_noop("The aiming and extra-time table: a ratio of time from under ×0.1 to ×10,000 read as −6 "
                      "to +13; it also gives the seconds a character stays out cold."), AT_TABLES,
         ("Extra time", "Extra time or rushing")),
        ("Range and size", gettext_noop("Range and size"),
         gettext_noop("The target's size row against the range row (2 m reads as 0): farther than the size "
                      "allows costs steps of the range-adjustment table, nearer gives the difference as a bonus. "
                      "Cover makes the target smaller."),
         gettext_noop("The encounter page's attack form, and a sheet line's Roll → More terms"), ("cover",)),
        ("Assistants", gettext_noop("Assistants"),
         gettext_noop("Helpers below the leader's skill give a bonus by how many there are and how far below "
                      "they are, read on the assistants table."), AT_MORE_TERMS),
        ("Delicacy", gettext_noop("Delicacy and scaling"),
         gettext_noop("How fine a task is: its tolerance read on the delicacy table is the penalty (1 cm +0, a "
                      "hair −3). Magnifying tools give rows back, never more than the delicacy took."),
         AT_MORE_TERMS, ("Scaling",)),
        ("Hit location", gettext_noop("Hit location"),
         gettext_noop("Where a hit lands, from a d100 on the body table; it sets how much of "
                      "the damage is shock and trauma."),
         gettext_noop("The encounter page's attack results (the GM may set a smaller die)"),
         ("hit locations", "location")),
    ),
    # ==== ZeroSpace ===============================================================================
    *_terms(
        ZEROSPACE_GROUP,
        ("AV", gettext_noop("Action value"),
         gettext_noop("The attribute used plus the equipment's rating (the rating alone for an unskilled try); "
                      "the roll is 2d6 plus it. In a fight it is also called the attack value."),
         AT_ZS_CHECK, ("Action value", "Attack value", "Attack value (AV)")),
        ("DV", gettext_noop("Difficulty value"),
         gettext_noop("What a task is rolled against: 2d6 plus the DV is the target number, and meeting it "
                      "succeeds. Moderately difficult 3, remarkably 6, extremely 9, inconceivable 12; routine "
                      "tasks are not rolled."), AT_ZS_SHEET, ("Difficulty value",)),
        ("Defence value", gettext_noop("Defence value (DV)"),
         gettext_noop("The DV of someone defending: Brawn against close combat or Agility at range, plus their "
                      "protection; of several layers only the best counts."),
         gettext_noop("A ZeroSpace sheet's numbers, and a fight's attack form"),
         ("defense value", "Defence value (DV)")),
        ("Bonus die", gettext_noop("Bonus die"),
         gettext_noop("One die more on a roll: cover, a charge, surprise, a plot point. By default each adds a "
                      "die to the sum; the campaign may rule instead that you roll extra and keep the best two."),
         AT_ZS_DICE, ("Bonus dice", "Defense bonus dice")),
        ("Penalty die", gettext_noop("Penalty die"),
         gettext_noop("One die less on a roll: distracted, running, restrained, more than half the Endurance "
                      "lost. With no dice left the task fails, unless the campaign keeps the worst two instead."),
         AT_ZS_DICE, ("penalty dice",)),
        ("Penetrating", gettext_noop("Penetrating"),
         gettext_noop("An attack whose dice showing 1 are rolled again until they show more."),
         gettext_noop("The Roller's check (ZeroSpace)")),
        ("Must beat", gettext_noop("Must beat"),
         gettext_noop("A roll where a tie fails, such as a distraction, which works only when higher."),
         gettext_noop("The Roller's check (ZeroSpace)")),
        ("Margin of success", gettext_noop("Margin of success"),
         gettext_noop("How far the total passes the target number. Under the campaign's ruling each full 3 of it "
                      "costs a hit target one more Endurance, and a skill roll 3 or more over is a eureka."),
         AT_RULING),
        ("Plot point", gettext_noop("Plot point"),
         gettext_noop("One at the start of each session (unspent ones are lost), more from the GM for a fine "
                      "moment or a setback the player chose. A point buys a bonus die, a boost, an inspiration, "
                      "a power stunt, a rally or a retcon."),
         gettext_noop("A ZeroSpace sheet's Resources, and a fight's attack form"),
         ("Plot points", "plot_points")),
        ("Boost", gettext_noop("Boost"),
         gettext_noop("+1 to one attribute for a round (a scene if the GM agrees), bought with a plot point."),
         AT_ZS_POOL),
        ("Inspiration", gettext_noop("Inspiration"),
         gettext_noop("A hint from the GM when the players are stuck, bought with a plot point."), AT_ZS_POOL),
        ("Power stunt", gettext_noop("Power stunt"),
         gettext_noop("A power used in a new way for a round, bought with a plot point; the outcome is still "
                      "rolled."), AT_ZS_POOL),
        ("Rally", gettext_noop("Rally"),
         gettext_noop("Half the lost Endurance back at once (rounded down), bought with a plot point: it is the "
                      "half-hour rest's half, so resting afterwards gives nothing until a night's sleep."),
         AT_ZS_POOL),
        ("Retcon", gettext_noop("Retcon"),
         gettext_noop("A plot point spent to change the past a little: a resource there all along, an old skill, "
                      "a plan made earlier. It builds on what is established, and it stays."), AT_ZS_POOL),
        ("Endurance", gettext_noop("Endurance"),
         gettext_noop("The greater of Brawn and Presence. A hit costs 1; past half lost, every action but talk "
                      "has a penalty die; at 0 the character is defeated. Half an hour's rest gives back half the "
                      "loss, a night's sleep all of it."), AT_ZS_CONDITION),
        ("Defeated", gettext_noop("Defeated"),
         gettext_noop("At 0 Endurance: out of the fight, probably unconscious, striking no more."),
         AT_ZS_CONDITION),
        ("Brawn", gettext_noop("Brawn"),
         gettext_noop("Physical power: close combat and the defence against it, climbing, lifting."),
         gettext_noop("A ZeroSpace sheet's numbers")),
        ("Agility", gettext_noop("Agility"),
         gettext_noop("Quickness and aim: ranged combat and the defence against it."),
         gettext_noop("A ZeroSpace sheet's Defence value (DV)")),
        ("Presence", gettext_noop("Presence"),
         gettext_noop("Force of personality: distracting, impressing; with Brawn it sets the Endurance."),
         gettext_noop("A ZeroSpace sheet's numbers")),
        ("Turn", gettext_noop("Turn and round"),
         gettext_noop("A round is six seconds in which everyone takes one turn: a move, one task, and as much "
                      "talk as the GM allows. The environment comes after the last turn."), AT_ZS_FIGHT,
         ("Round", "rounds", "Next turn")),
        ("Perception roll", gettext_noop("Perception roll"),
         gettext_noop("At a fight's start everyone rolls perception (Intelligence; the side with surprise gets a "
                      "bonus die). The turn order runs from the highest total down and stays for the fight."),
         gettext_noop("The start of a ZeroSpace fight"), ("Turn order", "perception")),
        ("Hold", gettext_noop("Holding a turn"),
         gettext_noop("Waiting instead of acting, to take the turn later, cutting in on whoever acts. It lasts "
                      "until the holder's place comes round again; the order itself stays."),
         gettext_noop("A ZeroSpace fight's order: Hold, and Take the held turn"),
         ("holds a turn", "held turn", "Take the held turn")),
        ("Force a defence", gettext_noop("Forcing an action"),
         gettext_noop("A purely defensive action out of turn (a parry, a dodge, a leap in front of a shot), once "
                      "a round; it costs the character's next turn, and the order stays."),
         gettext_noop("A ZeroSpace fight's order: Force a defence"),
         ("forced action", "gives up the next turn")),
        system=ZEROSPACE,
    ),
    # ==== Success Check ===========================================================================
    *_terms(
        SUCCESS_CHECK_GROUP,
        ("SC", gettext_noop("Success Check"),
         gettext_noop("2d10 plus the skill bonus against a target number; meeting it succeeds."), AT_SC_CHECK,
         ("Success Check",)),
        ("TN", gettext_noop("Target number"),
         gettext_noop("What the check must reach: 10 very easy, 15 easy, 20 moderate (the default), 25 "
                      "challenging, up to 40 near impossible."),
         gettext_noop("A Success Check sheet's Checks (each chance per TN), the Roller and a fight's attack form"),
         ("Target number",)),
        ("Skill bonus", gettext_noop("Skill bonus"),
         gettext_noop("The skill's ranks plus its two governing attributes, added to the dice."), AT_SC_CHECK),
        ("Advantage", gettext_noop("Advantage and Disadvantage"),
         gettext_noop("Advantage rolls 3d10 and drops the lowest, Disadvantage 3d10 and drops the highest. They "
                      "do not stack; each is worth about 2.5 on average, without moving the lowest or highest "
                      "roll."), AT_SC_CHECK, ("Disadvantage",)),
        ("Edge", gettext_noop("Edge"),
         gettext_noop("A resource up to the sheet's maximum: a point buys Advantage with the die to drop of your "
                      "choice, cancels Disadvantage, adds 1d6 damage or lessens an injury by a step. A short rest "
                      "gives one back, a long rest all, the GM one for a milestone or a setback."), AT_SC_POOL,
         ("Maximum Edge", "Edge spent")),
        ("Edge Burn", gettext_noop("Edge Burn"),
         gettext_noop("The last way out of death: one Edge and one point of the maximum, gone for good. The "
                      "character lives but needs care."),
         gettext_noop("A Success Check sheet's Resources, once the character is down")),
        ("MoS", gettext_noop("Margin of Success"),
         gettext_noop("The total minus the TN, after Triumph or Despair: 10 or more a complete success (+2d6 "
                      "damage), 5–9 significant (+1d6), 0–4 marginal; −1 to −5 a marginal failure, −6 to −10 "
                      "significant (Disadvantage next), lower complete."), AT_SC_RESULT,
         ("Margin of Success", "complete success", "significant success", "marginal success", "marginal failure",
          "significant failure", "complete failure")),
        ("Triumph", gettext_noop("Triumph and Despair"),
         gettext_noop("A double on the two dice that count: +5 to a success's margin (Triumph), −5 to a "
                      "failure's (Despair)."), AT_SC_RESULT, ("Despair",)),
        ("Damage roll", gettext_noop("Damage roll"),
         gettext_noop("A number of d6 plus a Strength modifier (the wielder's in melee, the weapon's for a gun), "
                      "plus the extra dice of the margin: a light pistol is 2d6 + 4."),
         gettext_noop("A Success Check fight's attack form"), ("Weapon d6", "Damage modifier", "Damage dice")),
        ("PT", gettext_noop("Penetration threshold"),
         gettext_noop("Armour stops any damage below it entirely; damage at or above it gets through, less DR."),
         AT_SC_ARMOUR, ("Armour PT", "Penetration threshold")),
        ("DR", gettext_noop("Damage reduction"),
         gettext_noop("The share of damage that gets through which armour still takes, in percent, rounded down: "
                      "16 against DR 30 leaves 12."), AT_SC_ARMOUR,
         ("Armour DR %", "Damage reduction %", "Damage reduction")),
        ("Health", gettext_noop("Health"),
         gettext_noop("How much damage a character takes before going down. The rules leave the injury track to "
                      "chapters not given, so this is a ruling: 30 unless the sheet says otherwise."),
         AT_SC_CONDITION),
        ("Down", gettext_noop("Down"),
         gettext_noop("A character whose damage has reached Health; an Edge Burn keeps them from death."),
         AT_SC_CONDITION, ("saved by an Edge Burn",)),
        ("Short rest", gettext_noop("Short and long rest"),
         gettext_noop("A short rest gives back one Edge, a long rest all of it. The GM calls rests; a player "
                      "asks for one."),
         gettext_noop("A Success Check sheet's Resources, and the Downtime page"),
         ("Long rest", "Ask for a short rest", "Ask for a long rest")),
        system=SUCCESS_CHECK,
    ),
    # ==== Tales from the Rocket House =============================================================
    *_terms(
        ROCKET_HOUSE_GROUP,
        ("Trait", gettext_noop("Trait"),
         gettext_noop("A rating in percent (50 average, 70 good, 90 outstanding, 100 legendary). A test rolls "
                      "d100 and succeeds at or under it; 100 always fails."), AT_RH_CHECK, ("Trait %", "traits")),
        ("Effect", gettext_noop("Effect"),
         gettext_noop("The tens digit of a successful roll: 0 a marginal success, 1–3 basic, 4–6 special, 7 or "
                      "more exceptional."),
         gettext_noop("Every Rocket House roll's result, and a fight's blows"), ("Effect dice",)),
        ("Net Effect", gettext_noop("Net Effect"),
         gettext_noop("The winner's Effect plus weapon, less the loser's Effect: the damage of a combat round "
                      "before armour."), AT_RH_ROUND),
        ("Difficulty modifier", gettext_noop("Difficulty modifier"),
         gettext_noop("The Trait moves in steps of 10 %: easy +10 up to easiest +30, hard −10 down to hardest −30."),
         gettext_noop("A Rocket House sheet's Checks (each chance per step), and the Roller"), ("Difficulty",)),
        ("Opposed test", gettext_noop("Opposed test"),
         gettext_noop("Both sides roll. If only one succeeds it wins; otherwise the higher roll wins, and a win "
                      "between two failures is more of a delay. Equal rolls are a stalemate unless the campaign "
                      "rules otherwise."),
         gettext_noop("The Roller, a fight's combat round, and the campaign's settings"),
         ("Stalemate", "Equal rolls in an opposed test")),
        ("Combat round", gettext_noop("Combat round"),
         gettext_noop("About three seconds: each pair of fighters rolls their combat Trait once, and the higher "
                      "Effect hits."), AT_RH_ROUND, ("A combat round", "Fight the round")),
        ("Stance", gettext_noop("Stance"),
         gettext_noop("Declared before a melee round. Both offensive: each success deals its full Effect. Both "
                      "defensive: they only circle. Full offense deals and takes full Effect unless met by full "
                      "defense, which adds 10 % to the roll and 2 to armour but never attacks."), AT_RH_ROUND,
         ("stances", "offensive", "defensive", "full offense", "full defense")),
        ("Wound", gettext_noop("Wound"),
         gettext_noop("One hit of 3 damage is a basic wound (−10 % to everything), 5 serious (−20 %, bleeding 1 "
                      "Fatigue a minute), 7 extreme (−30 %, 1 a turn), 9 kills. Only the worst wound's penalty "
                      "counts."), AT_RH_CONDITION,
         ("Wounds", "basic wound", "serious wound", "extreme wound", "splat")),
        ("Fatigue", gettext_noop("Fatigue"),
         gettext_noop("Toughness divided by 5, rounded down (76 gives 15); each point of damage costs one. At 0 "
                      "the character passes out, at minus the Toughness they are dead."), AT_RH_CONDITION,
         ("Fatigue left",)),
        ("Toughness", gettext_noop("Toughness"),
         gettext_noop("Staying on your feet: it sets the Fatigue, and after each wound a Toughness check at that "
                      "wound's penalty keeps the character conscious."),
         gettext_noop("A Rocket House sheet's numbers"), ("Toughness check",)),
        ("Bleeding", gettext_noop("Bleeding"),
         gettext_noop("Serious and extreme wounds lose Fatigue until first aid stops them; all bleeding adds up."),
         AT_RH_CONDITION),
        ("First aid", gettext_noop("First aid"),
         gettext_noop("A roll of the helper's First Aid Trait at the worst wound's penalty; a success stops the "
                      "bleeding."), gettext_noop("A Rocket House fight's order: First aid")),
        ("Strength Effect", gettext_noop("Strength Effect"),
         gettext_noop("One bonus Effect per level of Strength above Average (Good, 70 %, gives 2) for the whole fight, "
                      "added to the damage of a melee hit you scored. Each new fight fills it again."), AT_RH_POOL),
        ("Toughness armour", gettext_noop("Toughness armour"),
         gettext_noop("Under the Wounds Only rule: one point of armour per level of Toughness above Average, "
                      "spent in a fight to take damage off a hit."), AT_RH_POOL),
        ("Weapon Effect", gettext_noop("Weapon Effect"),
         gettext_noop("What a weapon adds to the Effect once a hit is scored, from +0 unarmed to +5 extreme; the "
                      "target's armour takes its rating off."), AT_RH_ROUND,
         ("First's weapon Effect", "Second's weapon Effect")),
        ("Less-lethal weapons", gettext_noop("Less-lethal weapons"),
         gettext_noop("Fists, tasers, pepper spray: they never kill outright and cause no bleeding."),
         AT_RH_ROUND),
        ("Wounds Only", gettext_noop("Wounds Only and Fatigue Only"),
         gettext_noop("The campaign's choice of how damage lands: wounds and Fatigue (the default), wounds alone "
                      "(a net Effect of 1, 4, 7 or 9 is a wound, a serious one, an extreme one or death), or "
                      "Fatigue alone."), AT_RULING, ("Fatigue Only", "How damage lands")),
        system=ROCKET_HOUSE,
    ),
    # ==== Core Rules, chapter V ===================================================================
    *_terms(
        CORE_RULES_GROUP,
        ("ARC", gettext_noop("Action Resolution Check"),
         gettext_noop("KS + US + the ES adjustment + other adjustments. It must be strictly higher than a "
                      "threshold (ARCT) or than an opponent's ARC (ARCO); a tie fails."), AT_CR_CHECK,
         ("ARCT", "ARCO", "Action Resolution Check")),
        ("KS", gettext_noop("Key stat"),
         gettext_noop("The attribute the task leans on most: Control, to steer."), AT_CR_CHECK, ("KS score",)),
        ("US", gettext_noop("Supporting stat"),
         gettext_noop("The attribute that helps: Accuracy, when steering."), AT_CR_CHECK, ("US score",)),
        ("ES", gettext_noop("Skill score"),
         gettext_noop("The skill's score: it picks the die of the ES adjustment, and how many actions a turn "
                      "allows."), AT_CR_CHECK, ("ES score",)),
        ("ES adjustment", gettext_noop("ES adjustment"),
         gettext_noop("The die the ES score picks (by default d4 for 1–2 up to d12 for 9–10): a face at or under "
                      "the score adds itself, a higher face takes off the excess."), AT_CR_CHECK,
         ("ES die", "ES die rolled", "ES dice table")),
        ("Threshold", gettext_noop("Threshold"),
         gettext_noop("The fixed value an ARC must beat: average 9, the others by default 3 apart (very easy 3, "
                      "easy 6, hard 12, very hard 15, extreme 18)."),
         gettext_noop("A Core Rules sheet's Checks (each chance per threshold), and a fight's declared action"),
         ("Threshold step",)),
        ("Other adjustments", gettext_noop("Other adjustments"),
         gettext_noop("The GM's terms for the situation: +1 per advantage, −1 per disadvantage, 2 for a huge "
                      "one."), AT_CR_CHECK),
        ("Actions per turn", gettext_noop("Actions per turn"),
         gettext_noop("One action a turn, and by default one more for every 5 points of ES: ES 5–9 act twice, "
                      "10 three times."), AT_RULING, ("ES per extra action",)),
        ("Reaction check", gettext_noop("Reaction check"),
         gettext_noop("A d10 at or under SOM when something shocking happens (an ambush, a friend falls); a "
                      "failure loses the rest of the turn. SOM 10 never fails, SOM 1 only on a 1."),
         gettext_noop("A Core Rules fight's order: Reaction check"), ("reaction",)),
        ("SOM", gettext_noop("State of Mind"),
         gettext_noop("Composure from 1 (panicked) to 10 (exalted): reaction checks roll under it, and the "
                      "lowest declares first."), AT_CR_NUMBERS, ("State of Mind",)),
        ("Empathy", gettext_noop("Empathy"),
         gettext_noop("Breaks a tie of State of Mind in the declaration order, lowest first."), AT_CR_NUMBERS),
        ("Perception", gettext_noop("Perception"),
         gettext_noop("Breaks a tie left after Empathy in the declaration order, lowest first; then a d10."),
         AT_CR_NUMBERS),
        ("Build", gettext_noop("Build"),
         gettext_noop("The body's frame: it sets the Load Threshold and how much burden is allowed."),
         AT_CR_NUMBERS),
        ("Load Threshold", gettext_noop("Load Threshold"),
         gettext_noop("Build × 3 kg: up to it a character is lightly burdened, up to twice it medium, three "
                      "times heavy."), AT_CR_LOAD, ("LOADT",)),
        ("Burden", gettext_noop("Burden"),
         gettext_noop("How weighed down a character is: light, medium or heavy by steps of the Load Threshold, "
                      "as far as the Build allows; beyond that overloaded, unable to act or move."), AT_CR_LOAD,
         ("overloaded",)),
        ("Declaration", gettext_noop("Declaration"),
         gettext_noop("In each six-second turn everyone declares, lowest State of Mind first (then Empathy, "
                      "Perception, a d10), and what happens lands together at the turn's end. A surprised "
                      "character sits the first turn out."), AT_CR_FIGHT,
         ("declares", "Next declaration", "A declared action", "Turn")),
        system=CORE_RULES,
    ),
]

#: Every term by its short form; short forms are unique across the rule sets.
BY_CODE: dict[str, Term] = {term.code: term for term in TERMS}
#: The groups in the order the glossary shows them: Zener Gate's first.
GROUPS: tuple[str, ...] = (STATS, CALCULATED, BREADTHS, SKILLS, KARMA, CAMPAIGN, CHECKS, FIGHTS, WOUNDS, TABLES,
                           ZEROSPACE_GROUP, SUCCESS_CHECK_GROUP, ROCKET_HOUSE_GROUP, CORE_RULES_GROUP)
#: The rule sets in the order the glossary shows them.
SYSTEMS: tuple[str, ...] = (ZENER, ZEROSPACE, SUCCESS_CHECK, ROCKET_HOUSE, CORE_RULES)


def _matches(term: Term, word: str) -> bool:
    return word in (term.code.casefold(), term.name.casefold(), *(alias.casefold() for alias in term.aliases))


def explain(code: str, system: str | None = None) -> Term | None:
    """The term a short form, name or other spelling names (any case), or None.

    ``system`` keeps the search to one rule set (a ZeroSpace page's "Endurance" is ZeroSpace's);
    without it Zener Gate's terms come first, then the other rule sets'. Within each, a short form
    as written wins over a match in any case, of a name or another spelling.
    """
    code = str(code)
    word = code.casefold()
    for tier in ((system,) if system is not None else (ZENER, None)):
        terms = [t for t in TERMS if (t.system == tier if tier is not None else t.system != ZENER)]
        found = next((t for t in terms if t.code == code), None) or next(
            (t for t in terms if _matches(t, word)), None)
        if found is not None:
            return found
    return None


def by_system() -> list[tuple[str, str, list[tuple[str, list[Term]]]]]:
    """The glossary as the page shows it: (rule set key, its name, [(group, its terms)]), Zener Gate first."""
    return [(system, SYSTEM_NAMES[system],
             [(group, terms) for group in GROUPS
              if (terms := [t for t in TERMS if t.group == group and t.system == system])])
            for system in SYSTEMS]
