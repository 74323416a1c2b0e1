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
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from campaign.events import last_event_id
from campaign.models import Membership
from campaign.permissions import access_campaign
from rulebook.systems.sheets import AWARD, BURN, LONG_REST, NEW_FIGHT, SESSION, SHORT_REST, SPEND, spec_for
from zenergate_site.errors import DomainError

from .. import selectors, system_sheets
from ..permissions import access_system_sheet
from .party import party_page

#: Empty rows under the lines, to add new ones without a script.
BLANK_ROWS = 3

#: What the GM's button for each way of refilling a resource says.
REFILL_BUTTONS = {
    SHORT_REST: gettext_lazy("Short rest"), LONG_REST: gettext_lazy("Long rest"), SESSION: gettext_lazy("New session"),
    NEW_FIGHT: gettext_lazy("Fill for a new fight"), AWARD: gettext_lazy("GM's award (+1)"),
}
#: Each action by name, as the page says what it did.
ACTION_NAMES = {
    SHORT_REST: gettext_lazy("Short rest"), LONG_REST: gettext_lazy("Long rest"), SESSION: gettext_lazy("New session"),
    NEW_FIGHT: gettext_lazy("New fight"), AWARD: gettext_lazy("GM's award (+1)"), BURN: gettext_lazy("Edge Burn"),
}
#: Points of each resource, counted (``% {"n": points}``).
POINTS = {
    "plot_points": ngettext_lazy("%(n)s plot point", "%(n)s plot points", "n"),
    "edge": ngettext_lazy("%(n)s Edge", "%(n)s Edge", "n"),
    "strength_effect": ngettext_lazy("%(n)s point of Strength Effect", "%(n)s points of Strength Effect", "n"),
    "toughness_armour": ngettext_lazy("%(n)s point of Toughness armour", "%(n)s points of Toughness armour", "n"),
}


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


def _pool_buttons(pool: dict, spec, *, is_gm: bool, down: bool) -> dict:
    """A resource with the buttons that can act on it now: "Spend one" while a point is left; each
    of the GM's refills only where it changes something (a rest or an award not on a full pool, a
    new session not where the session's points already are); Edge Burn for a character down with
    a point to burn."""
    current, maximum = pool["current"], pool["maximum"]
    full = maximum is not None and current >= maximum
    refills = []
    for refill in pool["refills"] if is_gm else ():
        acts = current != spec.pool(pool["key"]).start if refill == SESSION else not full
        if acts:
            refills.append((refill, REFILL_BUTTONS.get(refill, refill)))
    return {**pool, "can_spend": current > 0, "refill_buttons": refills,
            "can_burn": pool["key"] == "edge" and down and current > 0}


def pool_done(entry, maximum: int | None) -> str:
    """What a spend or a refill did, in words: "Spent 1 plot point: 2 left."."""
    amount = POINTS.get(entry.pool)
    amount = amount % {"n": abs(entry.amount)} if amount is not None else str(abs(entry.amount))
    left = {"amount": amount, "left": entry.balance_after, "maximum": maximum,
            "action": ACTION_NAMES.get(entry.action, entry.action)}
    if entry.action == SPEND:
        return (_("Spent %(amount)s: %(left)s left.") if maximum is None
                else _("Spent %(amount)s: %(left)s of %(maximum)s left.")) % left
    if entry.amount > 0:
        return (_("%(action)s: gained %(amount)s, now %(left)s.") if maximum is None
                else _("%(action)s: gained %(amount)s, now %(left)s of %(maximum)s.")) % left
    if entry.amount < 0:
        return (_("%(action)s: lost %(amount)s, now %(left)s.") if maximum is None
                else _("%(action)s: lost %(amount)s, now %(left)s of %(maximum)s.")) % left
    return (_("%(action)s: nothing changed, %(left)s left.") if maximum is None
            else _("%(action)s: nothing changed, %(left)s of %(maximum)s left.")) % left


def _page(request, access, *, error: str = "", typed: list[dict] | None = None, status: int = 200):
    sheet = access.sheet
    view = selectors.system_sheet_view(sheet=sheet, rulings=sheet.campaign.rulings)
    view["system_name"] = _(view["system_name"])
    spec = view["spec"]
    down = view["condition"]["state"] == "down"
    context = {
        "sheet": sheet, "campaign": sheet.campaign, "access": access, "view": view, "error": error,
        "pools": [_pool_buttons(pool, spec, is_gm=access.is_gm, down=down) for pool in view["pools"]],
        "rows": _rows(sheet.lines, spec, typed),
        "labels": [(p, spec.rule_set.param_named(p).label) for p in spec.line_params],
        "ledger": selectors.pool_ledger(sheet=sheet, limit=10),
        "rest_asked": selectors.rest_asked(sheet=sheet), "rests": spec.rests,
        "action_key": uuid.uuid4().hex,  # one tap, one spend, however often the form is sent
        "live_campaign": sheet.campaign_id, "live_after": last_event_id(campaign=sheet.campaign),
    }
    return render(request, "characters/system_sheet.html", context, status=status)


@login_required
@require_POST
def system_sheet_new(request, campaign_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    if access.role not in (Membership.Role.GM, Membership.Role.PLAYER):
        raise PermissionDenied(_("Viewers watch; players and the GM make characters."))
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
            messages.success(request, _("Asked: the GM sees it on this sheet and in the log."))
            return redirect("system-sheet", access.sheet.pk)
        entry, _created = system_sheets.pool_act(
            sheet=access.sheet, by=request.user, is_gm=access.is_gm, pool=request.POST.get("pool", ""),
            action=request.POST.get("action", ""), use=request.POST.get("use", ""),
            idempotency_key=request.POST.get("key") or None)
    except DomainError as exc:
        return _page(request, access, error=str(exc), status=exc.status_code)
    sheet = entry.sheet  # as the move left it (an Edge Burn lowers the maximum too)
    messages.success(request, pool_done(entry, spec_for(sheet.system).pool_maximum(entry.pool, sheet.numbers)))
    return redirect("system-sheet", access.sheet.pk)
