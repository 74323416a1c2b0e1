"""The roller page (a check of the campaign's rule set or free dice, its odds chart, the feed),
the feed fragment the dashboard and the roller refresh live, and the universal tables."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from campaign.events import last_event_id
from campaign.permissions import access_campaign
from characters.models import Character
from characters.permissions import access_character
from characters.selectors import character_with_sheet
from characters.sheet import language_checks, line_check, skill_checks, stat_checks, weapon_checks
from rulebook import RulesError
from rulebook.systems import ParamError, get_system
from rulebook.tables import TABLES, lookup
from zenergate_site import numbers
from zenergate_site.errors import DomainError

from . import checks, selectors, services
from .charts import distribution_chart
from .forms import SituationForm, load_kinds
from .models import Roll
from .permissions import access_roll


def _inputs(rule_set, source) -> list[dict]:
    """The check's input fields with the values asked for (or the defaults)."""
    fields = []
    for param in rule_set.params:
        raw = source.get(param.name, "")
        value = raw if raw != "" else ("" if param.default is None else param.default)
        fields.append({"param": param, "value": value})
    return fields


def _odds(campaign, source) -> dict:
    """The odds of the check the form describes, or the reason there are none."""
    rule_set = services.rule_set_of(campaign)
    given = {p.name: source.get(p.name) for p in rule_set.params if source.get(p.name) not in (None, "")}
    try:
        params = rule_set.clean({**(campaign.rulings or {}), **given})
        odds = rule_set.odds(**params)
    except ParamError as exc:
        if exc.field not in source:  # a form not yet filled in (a fresh page): a prompt, not an error
            label = next((p.label for p in rule_set.params if p.name == exc.field), exc.field)
            return {"prompt": _("Give the %(input)s to see the odds of the check.") % {"input": _in_sentence(label)}}
        return {"error": str(exc), "field": exc.field}
    except RulesError as exc:
        return {"error": str(exc)}
    return {"odds": odds, "percent": numbers.percent(odds.probability, decimals=2),
            "exact": services.fraction_text(odds.probability), "chart": distribution_chart(odds.distribution, odds.success)}


def _in_sentence(label: str) -> str:
    """A rule set's input label inside running text: translated, and in English lower case
    ("the target"; German nouns keep their capital)."""
    said = _(label)
    return said.lower() if (get_language() or "en").startswith("en") else said


def _feed_context(request, access) -> dict:
    return {"rolls": selectors.feed(campaign_id=access.campaign.pk, user=request.user, is_gm=access.is_gm),
            "campaign": access.campaign, "access": access}


