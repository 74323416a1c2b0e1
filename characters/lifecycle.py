"""A character's life: draft → submitted → active (approved) → dead / retired; and reverts."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.changes import change_set
from rulebook.words import said
from zenergate_site import limits

from . import selectors
from . import sheet as sheet_rules
from .errors import CharacterConflict, CharacterError
from .items import ITEM_KINDS, KIND_WORDS
from .models import STAT_FIELDS, Character
from .services import rebuild_stats
from .signals import character_approved

State = Character.State
#: The states the GM marks a character with, as a log line says them ("… marked Mara dead").
STATES_SAID = {State.ACTIVE: said("active"), State.DEAD: said("dead"), State.RETIRED: said("retired")}


def _problems_blocking_play(character: Character) -> dict[str, list[str]]:
    """Return what stops this sheet from being submitted, keyed by the field to fix."""
    errors: dict[str, list[str]] = {}
    if not character.skills.all():
        errors["skills"] = [_("Add the character's profession as its first skill.")]
    computed = sheet_rules.compute_sheet(character)
    if computed.budget is None:
        errors["stats"] = computed.problems or [_("The sheet cannot be computed.")]
    elif computed.budget.overspent:
        b = computed.budget
        errors["budget"] = [_("The sheet spends %(spent)s skill points but has %(available)s: remove %(over)s or earn "
                              "more (disadvantages, stat trades).") % {"spent": b.spent, "available": b.available,
                                                                        "over": b.spent - b.available}]
    return errors


@transaction.atomic
def character_submit(*, character: Character, by) -> Character:
    """Hand a finished draft to the GM for approval."""
    change_set(campaign=character.campaign_id, by=by)
    Character.objects.select_for_update(no_key=True).get(pk=character.pk)
    character = selectors.character_with_sheet(character_id=character.pk)
    if character.state != State.DRAFT:
        raise CharacterConflict(_("Only a draft can be submitted; %(name)s is %(state)s.")
                                % {"name": character.name, "state": character.state_word()}, field="state")
    errors = _problems_blocking_play(character)
    if errors:
        field, messages = next(iter(errors.items()))
        raise CharacterError(" ".join(messages), field=field)
    character.state = State.SUBMITTED
    character.save(update_fields=["state", "updated_at"])
    change_set(campaign=character.campaign, by=by).audit(
        "character.submit", said("%(by)s submitted %(name)s for approval", by=str(by), name=character.name),
        data={"character": character.pk})
    return character


@transaction.atomic
def character_approve(*, character: Character, by) -> Character:
    """Approve a submitted sheet: freeze its calculated stats and open its Karma ledger."""
    change_set(campaign=character.campaign_id, by=by)
    Character.objects.select_for_update(no_key=True).get(pk=character.pk)
    character = selectors.character_with_sheet(character_id=character.pk)
    if character.state != State.SUBMITTED:
        raise CharacterConflict(_("Only a submitted sheet can be approved; %(name)s is %(state)s.")
                                % {"name": character.name, "state": character.state_word()}, field="state")
    pending = [_("%(kind)s “%(name)s”") % {"kind": KIND_WORDS[name], "name": item.name}
               for name, kind in ITEM_KINDS.items() if kind.needs_classification
               for item in getattr(character, name).all() if not item.classified]
    if pending:
        raise CharacterError(_("Classify these first: %(lines)s.") % {"lines": ", ".join(pending)},
                             field="classification")
    errors = _problems_blocking_play(character)
    if errors:
        field, messages = next(iter(errors.items()))
        raise CharacterError(" ".join(messages), field=field)
    derived = sheet_rules.derived(character)
    character.intelligence = derived.intelligence.total
    character.hit_points = derived.hit_points.total
    character.shock_threshold = derived.shock_threshold.total
    character.endurance_max = derived.endurance.total
    character.starting_karma = sheet_rules.starting_karma(character).total
    character.state = State.ACTIVE
    character.review_comment = ""
    character.save(update_fields=["intelligence", "hit_points", "shock_threshold", "endurance_max",
                                  "starting_karma", "state", "review_comment", "updated_at"])
    change_set(campaign=character.campaign, by=by).audit(
        "character.approve", said("%(by)s approved %(name)s", by=str(by), name=character.name),
        data={"character": character.pk})
    character_approved.send(sender=Character, character=character, by=by)
    return character


@transaction.atomic
def character_return(*, character: Character, by, comment: str) -> Character:
    """Send a submitted sheet back to its player with the GM's comment."""
    change_set(campaign=character.campaign_id, by=by)
    character = Character.objects.select_for_update(no_key=True).select_related("campaign").get(pk=character.pk)
    if character.state != State.SUBMITTED:
        raise CharacterConflict(_("Only a submitted sheet can be returned."), field="state")
    comment = (comment or "").strip()
    if not comment:
        raise CharacterError(_("Say what the player should change."), field="comment")
    character.state = State.DRAFT
    character.review_comment = comment[:limits.REVIEW_COMMENT]
    character.save(update_fields=["state", "review_comment", "updated_at"])
    change_set(campaign=character.campaign, by=by).audit(
        "character.return", said("%(by)s returned %(name)s: %(comment)s", by=str(by), name=character.name,
                                 comment=comment[:120]),
        data={"character": character.pk})
    return character


