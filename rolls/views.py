"""The roller page (a check of the campaign's rule set or free dice, its odds chart, the feed),
the feed fragment the dashboard and the roller refresh live, and the universal tables."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from campaign.events import last_event_id
from campaign.permissions import access_campaign
from rulebook import RulesError
from rulebook.systems import ParamError
from rulebook.tables import TABLES, lookup
from zenergate_site.errors import DomainError

from . import selectors, services
from .charts import distribution_chart


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
