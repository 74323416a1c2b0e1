"""Picking up a language by immersion, as time spent between or during adventures.

Article, "In-game language acquisition & improvement" (``rulebook.languages.immerse``): each
interval (3 h for the language at 0 ranks, then 6, 12 and 24 h for ranks 1–3) ends in a LAN check
on 4d6; success gains the rank, failure restarts the interval; an era gap is paid off first, 6 h a
rank, each check at −15. The clock lives on the language line (``Language.immersion``), so hours
logged in one session count in the next, and a Zener Transition in between only pauses it.
"""

from __future__ import annotations

import random
from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext as _

from campaign.changes import change_set
from campaign.errors import CampaignError
from characters.models import Character, Language
from characters.sheet import current_stats, immersion_view, progress_of
from characters.wounds import lock_in_play
from rolls.services import record_roll
from rulebook import RulesError
from rulebook.dice import EnteredDice
from rulebook.languages import ASPECT_NAMES, ASPECTS, IMMERSION_HOURS, immerse
from rulebook.words import Said, gettext, listed, said

#: The longest span logged at once (a season abroad); longer is likelier a typo.
MAX_HOURS = 24 * 120


#: A language's aspects, as the rulebook names them in a check's purpose.
ASPECTS_SAID = {"spoken": said("spoken"), "heard": said("heard"), "written": said("written"), "read": said("read")}


def _purposes() -> dict[str, Said]:
    """What an immersion check earns, as the rulebook words it in the current language
    (``ImmersionProgress.interval``) → the same words as a Said, for the feed and the log."""
    purposes = {gettext("era adjustment"): said("era adjustment"),
                gettext("the language at 0 ranks"): said("the language at 0 ranks")}
    for aspect in ASPECTS:
        for rank in (r + 1 for r in IMMERSION_HOURS if r is not None):
            purposes[gettext("%(aspect)s rank %(rank)s") % {"aspect": gettext(ASPECT_NAMES[aspect]), "rank": rank}] = (
                said("%(aspect)s rank %(rank)s", aspect=ASPECTS_SAID[aspect], rank=rank))
    return purposes


@transaction.atomic
def immersion_log(*, character: Character, language_id: int, by, hours, aspect: str | None = None,
                  era_gap: int | None = None, related: int | None = None, new_language: bool = False,
                  gm_modifier: int = 0, dice: list[int] | None = None, rng: random.Random | None = None,
                  idempotency_key: str | None = None) -> tuple[dict, bool]:
    """Log ``hours`` of immersion in one language of ``character`` (GM); return what happened.

    ``aspect``, ``era_gap`` and ``related`` change the clock's settings first (the GM sets the era
    gap after a transition moves the character to another era); ``new_language`` starts a language
    not held at all (its first 3 h earn it at 0 ranks). ``dice`` are the LAN checks' d6 faces in
    order (4 per check); the app rolls the rest. Each check goes in the roll feed. Sent again with
    the same ``idempotency_key``, the last log is answered again and nothing is logged twice.
    Returns (what happened, logged now).

    Raises:
        CampaignError: a language the sheet does not have, bad hours, or faces that do not fit.
    """
    write = change_set(campaign=character.campaign_id, by=by)
    locked = lock_in_play(character.pk)
    language = Language.objects.select_for_update().filter(character=locked, pk=language_id).first()
    if language is None:
        raise CampaignError(_("%(name)s's sheet has no language %(language)s.")
                            % {"name": locked.name, "language": language_id}, field="language")
    last = (language.immersion or {}).get("last") or {}
    if idempotency_key and last.get("key") == idempotency_key:
        return last["result"], False
    try:
        hours = Fraction(str(hours))
    except (ValueError, ZeroDivisionError):
        raise CampaignError(_("Give the hours as a number."), field="hours") from None
    if not 0 < hours <= MAX_HOURS:
        raise CampaignError(_("Log between 0 and %(most)s hours of immersion.") % {"most": MAX_HOURS}, field="hours")
    state = dict(language.immersion or {})
    if new_language:
        if any(getattr(language, a) for a in ASPECTS):
            raise CampaignError(_("Only a language with no ranks yet starts unheld."), field="new_language")
        state["held"] = False
    for name, value in (("aspect", aspect), ("era_gap", era_gap), ("related", related)):
        if value is not None:
            state[name] = value
    try:
        progress = progress_of(_with(language, state))
        roller = EnteredDice(dice or [], rng, label=_("LAN checks"))
        result = immerse(progress, hours=hours, lan=current_stats(locked)["LAN"], rng=roller,
                         gm_modifier=gm_modifier)
        roller.check_all_used()
    except RulesError as exc:
        raise CampaignError(str(exc), field="dice" if "face" in str(exc) else "aspect") from None
    after = result.progress
    if after.ranks is not None:
        for aspect_name in ASPECTS:
            setattr(language, aspect_name, after.ranks[aspect_name])
    language.immersion = {"aspect": after.aspect, "era_gap": after.era_gap, "hours": str(after.hours),
                          "related": after.related_languages, "held": after.ranks is not None}
    dice_rolled, used = roller.record(), 0
    # Each purpose as a Said (a purpose the table does not know stays as the rulebook wrote it).
    known = _purposes()
    purposes = [known.get(check.purpose, check.purpose) for check in result.checks]
    for check, purpose in zip(result.checks, purposes):
        faces = dice_rolled[used:used + len(check.roll.faces)]  # each die as rolled, typed ones marked
        used += len(faces)
        record_roll(campaign=locked.campaign_id, by=by, kind="downtime",
                    label=said("%(name)s: immersion in %(language)s, LAN check for %(purpose)s", name=locked.name,
                               language=language.name, purpose=purpose),
                    faces=faces, total=check.roll.total, success=check.success, probability=None,
                    detail={"breakdown": [[k, v] for k, v in check.breakdown], "at_hours": str(check.at_hours)})
    gained = [purpose for check, purpose in zip(result.checks, purposes) if check.success]
    # The hours as a number written once ("1.5"), the same in every language.
    logged = dict(by=str(by), hours=f"{float(hours):g}", language=language.name, name=locked.name)
    write.audit("language.immersion",
                said("%(by)s logged %(hours)s h of immersion in %(language)s for %(name)s: gained %(gained)s",
                     **logged, gained=listed(gained)) if gained else
                said("%(by)s logged %(hours)s h of immersion in %(language)s for %(name)s", **logged),
                data={"character": locked.pk, "language": language.pk, "hours": str(hours),
                      "checks": [{"purpose": c.purpose, "success": c.success} for c in result.checks]})
    view = immersion_view(language)
    answer = {"language": language.pk, "name": language.name,
            "ranks": {a: getattr(language, a) for a in ASPECTS},
            "checks": [{"purpose": c.purpose, "at_hours": str(c.at_hours), "target": c.breakdown[-1][1],
                        "faces": list(c.roll.faces), "total": c.roll.total, "success": c.success}
                       for c in result.checks],
            "immersion": {"aspect": view.aspect, "held": view.held, "era_gap": view.era_gap,
                          "hours": str(view.hours), "related": view.related, "next": view.text()}}
    if idempotency_key:
        language.immersion["last"] = {"key": idempotency_key, "result": answer}
    language.save()
    return answer, True


def _with(language: Language, state: dict) -> Language:
    """The line with another immersion state, unsaved (the settings the GM just changed)."""
    language.immersion = state
    return language