@login_required
@require_GET
def roller(request, campaign_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    campaign = access.campaign
    rule_set = services.rule_set_of(campaign)
    context = {"odds": _odds(campaign, request.GET), "rule_set": rule_set, "inputs": _inputs(rule_set, request.GET)}
    if request.htmx and request.GET.get("part") == "odds":
        return render(request, "rolls/_odds.html", context)
    context.update({"campaign": campaign, "access": access, "can_roll": access.role != "viewer"})
    if request.htmx and request.GET.get("part") == "check":
        return render(request, "rolls/_check.html", context)
    context.update(_feed_context(request, access))
    context.update({"live_campaign": campaign.pk, "live_after": last_event_id(campaign=campaign),
                    "notation": request.GET.get("notation", "")})
    return render(request, "rolls/roller.html", context)


@login_required
@require_POST
def roller_roll(request, campaign_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    if access.role == "viewer":
        raise PermissionDenied(_("Viewers watch the feed; players and GMs roll."))
    private = request.POST.get("private") == "on"
    if private and not access.is_gm:
        raise PermissionDenied(_("Only the campaign's GM rolls in private."))
    common = {"campaign": access.campaign, "by": request.user, "label": request.POST.get("label", "")[:120],
              "private": private}
    error, status = "", 201
    try:
        if request.POST.get("what") == "notation":
            services.roll_notation(text=request.POST.get("notation", ""), **common)
        else:
            rule_set = services.rule_set_of(access.campaign)
            check = {p.name: request.POST[p.name] for p in rule_set.params if request.POST.get(p.name, "") != ""}
            services.roll_check(check=check, **common)
    except DomainError as exc:
        error, status = exc.message, 400
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("campaign-roller", campaign_id=campaign_id)
    return render(request, "rolls/_feed_items.html", {**_feed_context(request, access), "error": error},
                  status=200 if not error else status)


@login_required
@require_GET
def feed(request, campaign_id: int):
    """The feed alone: what the dashboard and the roller swap in when the stream says "roll"."""
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    return render(request, "rolls/_feed_items.html", _feed_context(request, access))


@login_required
@require_GET
def glossary(request):
    """Every game term the pages use, explained, by rule set and group (Zener Gate's first), in
    the reader's language; anchors keep the English names so that links work in every language."""
    from django.utils.text import slugify
    from django.utils.translation import gettext

    from rulebook.glossary import by_system

    def shown(t):  # a short form beside the name, unless it is only a word of the name ("Reroll")
        return t.code != t.name and (t.code.isupper() or t.code.casefold() not in t.name.casefold())

    systems = [{"key": key, "name": gettext(name),
                "groups": [{"name": gettext(group), "slug": slugify(group),
                            "terms": [{"code": t.code, "slug": slugify(t.code), "name": gettext(t.name),
                                       "short": shown(t), "explanation": gettext(t.explanation),
                                       "where": gettext(t.where)} for t in terms]}
                           for group, terms in groups]}
               for key, name, groups in by_system()]
    return render(request, "rolls/glossary.html", {"systems": systems})


@login_required
@require_GET
def tables(request):
    """The universal tables, and a calculator that reads one by value or by index."""
    name = request.GET.get("table", "distance")
    table = TABLES.get(name) or TABLES["distance"]
    answer, error = None, ""
    by, raw = request.GET.get("by", "value"), request.GET.get("q", "").strip()
    if raw:
        try:
            row = lookup(table.name, index=int(raw)) if by == "index" else lookup(table.name, value=raw)
            answer = {"row": row, "value": _number(row.value)}
        except (RulesError, ValueError) as exc:
            error = str(exc) if isinstance(exc, RulesError) else _("Give the index as a whole number.")
    rows = [{"row": row, "value": _number(row.value)} for row in table.rows]
    return render(request, "rolls/tables.html", {"tables": TABLES.values(), "table": table, "rows": rows,
                                                 "answer": answer, "error": error, "by": by, "q": raw})


def _number(value) -> str:
    """A table value for reading: whole numbers as such, others to four significant figures."""
    if value.denominator == 1:
        return f"{value.numerator:,}"
    return f"{float(value):.4g}"


# --- Rolling from the sheet, and the GM's check builder --------------------------------------
def _sheet_line(request, character_id: int, source):
    """The character (its player's or a GM's to roll), the line asked for and its check."""
    access = access_character(user=request.user, character_id=character_id, write=True)
    character = character_with_sheet(character_id=access.character.pk)
    line = str(source.get("line", ""))[:40]
    check = line_check(character, line)
    if check is None:
        raise Http404(_("No such line on this sheet."))
    return access, character, line, check


def _situation(source) -> tuple[SituationForm, str, str]:
    """The form of the situation's terms, and (field, message) of the first thing wrong."""
    form = SituationForm(source)
    if form.is_valid():
        return form, "", ""
    field, message = form.first_error()
    return form, field, message


def _built_odds(build, form: SituationForm) -> dict:
    """The target with every term and its exact odds (extra-benefit dice included), or the error."""
    try:
        built = build(form.situation())
        extra = form.cleaned_data.get("extra") or 0
        odds = built.odds(extra)
    except DomainError as exc:
        return {"error": exc.message, "field": getattr(exc, "field", "")}
    # The target and dice rolled at: the miracle rule's or the extra-benefit dice's, when they apply.
    return {"built": built, "target": odds.effective_target, "dice": odds.dice, "kept": odds.kept,
            "percent": numbers.percent(odds.probability), "exact": services.fraction_text(odds.probability),
            "miracle": odds.miracle, "extra": extra, "extra_limit": built.extra_limit,
            "terms": built.breakdown, "chart": _chart(built, extra)}



def _chart(built, extra: int) -> dict:
    """The counted dice's totals, the ones at or under the target marked (the roller's chart)."""
    odds = get_system(services.SHEET_SYSTEM).odds(target=built.target, dice=built.dice, extra=extra)
    return distribution_chart(odds.distribution, odds.success)


@login_required
@require_GET
def sheet_roll_form(request, character_id: int):
    """The Roll form of one sheet line (loaded when its "Roll" opens), or only its odds for the
    terms typed so far (``?part=odds``)."""
    access, character, line, check = _sheet_line(request, character_id, request.GET)
    form, field, error = _situation(request.GET)
    odds = _built_odds(lambda situation: checks.line_built(character, line, situation), form) if not error else {}
    if "terms" in odds:  # the line's own terms are on the sheet already: show what the situation adds
        odds["terms"] = odds["terms"][len(check.breakdown):]
    context = {"character": character, "line": line, "check": check, "form": form, "error": error,
               "odds": odds, "key": uuid.uuid4().hex, "boxes": range(check.dice),
               "is_gm": access.role == "gm", "load_kinds": load_kinds()}
    template = "rolls/_sheet_roll_odds.html" if request.GET.get("part") == "odds" else "rolls/_sheet_roll.html"
    return render(request, template, context)


def _result(request, roll, *, status: int = 200, error: str = "", template: str = "rolls/_sheet_roll_result.html",
            extra_context: dict | None = None):
    """A sheet roll's result, with the Karma reroll offered when it failed and Karma is left."""
    character = roll.character
    karma = Character.objects.filter(pk=character.pk).values_list("karma", flat=True).first() if character else 0
    chain = [roll]
    while chain[0].reroll_of_id and len(chain) < 10:  # the rolls this one replaced, oldest first
        chain.insert(0, Roll.objects.get(pk=chain[0].reroll_of_id))
    rerolled = Roll.objects.filter(reroll_of=roll).exists()
    context = {"roll": roll, "chain": chain, "karma": karma, "error": error,
               "can_reroll": roll.success is False and karma >= 1 and not rerolled and character is not None,
               "key": uuid.uuid4().hex, **(extra_context or {})}
    return render(request, template, context, status=status)


def _faces_typed(source) -> tuple[list[int] | None, str]:
    faces = [f.strip() for f in source.getlist("dice") if f.strip()]
    if not all(f.isdigit() and 1 <= int(f) <= 6 for f in faces):
        return None, _("Each die is a face from 1 to 6; leave a box empty for the app to roll it.")
    return [int(f) for f in faces] or None, ""


@login_required
@require_POST
def sheet_roll_make(request, character_id: int):
    access, character, line, check = _sheet_line(request, character_id, request.POST)
    form, _field, error = _situation(request.POST)
    faces, wrong = _faces_typed(request.POST)
    private = request.POST.get("private") == "on"
    if private and access.role != "gm":
        raise PermissionDenied(_("Only the campaign's GM rolls in private."))
    if error or wrong:
        return render(request, "rolls/_sheet_roll_result.html", {"error": error or wrong}, status=400)
    try:
        roll, _made = services.sheet_roll(character=character, by=request.user, line=line, situation=form.situation(),
                                      extra=form.cleaned_data.get("extra") or 0, eventual=form.eventual_request(),
                                      dice=faces, private=private, is_gm=access.role == "gm",
                                      idempotency_key=request.POST.get("idempotency_key") or None)
    except DomainError as exc:
        return render(request, "rolls/_sheet_roll_result.html", {"error": exc.message}, status=exc.status_code)
    if not request.htmx:
        return redirect(reverse("character-sheet", args=[character.pk]))
    return _result(request, roll)


@login_required
@require_POST
def roll_reroll(request, roll_id: int):
    access = access_roll(user=request.user, roll_id=roll_id, reroll=True)
    try:
        roll, _ = services.roll_reroll(roll=access.roll, by=request.user, is_gm=access.is_gm,
                                       idempotency_key=request.POST.get("idempotency_key") or "")
    except DomainError as exc:
        return _result(request, access.roll, status=exc.status_code, error=exc.message)
    if not request.htmx:
        return redirect(reverse("character-sheet", args=[roll.character_id]))
    return _result(request, roll)


def _subjects(campaign, members) -> list[dict]:
    """What the builder can roll: the party's collective stats, a named target, each character's lines."""
    groups = [{"label": _("The party"), "options": [(f"party:{stat}", _("Party: collective %(stat)s") % {"stat": stat})
                                                    for stat in checks.PARTY_STATS]},
              {"label": _("No sheet"), "options": [("bare", _("A target I name (an NPC, a trap…)"))]}]
    for character in members:
        lines = [(f"stat:{code}", code) for code in stat_checks(character)]
        lines += [(f"skill:{pk}", c.label) for pk, c in skill_checks(character).items()]
        lines += [(f"weapon:{pk}", c.label) for pk, c in weapon_checks(character).items()]
        lines += [(f"language:{key}", c.label) for key, c in language_checks(character).items()]
        groups.append({"label": character.name,
                       "options": [(f"{character.pk}/{line}", f"{character.name}: {text}") for line, text in lines]})
    return groups


@dataclass(frozen=True)
class _Subject:
    """What the builder rolls: its form value, which terms its form offers, and how it is built."""

    value: str
    kind: str
    stat: str
    proficient: bool
    build: object  # Situation → checks.Built


def _builder_subject(campaign, members, source) -> _Subject:
    subject = str(source.get("subject") or "party:AWA")[:60]
    target, _ok = _int(source.get("target"), 10)
    dice, _ok = _int(source.get("dice_count"), 3)
    label = str(source.get("label") or "")[:80]
    strength = _int(source.get("strength"), 0)[0] if str(source.get("strength") or "").strip() else None

    def build(situation):
        return checks.subject_built(campaign, members, subject, situation, target=target, dice=dice, label=label,
                                    strength=strength)

    if subject.startswith("party:") or subject == "bare":
        return _Subject(subject, "party" if subject != "bare" else "bare", subject.partition(":")[2], True, build)
    owner, _slash, line = subject.partition("/")
    character = next((c for c in members if str(c.pk) == owner), None)
    check = line_check(character, line) if character is not None else None
    if check is None:
        raise Http404(_("No such line of a character in play."))
    return _Subject(subject, check.kind, check.stat, check.proficient, build)


def _int(raw, default: int) -> tuple[int, bool]:
    text = str(raw if raw is not None else "").strip().replace("−", "-")
    if not text:
        return default, True
    try:
        return int(text), True
    except ValueError:
        return 10**6, False  # out of every range: the builder names it


@login_required
@require_GET
def check_builder(request, campaign_id: int):
    """The GM's check builder: any check that is not an attack, term by term, with its odds."""
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
    campaign = access.campaign
    members = checks.party(campaign)
    subject = _builder_subject(campaign, members, request.GET)
    form, field, error = _situation(request.GET)
    odds = _built_odds(subject.build, form) if not error else {}
    context = {"campaign": campaign, "access": access, "form": form, "error": error, "odds": odds,
               "subject": subject.value, "line": subject, "load_kinds": load_kinds(),
               "subjects": _subjects(campaign, members), "key": uuid.uuid4().hex,
               "target": request.GET.get("target", "10"), "dice_count": request.GET.get("dice_count", "3"),
               "label": request.GET.get("label", ""), "private": request.GET.get("private") == "on",
               "strength": request.GET.get("strength", ""),
               "boxes": range(odds["dice"] if "dice" in odds else 4)}
    if request.htmx and request.GET.get("part") == "odds":
        return render(request, "rolls/_builder_odds.html", context)
    context.update(_feed_context(request, access))
    context.update({"live_campaign": campaign.pk, "live_after": last_event_id(campaign=campaign)})
    return render(request, "rolls/builder.html", context)


@login_required
@require_POST
def check_builder_roll(request, campaign_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
    campaign = access.campaign
    members = checks.party(campaign)
    build = _builder_subject(campaign, members, request.POST).build
    form, _, error = _situation(request.POST)
    faces, wrong = _faces_typed(request.POST)
    if error or wrong:
        return render(request, "rolls/_sheet_roll_result.html", {"error": error or wrong}, status=400)
    common = {"extra": form.cleaned_data.get("extra") or 0, "eventual": form.eventual_request(), "dice": faces,
              "private": request.POST.get("private") == "on",
              "idempotency_key": request.POST.get("idempotency_key") or None}
    try:
        built = build(form.situation())
        if built.character is not None:
            roll, _ = services.sheet_roll(character=built.character, by=request.user, line=built.line,
                                          situation=built.situation, **common)
        else:
            roll, _ = services.built_roll(campaign=campaign, by=request.user, built=built, **common)
    except DomainError as exc:
        return render(request, "rolls/_sheet_roll_result.html", {"error": exc.message}, status=exc.status_code)
    if not request.htmx:
        return redirect(reverse("check-builder", args=[campaign.pk]))
    if request.POST.get("part") == "surprise":  # the one-click button: its box again, with a new key
        return _result(request, roll, template="rolls/_surprise.html", extra_context={"campaign": campaign})
    return _result(request, roll)
