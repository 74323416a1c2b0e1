"""The pages of the other rule sets' sheets: make one, read and edit it, spend or refill a resource.

The form posts plain fields (``name``, ``number-<name>``, ``line-<n>-name`` and
``line-<n>-<input>``); a line row left without a name is dropped, so clearing a name removes
the line. Errors come back on the page with what was typed kept.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from campaign.events import last_event_id
from campaign.models import Membership
from campaign.permissions import access_campaign
from rulebook.systems.sheets import spec_for
from zenergate_site.errors import DomainError

from .. import selectors, system_sheets
from ..permissions import access_system_sheet
from .party import party_page

#: Empty rows under the lines, to add new ones without a script.
BLANK_ROWS = 3


def _typed_lines(post, params) -> list[dict]:
    count = int(post.get("line-count") or 0) if str(post.get("line-count") or "0").isdigit() else 0
    lines = []
    for index in range(min(count, 100)):
        name = (post.get(f"line-{index}-name") or "").strip()
        if not name:
            continue
        lines.append({"name": name, "inputs": {param: post.get(f"line-{index}-{param}", "") for param in params}})
    return lines


def _rows(sheet_lines: list[dict], spec, typed: list[dict] | None) -> list[dict]:
    """The edit form's rows: what was typed (after an error) or the sheet's lines, then blanks."""
    source = typed if typed is not None else sheet_lines
    rows = [{"name": line["name"], "inputs": [(p, line["inputs"].get(p, "")) for p in spec.line_params]}
            for line in source]
    rows += [{"name": "", "inputs": [(p, "") for p in spec.line_params]} for _ in range(BLANK_ROWS)]
    return rows


def _page(request, access, *, error: str = "", typed: list[dict] | None = None, status: int = 200):
    sheet = access.sheet
    view = selectors.system_sheet_view(sheet=sheet, rulings=sheet.campaign.rulings)
    spec = view["spec"]
    context = {
        "sheet": sheet, "campaign": sheet.campaign, "access": access, "view": view, "error": error,
        "rows": _rows(sheet.lines, spec, typed),
        "labels": [(p, spec.rule_set.param_named(p).label) for p in spec.line_params],
        "ledger": selectors.pool_ledger(sheet=sheet, limit=10),
        "rest_asked": selectors.rest_asked(sheet=sheet),
        "action_key": uuid.uuid4().hex,  # one tap, one spend, however often the form is sent
        "live_campaign": sheet.campaign_id, "live_after": last_event_id(campaign=sheet.campaign),
    }
    return render(request, "characters/system_sheet.html", context, status=status)


@login_required
@require_POST
def system_sheet_new(request, campaign_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    if access.role not in (Membership.Role.GM, Membership.Role.PLAYER):
        raise PermissionDenied("Viewers watch; players and the GM make characters.")
    try:
        sheet = system_sheets.system_sheet_create(campaign=access.campaign, owner=request.user, by=request.user,
                                                  name=request.POST.get("name", ""))
    except DomainError as exc:
        return party_page(request, access, sheet_error=str(exc), status=exc.status_code)
    return redirect("system-sheet", sheet.pk)


@login_required
@require_http_methods(["GET", "POST"])
def system_sheet_page(request, sheet_id: int):
    access = access_system_sheet(user=request.user, sheet_id=sheet_id, write=request.method == "POST")
    if request.method == "GET":
        return _page(request, access)
    spec = spec_for(access.sheet.system)
    typed = _typed_lines(request.POST, spec.line_params)
    numbers = {param.name: request.POST.get(f"number-{param.name}", "") for param in spec.numbers}
    try:
        system_sheets.system_sheet_update(sheet=access.sheet, by=request.user, name=request.POST.get("name", ""),
                                          lines=typed, numbers=numbers)
    except DomainError as exc:
        return _page(request, access, error=str(exc), typed=typed, status=exc.status_code)
    return redirect("system-sheet", access.sheet.pk)


@login_required
@require_POST
def system_sheet_pool(request, sheet_id: int):
    access = access_system_sheet(user=request.user, sheet_id=sheet_id, write=True)
    try:
        if request.POST.get("action") == "ask_rest":
            system_sheets.rest_ask(sheet=access.sheet, by=request.user, rest=request.POST.get("rest", ""))
            messages.success(request, "Asked: the GM sees it on this sheet and in the log.")
            return redirect("system-sheet", access.sheet.pk)
        system_sheets.pool_act(sheet=access.sheet, by=request.user, is_gm=access.is_gm,
                               pool=request.POST.get("pool", ""), action=request.POST.get("action", ""),
                               use=request.POST.get("use", ""), idempotency_key=request.POST.get("key") or None)
    except DomainError as exc:
        return _page(request, access, error=str(exc), status=exc.status_code)
    return redirect("system-sheet", access.sheet.pk)