@transaction.atomic
def character_set_state(*, character: Character, state: str, by) -> Character:
    """Mark an active character dead or retired, or bring one back (GM only)."""
    change_set(campaign=character.campaign_id, by=by)
    if state not in (State.ACTIVE, State.DEAD, State.RETIRED):
        raise CharacterError(_("The GM may set active, dead or retired here."), field="state")
    character = Character.objects.select_for_update(no_key=True).select_related("campaign").get(pk=character.pk)
    if character.state in (State.DRAFT, State.SUBMITTED):
        raise CharacterConflict(_("Approve the sheet first."), field="state")
    character.state = state
    character.save(update_fields=["state", "updated_at"])
    change_set(campaign=character.campaign, by=by).audit(
        "character.state", said("%(by)s marked %(name)s %(state)s", by=str(by), name=character.name,
                                state=STATES_SAID[character.state]),
        data={"character": character.pk})
    return character


#: Fields a history row never lists: bookkeeping, not the sheet.
_UNLISTED = {"updated_at", "created_at", "history_id", "history_date", "history_user", "history_type",
             "history_change_reason", "id", "character", "position"}


#: Fields a history row lists to the GM alone: the GM's notes, and the wound clocks, which hold
#: what the GM keeps behind the screen (how long Stimutabs last before they wear off).
_GM_ONLY_FIELDS = {"gm_notes", "wounds_detail"}


