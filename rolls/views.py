"""The roller page (a check of the campaign's rule set or free dice, its odds chart, the feed),
the feed fragment the dashboard and the roller refresh live, and the universal tables."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from campaign.events import last_event_id
from campaign.permissions import access_campaign
from characters.models import Character
from characters.permissions import access_character
from characters.selectors import character_with_sheet
from characters.sheet import line_check
from rulebook import RulesError
from rulebook.dice import check_odds
from rulebook.systems import ParamError
from rulebook.tables import TABLES, lookup
from zenergate_site.errors import DomainError

from . import selectors, services
from .charts import distribution_chart
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
            return {"prompt": f"Give the {label.lower()} to see the odds of the check."}
        return {"error": str(exc), "field": exc.field}
    except RulesError as exc:
        return {"error": str(exc)}
    return {"odds": odds, "percent": f"{float(odds.probability) * 100:.2f}",
            "exact": services.fraction_text(odds.probability), "chart": distribution_chart(odds.distribution, odds.success)}


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
        raise PermissionDenied("Viewers watch the feed; players and GMs roll.")
    private = request.POST.get("private") == "on"
    if private and not access.is_gm:
        raise PermissionDenied("Only the campaign's GM rolls in private.")
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
            error = str(exc) if isinstance(exc, RulesError) else "Give the index as a whole number."
    rows = [{"row": row, "value": _number(row.value)} for row in table.rows]
    return render(request, "rolls/tables.html", {"tables": TABLES.values(), "table": table, "rows": rows,
                                                 "answer": answer, "error": error, "by": by, "q": raw})


def _number(value) -> str:
    """A table value for reading: whole numbers as such, others to four significant figures."""
    if value.denominator == 1:
        return f"{value.numerator:,}"
    return f"{float(value):.4g}"


# --- Rolling from the sheet -----------------------------------------------------------------
def _sheet_line(request, character_id: int, source):
    """The character (its player's or a GM's to roll), the line asked for and its check."""
    access = access_character(user=request.user, character_id=character_id, write=True)
    character = character_with_sheet(character_id=access.character.pk)
    line = str(source.get("line", ""))[:40]
    check = line_check(character, line)
    if check is None:
        raise Http404("No such line on this sheet.")
    return access, character, line, check


def _whole(source, name: str, low: int, high: int, wrong: str) -> tuple[int, str]:
    raw = str(source.get(name, "")).strip().replace("−", "-")
    try:
        value = int(raw or 0)
    except ValueError:
        return 0, wrong
    return (value, "") if low <= value <= high else (0, wrong)


def _terms(source) -> tuple[dict, str]:
    """The situation's terms as the Roll form sends them, or the first thing wrong with them."""
    limit, count = services.MODIFIER_LIMIT, services.COUNT_LIMIT
    modifier, e1 = _whole(source, "modifier", -limit, limit,
                          f"The modifier is a whole number from −{limit} to +{limit}.")
    relevant, e2 = _whole(source, "relevant", 0, count, f"Count further relevant skills from 0 to {count}.")
    indirect, e3 = _whole(source, "indirect", 0, count, f"Count related skills from 0 to {count}.")
    time_taken = str(source.get("time_taken", "")).strip() or None
    return ({"modifier": modifier, "relevant": relevant, "indirect": indirect, "time_taken": time_taken},
            e1 or e2 or e3)


def _line_odds(character, line: str, terms: dict) -> dict:
    """The target with every term, and its exact odds, for the Roll form."""
    try:
        check, target, breakdown = services.sheet_check(character, line, **terms)
        odds = check_odds(target, check.dice)
    except (DomainError, RulesError) as exc:
        return {"error": getattr(exc, "message", str(exc))}
    return {"target": target, "dice": odds.dice, "percent": f"{float(odds.probability) * 100:.1f}",
            "exact": services.fraction_text(odds.probability), "miracle": odds.dice != check.dice,
            "terms": breakdown[len(check.breakdown):]}


@login_required
@require_GET
def sheet_roll_form(request, character_id: int):
    """The Roll form of one sheet line (loaded when its "Roll" opens), or only its odds for the
    terms typed so far (``?part=odds``)."""
    access, character, line, check = _sheet_line(request, character_id, request.GET)
    terms, error = _terms(request.GET)
    context = {"character": character, "line": line, "check": check, "terms": terms, "error": error,
               "odds": _line_odds(character, line, terms) if not error else {}, "key": uuid.uuid4().hex,
               "boxes": range(check.dice)}
    template = "rolls/_sheet_roll_odds.html" if request.GET.get("part") == "odds" else "rolls/_sheet_roll.html"
    return render(request, template, context)


def _result(request, roll, *, status: int = 200, error: str = ""):
    """A sheet roll's result, with the Karma reroll offered when it failed and Karma is left."""
    character = roll.character
    karma = Character.objects.filter(pk=character.pk).values_list("karma", flat=True).first() if character else 0
    chain = [roll]
    while chain[0].reroll_of_id and len(chain) < 10:  # the rolls this one replaced, oldest first
        chain.insert(0, Roll.objects.get(pk=chain[0].reroll_of_id))
    rerolled = Roll.objects.filter(reroll_of=roll).exists()
    context = {"roll": roll, "chain": chain, "karma": karma, "error": error,
               "can_reroll": roll.success is False and karma >= 1 and not rerolled, "key": uuid.uuid4().hex}
    return render(request, "rolls/_sheet_roll_result.html", context, status=status)


@login_required
@require_POST
def sheet_roll_make(request, character_id: int):
    access, character, line, check = _sheet_line(request, character_id, request.POST)
    terms, error = _terms(request.POST)
    faces = [f.strip() for f in request.POST.getlist("dice") if f.strip()]
    if error or not all(f.isdigit() and 1 <= int(f) <= 6 for f in faces):
        return render(request, "rolls/_sheet_roll_result.html",
                      {"error": error or "Each die is a face from 1 to 6; leave a box empty for the app to roll it."},
                      status=400)
    try:
        roll, _ = services.sheet_roll(character=character, by=request.user, line=line, **terms,
                                      dice=[int(f) for f in faces] or None,
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