def readable(value) -> object:
    """A stored value as the history says it: ``{"AWA": -2, "ENC": 1}`` → "AWA −2, ENC +1",
    a list of objects one after the other, a flag yes or no; text and numbers as they are."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, dict):
        if not value:
            return _("none")
        signed = any(isinstance(v, int) and not isinstance(v, bool) and v < 0 for v in value.values())

        def shown(v):
            if signed and isinstance(v, int) and not isinstance(v, bool):
                return f"+{v}" if v > 0 else str(v).replace("-", "−")
            return readable(v)
        return ", ".join(f"{str(k).replace('_', ' ')} {shown(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return "; ".join(str(readable(v)) for v in value) if value else _("none")
    return value


def _changes(record, previous, *, is_gm: bool) -> list[tuple[str, object, object]]:
    """Return (field, old, new) for every field a record changed from the one before.

    GM-only fields are listed to the GM only: players never see them, not even in the history.
    """
    if previous is None:
        return []
    out = []
    for field in record.instance._meta.concrete_fields:
        name = field.attname
        if field.name in _UNLISTED or name in _UNLISTED or (name in _GM_ONLY_FIELDS and not is_gm):
            continue
        old, new = getattr(previous, name), getattr(record, name)
        if old != new:
            out.append((field.verbose_name if field.name != name else field.name.replace("_", " "),
                        readable(old), readable(new)))
    return out


def _author(record) -> str | None:
    """Who made a history record: their username, or the name an imported record kept as text."""
    if record.history_user is not None:
        return record.history_user.username
    reason = record.history_change_reason or ""
    if reason.startswith("by ") and reason.endswith("(imported)"):
        return reason[3:]  # "bob (imported)"
    return None


def history(character: Character, limit: int = 100, *, is_gm: bool = False) -> list[dict]:
    """Return the sheet's changes, newest first: the character row and every sheet line.

    Each row lists the fields it changed, old → new. ``at`` is the moment to pass to
    ``character_revert`` to go back to just after that change; ``can_revert`` says whether a
    revert to it can succeed (never to before the GM's approval of a sheet in play).
    """
    records = list(character.history.select_related("history_user").order_by("history_date", "history_id"))
    approved = next((r.history_date for r in records if r.state == State.ACTIVE), None)
    in_play = character.state not in (State.DRAFT, State.SUBMITTED)

    def revertible(moment) -> bool:
        return not in_play or (approved is not None and moment >= approved)

    rows, previous = [], None
    for h in records:
        rows.append({"when": h.history_date, "at": h.history_date,
                     "who": _author(h),
                     "what": {"+": _("created the sheet"), "-": _("deleted the sheet")}.get(h.history_type,
                                                                                            _("changed the sheet")),
                     "changes": _changes(h, previous, is_gm=is_gm), "history_id": h.history_id,
                     "can_revert": revertible(h.history_date)})
        previous = h
    for name, kind in ITEM_KINDS.items():
        lines = kind.model.history.filter(character_id=character.pk).select_related("history_user")
        last: dict[int, object] = {}
        for h in lines.order_by("history_date", "history_id"):
            what = {"+": _("added %(kind)s %(name)s"), "-": _("removed %(kind)s %(name)s"),
                    "~": _("changed %(kind)s %(name)s")}[h.history_type]
            rows.append({"when": h.history_date, "at": h.history_date,
                         "who": _author(h),
                         "what": what % {"kind": KIND_WORDS[name], "name": h.name}, "history_id": None,
                         "changes": _changes(h, last.get(h.id), is_gm=is_gm) if h.history_type == "~" else [],
                         "can_revert": revertible(h.history_date)})
            last[h.id] = h
    rows.sort(key=lambda r: r["when"], reverse=True)
    return rows[:limit]


#: What a revert restores: the sheet as the player built it. State, frozen calculated stats,
#: Karma and what it bought, Complications and wounds belong to play and the ledger, not to the sheet.
REVERTED_FIELDS = ("name", "rolled_stats", "stat_trades", "karma_swaps", "int_plus_d6", "int_minus_d6",
                   "gm_notes", "review_comment")


@transaction.atomic
def character_revert(*, character: Character, by, history_id: int | None = None, at=None) -> Character:
    """Put the sheet back as it was at one point of its history (GM only).

    The point is a character history record (``history_id``) or a moment (``at``). The
    character's build and every sheet line are restored as they stood then; lines added since
    are removed. Karma raises and Complication setbacks stay on top of the restored stats.
    An approved character cannot go back to before its approval: that would undo a ledger.
    """
    change_set(campaign=character.campaign_id, by=by)
    character = Character.objects.select_for_update(no_key=True).select_related("campaign").get(pk=character.pk)
    if history_id is not None:
        record = character.history.filter(history_id=history_id).first()
        if record is None:
            raise CharacterError(_("No such point in this sheet's history."), field="history_id")
        moment = record.history_date
    elif at is not None:
        moment = at
        record = character.history.filter(history_date__lte=moment).order_by("-history_date", "-history_id").first()
        if record is None:
            raise CharacterError(_("The sheet did not exist yet at that moment."), field="at")
    else:
        raise CharacterError(_("Say which point of the history to go back to."), field="history_id")
    if character.state not in (State.DRAFT, State.SUBMITTED):
        approved = character.history.filter(state=State.ACTIVE).order_by("history_date").first()
        if approved is not None and moment < approved.history_date:
            raise CharacterConflict(_("That point is before the GM approved the sheet; a revert cannot undo an "
                                      "approval."), field="history_id")
    old = record.instance
    for name in REVERTED_FIELDS:
        setattr(character, name, getattr(old, name))
    stats = rebuild_stats(character)
    for code, value in stats.items():
        setattr(character, STAT_FIELDS[code], value)
    character.save()
    for kind in ITEM_KINDS.values():
        then = {obj.pk: obj for obj in kind.model.history.as_of(moment).filter(character_id=character.pk)}
        kind.model.objects.filter(character=character).exclude(pk__in=list(then)).delete()
        for obj in then.values():
            obj.character_id = character.pk
            obj.save()
    # The moment as numbers (its time zone the site's): the same in every language.
    change_set(campaign=character.campaign, by=by).audit(
        "character.revert", said("%(by)s reverted %(name)s to %(moment)s", by=str(by), name=character.name,
                                 moment=f"{timezone.localtime(moment):%Y-%m-%d %H:%M:%S}"),
        data={"character": character.pk, "history_id": record.history_id})
    return character
